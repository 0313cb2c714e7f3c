import { ImageUp } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { useClientCreatives } from '../api/get-client-creatives';
import { CreativeItems } from './creative-items';

/** The client's uploads, grouped by contract (named as the portal names contracts). */
export function ClientCreatives({
  contractName,
}: {
  contractName: (contract: { id: string; title: string | null }) => string;
}) {
  const { data, isLoading, error } = useClientCreatives();
  const rows = data?.rows ?? [];
  const groups = new Map<string, typeof rows>();
  for (const creative of rows) groups.set(creative.contractId, [...(groups.get(creative.contractId) ?? []), creative]);

  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>My Creatives</CardTitle>
        <CardDescription>
          {data ? `${data.total} file${data.total === 1 ? '' : 's'} uploaded` : 'The files you sent us, by contract'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        {isLoading && <Skeleton className="h-24 rounded-lg" />}
        {error && !data && <ErrorState title="Could not load your creatives">Reload the page to try again.</ErrorState>}
        {data && rows.length === 0 && (
          <p className="flex flex-col items-center gap-2 py-6 text-center text-sm text-muted-foreground">
            <ImageUp className="size-8" aria-hidden />
            No creatives uploaded yet
          </p>
        )}
        {[...groups.entries()].map(([contractId, creatives]) => {
          const name = contractName({ id: contractId, title: creatives[0].contractTitle });
          return (
            <section key={contractId} className="grid gap-2" aria-label={`Creatives for ${name}`}>
              <h3 className="text-sm font-semibold text-slate-800">{name}</h3>
              <CreativeItems creatives={creatives} label={`Creatives for ${name}`} />
            </section>
          );
        })}
      </CardContent>
    </Card>
  );
}
