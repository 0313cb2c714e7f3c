import {
  DEFAULT_UNDER_DELIVERY_REMEDY,
  UNDER_DELIVERY_REMEDIES,
  UNDER_DELIVERY_REMEDY_LABELS,
  type UnderDeliveryRemedy,
} from '@shared/contracts/delivery-vocabulary';
import { Controller } from 'react-hook-form';
import { FormField } from '@/components/ui/form-field';
import { LazySelect } from '@/components/ui/lazy-select';
import type { ContractForm } from './contract-form';

const labelOf = (value: string | undefined) =>
  UNDER_DELIVERY_REMEDY_LABELS[value as UnderDeliveryRemedy] ??
  UNDER_DELIVERY_REMEDY_LABELS[DEFAULT_UNDER_DELIVERY_REMEDY];

/**
 * How an under-delivered CPM period is settled (product.md section 12): a credit note or makegood impressions.
 * Wired as the payment mode is; the chosen remedy's description is the hint.
 */
export function RemedyField({ form }: { form: ContractForm }) {
  return (
    <Controller
      control={form.control}
      name="underDeliveryRemedy"
      render={({ field, fieldState }) => (
        <FormField
          label="Under-delivery Remedy"
          error={fieldState.error?.message}
          hint={`For CPM lines: ${labelOf(field.value).description.toLowerCase()}.`}
        >
          <RemedySelect value={field.value ?? ''} onChange={field.onChange} onBlur={field.onBlur} />
        </FormField>
      )}
    />
  );
}

type TriggerProps = { id?: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string };

function RemedySelect({
  value,
  onChange,
  onBlur,
  ...trigger
}: TriggerProps & { value: string; onChange: (value: string) => void; onBlur: () => void }) {
  return (
    <LazySelect
      value={value}
      onValueChange={onChange}
      onBlur={onBlur}
      placeholder="Select a remedy"
      display={value ? labelOf(value).label : undefined}
      options={UNDER_DELIVERY_REMEDIES.map((remedy) => ({
        value: remedy,
        label: (
          <>
            <span className="font-medium">{UNDER_DELIVERY_REMEDY_LABELS[remedy].label}</span>
            <span className="block text-xs text-muted-foreground">
              {UNDER_DELIVERY_REMEDY_LABELS[remedy].description}
            </span>
          </>
        ),
      }))}
      {...trigger}
    />
  );
}
