import { Controller, useWatch } from 'react-hook-form';
import { FormField } from '@/components/ui/form-field';
import { LazySelect } from '@/components/ui/lazy-select';
import { useCustomerAgency } from '../api/get-customer-agency';
import { agencyTermsText } from '../lib/format';
import type { ContractForm } from './contract-form';

/**
 * "Bill to" (product.md section 20): shown for a customer with an agency of record on the start date, the agency
 * (the default: the form leaves the value empty) or the advertiser itself. The server decides the default and
 * the agency's terms; the form only names the choice. A contract billed to an agency keeps the choice shown
 * even once the agency of record has ended.
 */
export function BillToField({
  form,
  stored,
}: {
  form: ContractForm;
  /** The edited contract's bill-to, when it is an agency: { id, name }. */
  stored?: { customerId: string; billToCustomerId: string; billToName: string | null } | null;
}) {
  const [customerId, startDate] = useWatch({ control: form.control, name: ['customerId', 'startDate'] });
  const { agency, customerName } = useCustomerAgency(customerId ?? '');
  const covers =
    agency !== null && (!startDate || (agency.from <= startDate && (agency.to === null || agency.to >= startDate)));
  const storedAgency =
    stored && stored.customerId === customerId && stored.billToCustomerId !== stored.customerId
      ? { id: stored.billToCustomerId, name: stored.billToName ?? 'Agency' }
      : null;
  const billedAgency = covers ? { id: agency.agencyId, name: agency.agencyName } : storedAgency;
  if (!customerId || !billedAgency) return null;
  const advertiserName = customerName ?? 'The advertiser';
  return (
    <Controller
      control={form.control}
      name="billToCustomerId"
      render={({ field, fieldState }) => {
        const value = field.value || billedAgency.id;
        return (
          <FormField
            label="Bill to"
            error={fieldState.error?.message}
            hint={
              value === billedAgency.id
                ? `Invoices, the insertion order and the pay link go to ${billedAgency.name}.${covers ? ` ${agencyTermsText(agency.commissionPercent, agency.billingMode)}.` : ''}`
                : `Invoices, the insertion order and the pay link go to ${advertiserName}.`
            }
          >
            <LazySelect
              value={value}
              onValueChange={field.onChange}
              onBlur={field.onBlur}
              placeholder="Select who is billed"
              display={value === billedAgency.id ? `${billedAgency.name} (agency)` : `${advertiserName} (advertiser)`}
              options={[
                { value: billedAgency.id, label: `${billedAgency.name} (agency)` },
                { value: customerId, label: `${advertiserName} (advertiser)` },
              ]}
            />
          </FormField>
        );
      }}
    />
  );
}
