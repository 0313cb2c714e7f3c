import type { ContractFormLine } from '@shared/contracts/contract-form';
import { emptyFormLine, formTotals } from '@shared/contracts/contract-form-values';
import { AD_TYPE_LABELS, type AdType, PRICE_METRIC_LABELS } from '@shared/contracts/product-vocabulary';
import { type Cents, parseMoney, plainAmount } from '@shared/money';
import { CalendarRange, Plus, Trash2 } from 'lucide-react';
import { lazy, Suspense, useReducer, useRef, useState } from 'react';
import { Controller, useFieldArray, useWatch } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { LazySelect } from '@/components/ui/lazy-select';
import type { ProductOption } from '../api/get-contract-options';
import { formatCentsMoney, formatDate, formatMoney } from '../lib/format';
import type { ContractForm } from './contract-form';

// The availability of an inventory line's flight loads only once a line has an inventory product.
const LineAvailability = lazy(() => import('./line-availability'));
// The notice of an in-season price left as it was after a price change loads when it is first needed.
const SeasonalPriceNotice = lazy(() => import('./seasonal-price-notice'));

/** A form amount as cents, or null while it is blank, being typed or not an amount. */
const centsOf = (text: string | undefined): Cents | null => {
  const cents = (text ?? '').trim() === '' ? null : parseMoney(text ?? '');
  return cents !== null && cents >= 0 ? cents : null;
};

/**
 * The line items section: product, quantity, price, discount, total. Shown when no package is chosen, and
 * beside the package for a contract that already has both (then every row may be removed).
 */
export function LineItemsFields({
  form,
  products,
  productsLoading,
  besidePackage = false,
  contractId,
}: {
  form: ContractForm;
  products: ProductOption[];
  productsLoading: boolean;
  besidePackage?: boolean;
  /** The edited contract: its own units are left out of the availability shown. */
  contractId?: string;
}) {
  const lines = useFieldArray({ control: form.control, name: 'lineItems' });
  const watched = useWatch({ control: form.control, name: 'lineItems' }) ?? [];
  const { rowTotals } = formTotals({ lineItems: watched, setupFee: '0' });
  const errors = form.formState.errors.lineItems;
  const sectionError = errors?.message ?? errors?.root?.message;
  // Per row: the unit price its in-season price goes with (the product's when chosen, the price the line had
  // when the form opened, or the one the rep settled on). A price changed from it, with the in-season price
  // left as it was, shows the notice until the rep keeps, clears or scales the in-season price.
  const settledPrices = useRef(new Map<string, Cents | null>());
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const settle = (rowId: string, index: number) => {
    settledPrices.current.set(rowId, centsOf(form.getValues(`lineItems.${index}.unitPrice`)));
    rerender();
  };

  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-3 space-y-0">
        <div className="grid gap-1.5">
          <CardTitle id="line-items-heading">Line Items</CardTitle>
          <CardDescription>
            {besidePackage ? 'Products billed besides the package' : 'Products billed'} every month of their flight (a
            flat-rate product once). Rows without a product are left out.
          </CardDescription>
        </div>
        <Button variant="outline" size="sm" onClick={() => lines.append(emptyFormLine())}>
          <Plus aria-hidden /> Add Product
        </Button>
      </CardHeader>
      <CardContent className="grid gap-3">
        <section aria-labelledby="line-items-heading" className="grid gap-3">
          {sectionError && (
            <p role="alert" className="text-sm font-medium text-destructive" data-testid="line-items-error">
              {sectionError}
            </p>
          )}
          {lines.fields.map((row, index) => {
            const rowErrors = errors?.[index];
            const total = rowTotals[index];
            const line = watched[index];
            const product = products.find((p) => p.id === line?.productId);
            const metric = product?.priceMetric;
            if (!settledPrices.current.has(row.id)) settledPrices.current.set(row.id, centsOf(line?.unitPrice));
            const settledPrice = settledPrices.current.get(row.id) ?? null;
            const unitPriceCents = centsOf(line?.unitPrice);
            const seasonalPriceCents = centsOf(line?.seasonalPrice);
            const quantity = Number(line?.quantity);
            const seasonUnsettled =
              settledPrice !== null &&
              unitPriceCents !== null &&
              unitPriceCents !== settledPrice &&
              seasonalPriceCents !== null &&
              Number.isSafeInteger(quantity) &&
              quantity > 0;
            return (
              <fieldset
                key={row.id}
                className="grid min-w-0 grid-cols-1 gap-3 rounded-lg border bg-slate-50/60 p-4"
                data-testid="line-item-row"
              >
                <legend className="sr-only">Line item {index + 1}</legend>
                <Controller
                  control={form.control}
                  name={`lineItems.${index}.productId`}
                  render={({ field }) => (
                    <FormField label="Product" error={rowErrors?.productId?.message}>
                      <ProductSelect
                        value={field.value ?? ''}
                        products={products}
                        loading={productsLoading}
                        onBlur={field.onBlur}
                        onChange={(next) => {
                          field.onChange(next);
                          const product = products.find((p) => p.id === next);
                          if (product) {
                            settledPrices.current.set(row.id, centsOf(plainAmount(product.defaultPrice)));
                            const validate = { shouldValidate: form.formState.isSubmitted };
                            form.setValue(`lineItems.${index}.unitPrice`, plainAmount(product.defaultPrice), validate);
                            form.setValue(
                              `lineItems.${index}.seasonalPrice`,
                              product.seasonalPrice === null ? '' : plainAmount(product.seasonalPrice),
                              validate,
                            );
                          }
                          if (form.formState.isSubmitted) void form.trigger('lineItems');
                        }}
                      />
                    </FormField>
                  )}
                />
                {/* The quantity and both prices re-check the discount: it may exceed neither line amount. */}
                <div className="grid grid-cols-2 items-start gap-3">
                  <FormField
                    label="Quantity"
                    error={rowErrors?.quantity?.message}
                    hint={metric === 'cpm' ? 'Thousands of impressions a month.' : undefined}
                  >
                    <Input
                      type="number"
                      inputMode="numeric"
                      min={1}
                      step={1}
                      {...form.register(`lineItems.${index}.quantity`, { deps: `lineItems.${index}.discount` })}
                    />
                  </FormField>
                  <FormField
                    label="Unit Price ($)"
                    error={rowErrors?.unitPrice?.message}
                    hint={metric === 'cpm' ? 'Per 1,000 impressions.' : undefined}
                  >
                    <Input
                      type="number"
                      inputMode="decimal"
                      min={0}
                      step={0.01}
                      {...form.register(`lineItems.${index}.unitPrice`, { deps: `lineItems.${index}.discount` })}
                    />
                  </FormField>
                  <FormField
                    label="In-Season Price ($)"
                    error={rowErrors?.seasonalPrice?.message}
                    hint="October to December; blank for none."
                  >
                    <Input
                      type="number"
                      inputMode="decimal"
                      min={0}
                      step={0.01}
                      {...form.register(`lineItems.${index}.seasonalPrice`, {
                        deps: `lineItems.${index}.discount`,
                        // An in-season price typed by the rep goes with the price the line has now.
                        onChange: () => settle(row.id, index),
                      })}
                    />
                  </FormField>
                  {seasonUnsettled && (
                    <Suspense>
                      <SeasonalPriceNotice
                        line={index + 1}
                        quantity={quantity}
                        discountCents={centsOf(line?.discount) ?? 0}
                        unitPriceCents={unitPriceCents}
                        previousUnitPriceCents={settledPrice}
                        seasonalPriceCents={seasonalPriceCents}
                        once={metric === 'flat'}
                        onChoose={(seasonalPrice) => {
                          if (seasonalPrice !== null) {
                            form.setValue(`lineItems.${index}.seasonalPrice`, seasonalPrice, {
                              shouldDirty: true,
                              shouldValidate: form.formState.isSubmitted,
                            });
                            if (form.formState.isSubmitted) void form.trigger(`lineItems.${index}.discount`);
                          }
                          settle(row.id, index);
                        }}
                      />
                    </Suspense>
                  )}
                  <FormField label="Discount ($)" error={rowErrors?.discount?.message}>
                    <Input
                      type="number"
                      inputMode="decimal"
                      min={0}
                      step={0.01}
                      {...form.register(`lineItems.${index}.discount`)}
                    />
                  </FormField>
                </div>
                <FlightFields
                  form={form}
                  index={index}
                  line={line}
                  product={product}
                  errors={{ start: rowErrors?.flightStart?.message, end: rowErrors?.flightEnd?.message }}
                />
                {product?.inventoryRequired && (
                  <Suspense>
                    <LineAvailability form={form} index={index} product={product} contractId={contractId} />
                  </Suspense>
                )}
                <div className="flex items-center justify-between gap-3 border-t pt-3">
                  <p className="text-sm text-muted-foreground">
                    {metric && (
                      <span className="mr-2 rounded bg-slate-200/70 px-1.5 py-0.5 text-xs font-medium text-slate-700">
                        {metric === 'flat' ? 'Flat Rate · billed once' : PRICE_METRIC_LABELS[metric]}
                      </span>
                    )}
                    Line total:{' '}
                    <output
                      className="font-semibold tabular-nums text-slate-900"
                      aria-label={`Line ${index + 1} total`}
                    >
                      {total === null || total === undefined ? '—' : formatCentsMoney(total)}
                    </output>
                  </p>
                  {(lines.fields.length > 1 || besidePackage) && (
                    <Button
                      variant="ghost"
                      size="sm"
                      className="text-muted-foreground hover:bg-red-50 hover:text-destructive"
                      aria-label={`Remove line item ${index + 1}`}
                      onClick={() => lines.remove(index)}
                    >
                      <Trash2 aria-hidden /> Remove
                    </Button>
                  )}
                </div>
              </fieldset>
            );
          })}
        </section>
      </CardContent>
    </Card>
  );
}

/**
 * A line's flight: collapsed to one sentence by default (the contract's dates), opened to two date fields.
 * It opens by itself when the line has dates of its own or a date is refused.
 */
function FlightFields({
  form,
  index,
  line,
  product,
  errors,
}: {
  form: ContractForm;
  index: number;
  line: ContractFormLine | undefined;
  product: ProductOption | undefined;
  errors: { start?: string; end?: string };
}) {
  const start = line?.flightStart?.trim() ?? '';
  const end = line?.flightEnd?.trim() ?? '';
  const [open, setOpen] = useState(start !== '' || end !== '');
  const shown = open || Boolean(errors.start || errors.end);
  const flat = product?.priceMetric === 'flat';
  const defaultEnd =
    flat && product?.defaultDuration ? `Blank: ${product.defaultDuration} days.` : 'Blank: until the contract ends.';
  const summary = `Flight: ${start ? `from ${formatDate(start)}` : "from the contract's start"}${
    end ? ` to ${formatDate(end)}` : flat && product?.defaultDuration ? `, ${product.defaultDuration} days` : ''
  }.`;
  const panelId = `line-${index}-flight`;
  return (
    <div className="grid grid-cols-1 gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
        <span className="flex items-center gap-1.5">
          <CalendarRange className="size-4 shrink-0" aria-hidden /> {summary}
        </span>
        {!shown && (
          <Button
            variant="link"
            size="sm"
            className="h-auto p-0"
            aria-controls={panelId}
            aria-expanded={false}
            onClick={() => setOpen(true)}
          >
            Set flight dates
          </Button>
        )}
      </div>
      {shown && (
        <div id={panelId} className="grid grid-cols-1 items-start gap-3 sm:grid-cols-2">
          <FormField label="Flight Start" error={errors.start} hint="Blank: the contract's start date.">
            <Input type="date" {...form.register(`lineItems.${index}.flightStart`)} />
          </FormField>
          <FormField label="Flight End" error={errors.end} hint={defaultEnd}>
            <Input type="date" {...form.register(`lineItems.${index}.flightEnd`)} />
          </FormField>
        </div>
      )}
    </div>
  );
}

export function ProductSelect({
  value,
  products,
  loading,
  onChange,
  onBlur,
  ...trigger
}: {
  value: string;
  products: ProductOption[];
  loading: boolean;
  onChange: (value: string) => void;
  onBlur: () => void;
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}) {
  const selected = products.find((p) => p.id === value);
  return (
    <LazySelect
      value={value}
      onValueChange={onChange}
      onBlur={onBlur}
      placeholder={loading ? 'Loading products...' : 'Select a product'}
      display={selected ? productName(selected) : undefined}
      options={products.map((product) => ({
        value: product.id,
        label: (
          <>
            <span className="font-medium">{productName(product)}</span>
            <span className="block text-xs tabular-nums text-muted-foreground">
              {AD_TYPE_LABELS[product.adType as AdType] ?? product.adType} · {formatMoney(product.defaultPrice)}
              {product.seasonalPrice !== null && ` · ${formatMoney(product.seasonalPrice)} in season`}
            </span>
          </>
        ),
      }))}
      {...trigger}
    />
  );
}

const productName = (product: ProductOption) => (product.isActive ? product.name : `${product.name} (archived)`);
