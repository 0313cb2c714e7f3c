import type { Customer } from '@shared/contracts/customers';
import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmailText } from '@/components/ui/email-text';

/** Every field of a customer, "—" where it is not set. Notes are internal: staff only. */
export function CustomerDetails({ customer, showNotes }: { customer: Customer; showNotes: boolean }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Details</CardTitle>
      </CardHeader>
      <CardContent>
        <dl aria-label="Customer details" className="grid gap-x-6 gap-y-4 text-sm sm:grid-cols-2">
          <Item label="Email">
            <a
              href={`mailto:${customer.email}`}
              className="rounded-sm text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <EmailText email={customer.email} />
            </a>
          </Item>
          <Item label="Phone">{customer.phone}</Item>
          <Item label="Company">{customer.company}</Item>
          <Item label="Contact Person">{customer.contactPerson}</Item>
          <Item label="Website">
            {customer.website && (
              <a
                href={websiteHref(customer.website)}
                target="_blank"
                rel="noreferrer noopener"
                className="break-all rounded-sm text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                {customer.website}
              </a>
            )}
          </Item>
          <Item label="Industry">{customer.industry}</Item>
          <Item label="Kind">
            {customer.kind === 'agency'
              ? `Agency · ${customer.agencyCommissionPercent ?? 15}% commission by default`
              : 'Advertiser'}
          </Item>
          <Item label="Address">{customer.address}</Item>
          <Item label="City">{customer.city}</Item>
          <Item label="State">{customer.state}</Item>
          <Item label="ZIP Code">{customer.zipCode}</Item>
          <Item label="Country">{customer.country}</Item>
          {showNotes && (
            <Item label="Notes" wide>
              {customer.notes && <p className="whitespace-pre-wrap">{customer.notes}</p>}
            </Item>
          )}
        </dl>
      </CardContent>
    </Card>
  );
}

function Item({ label, wide = false, children }: { label: string; wide?: boolean; children: ReactNode }) {
  const empty = children === null || children === undefined || children === false || children === '';
  return (
    <div className={wide ? 'sm:col-span-2' : undefined}>
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="mt-1 text-slate-900">{empty ? <span className="text-muted-foreground">—</span> : children}</dd>
    </div>
  );
}

/** Only http(s) links are followed; a bare domain gets https:// in front. */
function websiteHref(website: string): string | undefined {
  if (/^https?:\/\//i.test(website)) return website;
  if (/^[\w.-]+\.[a-z]{2,}(\/.*)?$/i.test(website)) return `https://${website}`;
  return undefined;
}
