import { Download, FileText } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { downloadFile } from '@/lib/download';
import { toastError } from '@/lib/toast-error';

const pad = (n: number) => String(n).padStart(2, '0');
const dayText = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The previous calendar month, the range the monthly e-mail covers: the card's first suggestion. */
function lastMonth(): { from: string; to: string } {
  const now = new Date();
  return {
    from: dayText(new Date(now.getFullYear(), now.getMonth() - 1, 1)),
    to: dayText(new Date(now.getFullYear(), now.getMonth(), 0)),
  };
}

/**
 * An agency's "Statement" (product.md section 20): a range and its PDF or CSV (GET /api/agencies/{id}/statement).
 * Both dates are needed, in order; the server checks the rest (at most 366 days) and its 400 shows as a toast.
 * (The route's zod schema is not imported here: zod alone would put the customer page over its JS budget.)
 */
export function AgencyStatementCard({ agencyId, agencyName }: { agencyId: string; agencyName: string }) {
  const [range, setRange] = useState(lastMonth);
  const [busy, setBusy] = useState<'pdf' | 'csv' | null>(null);
  const id = useId();
  const problem =
    !range.from || !range.to ? 'Choose both dates' : range.to < range.from ? 'The end comes before the start' : null;

  const download = (format: 'pdf' | 'csv') => {
    const query = new URLSearchParams({ ...range, format });
    setBusy(format);
    downloadFile(`/api/agencies/${agencyId}/statement?${query}`, {
      fallbackName: `statement-${range.from}-${range.to}.${format}`,
    })
      .catch((e) => toastError('Download failed', e, 'Please try again.'))
      .finally(() => setBusy(null));
  };

  return (
    <Card data-testid="agency-statement-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FileText className="size-4 text-muted-foreground" aria-hidden /> Statement
        </CardTitle>
        <CardDescription>
          {agencyName}'s invoices, credit notes and payments for a range, with the balances, aging and commission.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <div className="flex flex-wrap items-end gap-3">
          <div className="grid gap-1">
            <Label htmlFor={`${id}-from`}>From</Label>
            <Input
              id={`${id}-from`}
              type="date"
              value={range.from}
              onChange={(e) => setRange((r) => ({ ...r, from: e.target.value }))}
            />
          </div>
          <div className="grid gap-1">
            <Label htmlFor={`${id}-to`}>To</Label>
            <Input
              id={`${id}-to`}
              type="date"
              value={range.to}
              onChange={(e) => setRange((r) => ({ ...r, to: e.target.value }))}
            />
          </div>
        </div>
        {problem && (
          <p className="text-sm text-destructive" role="alert">
            {problem}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" disabled={Boolean(problem) || busy !== null} onClick={() => download('pdf')}>
            <Download className="size-4" aria-hidden /> Download PDF
          </Button>
          <Button variant="outline" disabled={Boolean(problem) || busy !== null} onClick={() => download('csv')}>
            <Download className="size-4" aria-hidden /> Download CSV
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
