import { ImageUp } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { useContractCreatives } from '../api/get-contract-creatives';
import { CreativeItems } from './creative-items';

/** The contract page's creatives: what the client uploaded for it, to download (or delete). */
export function ContractCreativesCard({ contractId }: { contractId: string }) {
  const { data, isLoading, error } = useContractCreatives(contractId);
  const rows = data?.rows ?? [];
  return (
    <Card className="min-w-0" data-testid="contract-creatives">
      <CardHeader>
        <CardTitle>Creatives</CardTitle>
        <CardDescription>
          {data
            ? data.total === 0
              ? 'Files the client uploads in the portal appear here'
              : `${data.total} file${data.total === 1 ? '' : 's'} from the client`
            : '\u00a0'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading && <Skeleton className="h-20 rounded-lg" />}
        {error && !data && <ErrorState title="Could not load the creatives">Reload the page to try again.</ErrorState>}
        {data && rows.length === 0 && (
          <p className="flex flex-col items-center gap-2 py-6 text-center text-sm text-muted-foreground">
            <ImageUp className="size-8" aria-hidden />
            No creatives uploaded yet
          </p>
        )}
        {rows.length > 0 && <CreativeItems creatives={rows} label="Creatives of this contract" />}
      </CardContent>
    </Card>
  );
}
