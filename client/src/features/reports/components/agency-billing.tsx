import type { Report } from '@shared/contracts/reports';
import { Building2, Percent } from 'lucide-react';
import { Link } from 'wouter';
import { formatMoney } from '@/lib/format';
import { paths } from '@/lib/paths';
import { Section } from './report-sections';

type Agencies = Report['agencies'];

/**
 * Agency billing over the range (product.md section 20, decision 060 "Reports"): the card "Agency Commission"
 * (gross revenue, agency commission, net revenue of the invoices billed to agencies, before tax) and the table
 * "Revenue by Agency" (the top agencies by net). Nothing at all when no invoice was billed to an agency in the
 * range.
 */
export function AgencyBilling({ agencies }: { agencies: Agencies | undefined }) {
  // Undefined: an answer from a server before these figures (a rolling deploy).
  if (!agencies || agencies.invoices === 0) return null;
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-3" data-testid="agency-billing">
      <Section title="Agency Commission" icon={<Percent />}>
        <AgencyCommission agencies={agencies} />
      </Section>
      <Section title="Revenue by Agency" icon={<Building2 />} className="min-w-0 lg:col-span-2">
        <RevenueByAgency agencies={agencies} />
      </Section>
    </div>
  );
}

const invoicesText = (n: number) => `${n} ${n === 1 ? 'invoice' : 'invoices'}`;

export function AgencyCommission({ agencies }: { agencies: Agencies }) {
  const rows: [string, string, string][] = [
    ['Gross revenue', formatMoney(agencies.gross), 'agency-gross'],
    ['Agency commission', `−${formatMoney(agencies.commission)}`, 'agency-commission'],
    ['Net revenue', formatMoney(agencies.net), 'agency-net'],
  ];
  return (
    <div className="grid gap-3">
      <dl className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1.5 text-sm">
        {rows.map(([label, value, id]) => (
          <div key={id} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="text-right font-semibold tabular-nums text-slate-900" data-testid={id}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <p className="text-xs text-muted-foreground" data-testid="agency-commission-detail">
        {invoicesText(agencies.invoices)} billed to agencies, before tax · {formatMoney(agencies.deductedCommission)}{' '}
        deducted on net-billed invoices · {formatMoney(agencies.owedCommission)} owed on gross-billed ones
      </p>
    </div>
  );
}

export function RevenueByAgency({ agencies }: { agencies: Agencies }) {
  const more = agencies.agencyCount - agencies.byAgency.length;
  return (
    <div className="grid gap-2">
      <div className="overflow-x-auto">
        <table className="w-full text-sm" aria-label="Revenue by agency">
          <thead>
            <tr className="border-b text-left text-xs text-muted-foreground">
              <th className="py-2 pr-3 font-medium">Agency</th>
              <th className="px-3 py-2 text-right font-medium">Advertisers</th>
              <th className="px-3 py-2 text-right font-medium">Invoices</th>
              <th className="px-3 py-2 text-right font-medium">Gross</th>
              <th className="px-3 py-2 text-right font-medium">Commission</th>
              <th className="py-2 pl-3 text-right font-medium">Net</th>
            </tr>
          </thead>
          <tbody>
            {agencies.byAgency.map((row) => (
              <tr key={row.agencyId} className="border-b last:border-0" data-testid="agency-row">
                <td className="min-w-0 break-words py-2 pr-3">
                  <Link href={paths.customer(row.agencyId)} className="font-medium text-slate-900 hover:underline">
                    {row.name}
                  </Link>
                </td>
                <td className="px-3 py-2 text-right tabular-nums">{row.advertisers}</td>
                <td className="px-3 py-2 text-right tabular-nums">{row.invoices}</td>
                <td className="px-3 py-2 text-right tabular-nums">{formatMoney(row.gross)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{formatMoney(row.commission)}</td>
                <td className="py-2 pl-3 text-right font-semibold tabular-nums text-slate-900">
                  {formatMoney(row.net)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {more > 0 && (
        <p className="text-xs text-muted-foreground" data-testid="agency-more">
          The top {agencies.byAgency.length} of {agencies.agencyCount} agencies by net revenue.
        </p>
      )}
    </div>
  );
}
