import type { Package, PackagePayload } from '@shared/contracts/packages';
import type { Product } from '@shared/contracts/products';
import { ListPlus, Plus, Trash2 } from 'lucide-react';
import { Controller, type UseFormReturn, useFieldArray, useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFormButtons, DialogFormHeader, saveOrCreate } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { useCreatePackage } from '../api/create-package';
import { useProductOptions } from '../api/get-product-options';
import { useUpdatePackage } from '../api/update-package';
import {
  CUSTOM_ITEM,
  EMPTY_PACKAGE,
  emptyItemRow,
  type PackageFormState,
  packageFormResolver,
  toFormState,
} from './package-form';

type Form = UseFormReturn<PackageFormState, unknown, PackagePayload>;

/** The create/edit dialog. `pkg` absent means create. The form is mounted afresh each time it opens. */
export function PackageFormDialog({
  open,
  onOpenChange,
  pkg,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pkg: Package | null;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl">
        <PackageForm pkg={pkg} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function PackageForm({ pkg, onDone }: { pkg: Package | null; onDone: () => void }) {
  const form = useForm<PackageFormState, unknown, PackagePayload>({
    resolver: packageFormResolver,
    defaultValues: pkg ? toFormState(pkg) : EMPTY_PACKAGE,
  });
  const items = useFieldArray({ control: form.control, name: 'items' });
  const { errors } = form.formState;
  const create = useCreatePackage();
  const update = useUpdatePackage();
  const busy = create.isPending || update.isPending;
  const productOptions = useProductOptions();
  // Archived products stay selectable on the items that already have them (the server allows that).
  const products = withCurrentProducts(productOptions.data ?? [], pkg);

  const submit = form.handleSubmit((values) => {
    const onError = (error: Error) => showServerFieldErrors(form, error);
    if (pkg) update.mutate({ id: pkg.id, input: values }, { onSuccess: onDone, onError });
    else create.mutate(values, { onSuccess: onDone, onError });
  });

  return (
    <form noValidate onSubmit={submit} className="grid gap-5">
      <DialogFormHeader
        title={pkg ? 'Edit Package' : 'Create Package'}
        description="A bundle of products and custom items sold for one monthly price. Item rows with nothing chosen are left out."
      />

      <div className="grid items-start gap-4 sm:grid-cols-[1fr_12rem]">
        <FormField label="Package Name" error={errors.name?.message}>
          <Input autoComplete="off" {...form.register('name')} />
        </FormField>
        <FormField label="Price ($)" error={errors.price?.message} hint="Per month.">
          <Input type="number" inputMode="decimal" min={0} step={0.01} {...form.register('price')} />
        </FormField>
      </div>
      <FormField label="Description" error={errors.description?.message}>
        <Textarea rows={2} {...form.register('description')} />
      </FormField>

      <section aria-labelledby="package-items-heading" className="grid gap-3">
        <div className="flex items-center justify-between gap-3">
          <h3 id="package-items-heading" className="text-sm font-semibold text-slate-900">
            Items
          </h3>
          <Button variant="outline" size="sm" onClick={() => items.append(emptyItemRow())}>
            <Plus aria-hidden /> Add Item
          </Button>
        </div>
        {errors.items?.root?.message && (
          <p role="alert" className="text-sm font-medium text-destructive">
            {errors.items.root.message}
          </p>
        )}
        {items.fields.length === 0 && (
          <div className="flex flex-col items-center gap-1 rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">
            <ListPlus className="size-6" aria-hidden />
            No items yet. Use "Add Item" to add a product or a custom item.
          </div>
        )}
        {items.fields.map((row, index) => (
          <ItemRowFields
            key={row.id}
            form={form}
            index={index}
            products={products}
            productsLoading={productOptions.isLoading}
            onRemove={() => items.remove(index)}
          />
        ))}
      </section>

      <DialogFormButtons {...saveOrCreate(Boolean(pkg), 'Create Package')} busy={busy} onCancel={onDone} />
    </form>
  );
}

function ItemRowFields({
  form,
  index,
  products,
  productsLoading,
  onRemove,
}: {
  form: Form;
  index: number;
  products: Product[];
  productsLoading: boolean;
  onRemove: () => void;
}) {
  const errors = form.formState.errors.items?.[index];
  const productId = form.watch(`items.${index}.productId`);
  const label = `Item ${index + 1}`;
  return (
    <fieldset className="grid gap-3 rounded-lg border bg-slate-50/60 p-4" data-testid="package-item-row">
      <legend className="sr-only">{label}</legend>
      <div className="grid items-start gap-3 sm:grid-cols-[minmax(0,1fr)_8rem_9rem_auto]">
        <Controller
          control={form.control}
          name={`items.${index}.productId`}
          render={({ field }) => (
            <FormField label="Product" error={errors?.productId?.message}>
              <ProductSelect
                value={field.value}
                products={products}
                loading={productsLoading}
                onChange={(next) => {
                  field.onChange(next);
                  // A custom name only belongs to a custom item.
                  if (next !== CUSTOM_ITEM) form.setValue(`items.${index}.productName`, '');
                }}
              />
            </FormField>
          )}
        />
        <FormField label="Quantity" error={errors?.quantity?.message}>
          <Input type="number" inputMode="numeric" min={1} step={1} {...form.register(`items.${index}.quantity`)} />
        </FormField>
        <FormField label="Custom Price ($)" error={errors?.customPrice?.message}>
          <Input
            type="number"
            inputMode="decimal"
            min={0}
            step={0.01}
            placeholder="Optional"
            {...form.register(`items.${index}.customPrice`)}
          />
        </FormField>
        <div className="flex justify-end sm:pt-[1.375rem]">
          <Button
            variant="ghost"
            size="icon"
            className="text-muted-foreground hover:bg-red-50 hover:text-destructive"
            aria-label={`Remove item ${index + 1}`}
            onClick={onRemove}
          >
            <Trash2 aria-hidden />
          </Button>
        </div>
      </div>
      {productId === CUSTOM_ITEM && (
        <FormField label="Custom Name" error={errors?.productName?.message}>
          <Input autoComplete="off" {...form.register(`items.${index}.productName`)} />
        </FormField>
      )}
      <div className="grid items-start gap-3 sm:grid-cols-2">
        <FormField label="Custom Description" error={errors?.customDescription?.message}>
          <Input autoComplete="off" placeholder="Optional" {...form.register(`items.${index}.customDescription`)} />
        </FormField>
        <FormField label="Notes" error={errors?.notes?.message}>
          <Input autoComplete="off" placeholder="Optional" {...form.register(`items.${index}.notes`)} />
        </FormField>
      </div>
    </fieldset>
  );
}

/** Catalog products (with their price) or "Custom item"; id and aria props land on the trigger for FormField. */
function ProductSelect({
  value,
  products,
  loading,
  onChange,
  ...trigger
}: {
  value: string;
  products: Product[];
  loading: boolean;
  onChange: (value: string) => void;
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}) {
  return (
    <Select value={value} onValueChange={onChange}>
      <SelectTrigger {...trigger}>
        <SelectValue placeholder={loading ? 'Loading products...' : 'Choose a product'} />
      </SelectTrigger>
      <SelectContent>
        {products.map((product) => (
          <SelectItem key={product.id} value={product.id}>
            {product.isActive ? product.name : `${product.name} (archived)`}
          </SelectItem>
        ))}
        <SelectItem value={CUSTOM_ITEM}>Custom item</SelectItem>
      </SelectContent>
    </Select>
  );
}

/** The active products, plus any archived product the package already contains. */
function withCurrentProducts(active: Product[], pkg: Package | null): Product[] {
  const known = new Set(active.map((p) => p.id));
  const extra: Product[] = [];
  for (const item of pkg?.items ?? []) {
    if (item.product && !known.has(item.product.id)) {
      known.add(item.product.id);
      extra.push(item.product);
    }
  }
  return [...active, ...extra];
}
