import { zodResolver } from '@hookform/resolvers/zod';
import { MAX_CAPACITY, MIN_CAPACITY } from '@shared/contracts/inventory-vocabulary';
import { AD_TYPE_LABELS, AD_TYPES, PRICE_METRICS, type PriceMetric } from '@shared/contracts/product-vocabulary';
import {
  type Product,
  type ProductFormValues,
  type ProductPayload,
  productFormSchema,
} from '@shared/contracts/products';
import { useId } from 'react';
import { Controller, type DefaultValues, useForm } from 'react-hook-form';
import { Dialog, DialogContent, DialogFormButtons, DialogFormHeader, saveOrCreate } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { OptionSelect } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { useCreateProduct } from '../api/create-product';
import { useUpdateProduct } from '../api/update-product';
import { PRICE_METRIC_OPTIONS } from '../format';

/** ui-spec section 5: priced per month unless chosen otherwise, no inventory needed, active. */
const NEW_PRODUCT: DefaultValues<ProductFormValues> = {
  name: '',
  description: '',
  defaultPrice: '',
  priceMetric: 'monthly',
  defaultDuration: '',
  seasonalPrice: '',
  inventoryRequired: false,
  capacity: '',
  isActive: true,
};

function toFormValues(product: Product): ProductFormValues {
  return {
    name: product.name,
    description: product.description ?? '',
    adType: product.adType,
    defaultPrice: String(product.defaultPrice),
    priceMetric: product.priceMetric,
    defaultDuration: product.defaultDuration === null ? '' : String(product.defaultDuration),
    seasonalPrice: product.seasonalPrice === null ? '' : String(product.seasonalPrice),
    inventoryRequired: product.inventoryRequired,
    capacity: product.capacity === null ? '' : String(product.capacity),
    isActive: product.isActive,
  };
}

/** The create/edit dialog (product:write only). `product` absent means create. */
export function ProductFormDialog({
  open,
  onOpenChange,
  product,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  product: Product | null;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <ProductForm product={product} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function ProductForm({ product, onDone }: { product: Product | null; onDone: () => void }) {
  const form = useForm<ProductFormValues, unknown, ProductPayload>({
    resolver: zodResolver(productFormSchema),
    defaultValues: product ? toFormValues(product) : NEW_PRODUCT,
  });
  const { errors } = form.formState;
  const create = useCreateProduct();
  const update = useUpdateProduct();
  const busy = create.isPending || update.isPending;
  const inventoryRequired = form.watch('inventoryRequired') ?? false;

  const submit = form.handleSubmit((values) => {
    const onError = (error: Error) => showServerFieldErrors(form, error);
    if (product) update.mutate({ id: product.id, input: values }, { onSuccess: onDone, onError });
    else create.mutate(values, { onSuccess: onDone, onError });
  });

  return (
    <form noValidate onSubmit={submit} className="grid gap-5">
      <DialogFormHeader
        title={product ? 'Edit Product' : 'Add Product'}
        description={
          product
            ? `Change how ${product.name} is described and priced. Existing contracts keep their own prices.`
            : 'A placement you sell: its ad type, default price and how that price is charged.'
        }
      />

      <FormField label="Name" error={errors.name?.message}>
        <Input autoComplete="off" {...form.register('name')} />
      </FormField>
      <FormField label="Description" error={errors.description?.message}>
        <Textarea rows={3} {...form.register('description')} />
      </FormField>

      <div className="grid items-start gap-4 sm:grid-cols-2">
        <Controller
          control={form.control}
          name="adType"
          render={({ field, fieldState }) => (
            <FormField label="Ad Type" error={fieldState.error?.message}>
              <OptionSelect
                value={field.value ?? ''}
                onChange={field.onChange}
                placeholder="Choose an ad type"
                options={AD_TYPES.map((type) => [type, AD_TYPE_LABELS[type]])}
              />
            </FormField>
          )}
        />
        <FormField
          label="Default Duration (days)"
          error={errors.defaultDuration?.message}
          hint="How long a placement usually runs. Optional."
        >
          <Input type="number" inputMode="numeric" min={1} step={1} {...form.register('defaultDuration')} />
        </FormField>
      </div>

      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField label="Default Price ($)" error={errors.defaultPrice?.message}>
          <Input type="number" inputMode="decimal" min={0} step={0.01} {...form.register('defaultPrice')} />
        </FormField>
        <Controller
          control={form.control}
          name="priceMetric"
          render={({ field, fieldState }) => (
            <FormField label="Price Metric" error={fieldState.error?.message}>
              <OptionSelect
                value={field.value ?? ''}
                onChange={field.onChange}
                placeholder="Choose how it is charged"
                options={PRICE_METRICS.map((metric): [PriceMetric, string] => [metric, PRICE_METRIC_OPTIONS[metric]])}
              />
            </FormField>
          )}
        />
      </div>

      <FormField
        label="Seasonal Price ($)"
        error={errors.seasonalPrice?.message}
        hint="Charged instead of the default price for billing periods from October to December. Leave blank for none."
      >
        <Input type="number" inputMode="decimal" min={0} step={0.01} {...form.register('seasonalPrice')} />
      </FormField>

      <div className="grid gap-3">
        <Controller
          control={form.control}
          name="inventoryRequired"
          render={({ field }) => (
            <SwitchField
              label="Inventory Required"
              description="Placements are limited: check availability before selling."
              checked={field.value ?? false}
              onCheckedChange={field.onChange}
            />
          )}
        />
        {inventoryRequired && (
          <FormField
            label="Capacity (slots per day)"
            error={errors.capacity?.message}
            hint="How many advertisers can run at once on a day (1-1,000)."
          >
            <Input
              type="number"
              inputMode="numeric"
              min={MIN_CAPACITY}
              max={MAX_CAPACITY}
              step={1}
              className="sm:max-w-48"
              {...form.register('capacity')}
            />
          </FormField>
        )}
        <Controller
          control={form.control}
          name="isActive"
          render={({ field }) => (
            <SwitchField
              label="Active"
              description="Archived products stay on existing contracts and packages but cannot be added to new ones."
              checked={field.value ?? true}
              onCheckedChange={field.onChange}
            />
          )}
        />
      </div>

      <DialogFormButtons {...saveOrCreate(Boolean(product), 'Create Product')} busy={busy} onCancel={onDone} />
    </form>
  );
}

function SwitchField({
  label,
  description,
  checked,
  onCheckedChange,
}: {
  label: string;
  description: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center justify-between gap-4 rounded-lg border px-4 py-3">
      <div className="grid gap-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {description}
        </p>
      </div>
      <Switch id={id} aria-describedby={`${id}-hint`} checked={checked} onCheckedChange={onCheckedChange} />
    </div>
  );
}
