import type { ContractFormValues, contractFormSchema } from '@shared/contracts/contract-form';
import {
  contractToFormValues,
  emptyFormLine,
  newContractFormValues,
  toContractPayload,
} from '@shared/contracts/contract-form-values';
import type { Contract } from '@shared/contracts/contract-responses';
import { NO_PACKAGE, PAYMENT_MODE_LABELS, PAYMENT_MODES } from '@shared/contracts/contract-vocabulary';
import { lazy, Suspense, useEffect, useId, useMemo } from 'react';
import { Controller, type Resolver, type UseFormReturn, useForm, useWatch } from 'react-hook-form';
import { useLocation } from 'wouter';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/feedback';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { LazySelect } from '@/components/ui/lazy-select';
import { Switch } from '@/components/ui/switch';
import { todayIso } from '@/lib/format';
import { paths } from '@/lib/paths';
import { showServerFieldErrors } from '@/lib/server-field-errors';
import { cn } from '@/lib/utils';
import { useCreateContract } from '../api/create-contract';
import { type ProductOption, useContractOptions } from '../api/get-contract-options';
import { useUpdateContract } from '../api/update-contract';
import { formatMoney } from '../lib/format';
import { ContractSummaryCard } from './contract-summary-card';
import { LineItemsFields } from './line-items-fields';

// A chosen package's items (with their table) load when a package is chosen: most contracts have none.
const PackageDetails = lazy(() => import('./package-details').then((module) => ({ default: module.PackageDetails })));
// "Bill to" shows only for a customer with an agency of record: it loads with the customer's facts.
const BillToField = lazy(() => import('./bill-to-field').then((module) => ({ default: module.BillToField })));
// The under-delivery remedy's select and its labels load right after the form (it has a default).
const RemedyField = lazy(() => import('./remedy-field').then((module) => ({ default: module.RemedyField })));

type FormOutput = z.output<typeof contractFormSchema>;
export type ContractForm = UseFormReturn<ContractFormValues, unknown, FormOutput>;

/**
 * The form's validation (its zod schema and resolver) loads right after the form has painted, and at the
 * latest on the first check: the screen does not wait for it.
 */
let schemaResolver: Promise<Resolver<ContractFormValues, unknown, FormOutput>> | null = null;
const loadResolver = () => {
  schemaResolver ??= Promise.all([import('@hookform/resolvers/zod'), import('@shared/contracts/contract-form')]).then(
    ([{ zodResolver }, { contractFormSchema }]) => zodResolver(contractFormSchema),
  );
  return schemaResolver;
};
const resolver: Resolver<ContractFormValues, unknown, FormOutput> = async (values, context, options) =>
  (await loadResolver())(values, context, options);

/**
 * The one contract form: /contracts/new, the list's edit dialog and /contracts/:id/edit. With `contract` it
 * edits that contract; without, it creates one. After saving it runs `onSuccess`, or goes to /contracts.
 */
export function ContractForm({
  contract,
  onSuccess,
  onCancel,
  layout = 'page',
  initialCustomerId,
}: {
  contract?: Contract | null;
  /** A new contract's customer, chosen already (the customer page's "New Contract"). */
  initialCustomerId?: string;
  onSuccess?: (contract: Contract) => void;
  onCancel?: () => void;
  layout?: 'page' | 'dialog';
}) {
  const editing = Boolean(contract);
  const [, navigate] = useLocation();
  const form: ContractForm = useForm<ContractFormValues, unknown, FormOutput>({
    resolver,
    defaultValues: contract
      ? contractToFormValues(contract)
      : { ...newContractFormValues(todayIso()), ...(initialCustomerId ? { customerId: initialCustomerId } : {}) },
  });
  useEffect(() => void loadResolver(), []);
  const { errors } = form.formState;
  const options = useContractOptions();
  const create = useCreateContract();
  const update = useUpdateContract();
  const busy = create.isPending || update.isPending;

  const [packageId, sendToCustomer, makeActive] = useWatch({
    control: form.control,
    name: ['packageId', 'sendToCustomer', 'makeActive'],
  });
  const hasPackage = Boolean(packageId) && packageId !== NO_PACKAGE;
  // A contract saved with both a package and line items keeps both: its lines stay on the form, shown and
  // sent, so saving it unchanged changes nothing. Otherwise (ui-spec) the lines show only without a package.
  const keepsLinesWithPackage = Boolean(contract?.packageId && contract.lineItems.length > 0);
  const showLines = !hasPackage || keepsLinesWithPackage;
  const selectedPackage = hasPackage
    ? (options.packages.find((p) => p.id === packageId) ??
      (contract?.package && contract.package.id === packageId ? contract.package : null))
    : null;

  // Products already on the contract stay choosable even if they were archived since.
  const products = useMemo(() => withContractProducts(options.products, contract), [options.products, contract]);

  const done = (saved: Contract) => (onSuccess ? onSuccess(saved) : navigate(paths.contracts));
  const cancel = () => (onCancel ? onCancel() : navigate(paths.contracts));

  const submit = form.handleSubmit((values) => {
    const payload = toContractPayload(values);
    // Lines hidden behind a chosen package are not sent.
    if (!showLines) payload.lineItems = [];
    const onError = (error: Error) => showServerFieldErrors(form, error);
    if (contract) {
      update.mutate(
        { id: contract.id, payload, previousStatus: contract.status },
        { onSuccess: (saved) => done(saved), onError },
      );
    } else {
      create.mutate(payload, { onSuccess: (saved) => done(saved), onError });
    }
  });

  const submitLabel = editing
    ? update.isPending
      ? 'Updating...'
      : 'Update Contract'
    : create.isPending
      ? 'Creating...'
      : makeActive
        ? 'Create Live Contract'
        : sendToCustomer
          ? 'Create & Send Contract'
          : 'Save as Draft';

  const showSendSwitch = !editing || contract?.status === 'draft';

  return (
    <form
      noValidate
      onSubmit={submit}
      aria-label={editing ? 'Edit contract' : 'New contract'}
      className={cn('grid grid-cols-1 gap-6', layout === 'page' && 'lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start')}
    >
      <div className="grid min-w-0 gap-6">
        {options.error && (
          <ErrorState title="Could not load customers, products or packages">Reload the page to try again.</ErrorState>
        )}
        <Card>
          <CardHeader>
            <CardTitle>Contract Details</CardTitle>
            <CardDescription>Who it is for, how they pay, and for how long.</CardDescription>
          </CardHeader>
          <CardContent className="grid grid-cols-1 items-start gap-4 sm:grid-cols-2">
            <Controller
              control={form.control}
              name="customerId"
              render={({ field }) => (
                <FormField label="Customer" error={errors.customerId?.message}>
                  <CustomerSelect
                    value={field.value}
                    onChange={(next) => {
                      field.onChange(next);
                      // Another customer: its own default bill-to (its agency of record, else itself).
                      if (next !== field.value) form.setValue('billToCustomerId', '');
                    }}
                    onBlur={field.onBlur}
                    loading={options.customersLoading}
                    customers={withContractCustomer(options.customers, contract)}
                  />
                </FormField>
              )}
            />
            <Suspense fallback={null}>
              <BillToField form={form} stored={contract} />
            </Suspense>
            <Controller
              control={form.control}
              name="paymentMode"
              render={({ field }) => (
                <FormField label="Payment Mode" error={errors.paymentMode?.message}>
                  <PaymentModeSelect value={field.value ?? ''} onChange={field.onChange} onBlur={field.onBlur} />
                </FormField>
              )}
            />
            <FormField label="Start Date" error={errors.startDate?.message}>
              <Input type="date" {...form.register('startDate')} />
            </FormField>
            <FormField
              label="Term (months)"
              error={errors.termMonths?.message}
              hint="1 to 120 months; payment pauses automatically after that many months. Leave blank for indefinite."
            >
              <Input
                type="number"
                inputMode="numeric"
                min={1}
                max={120}
                step={1}
                placeholder="Indefinite"
                {...form.register('termMonths')}
              />
            </FormField>
            <Controller
              control={form.control}
              name="packageId"
              render={({ field }) => (
                <FormField label="Package" error={errors.packageId?.message}>
                  <PackageSelect
                    value={field.value ?? NO_PACKAGE}
                    onBlur={field.onBlur}
                    loading={options.packagesLoading}
                    packages={options.packages}
                    onChange={(next) => {
                      field.onChange(next);
                      if (next !== NO_PACKAGE && !keepsLinesWithPackage) {
                        // The line items section is hidden with a package, and nothing in it is sent.
                        form.setValue('lineItems', []);
                      } else if ((form.getValues('lineItems') ?? []).length === 0) {
                        form.setValue('lineItems', [emptyFormLine()]);
                      }
                      form.clearErrors('lineItems');
                    }}
                  />
                </FormField>
              )}
            />
            <FormField
              label="Setup Fee ($)"
              error={errors.setupFee?.message}
              hint="Charged once, on the first invoice."
            >
              <Input type="number" inputMode="decimal" min={0} step={0.01} {...form.register('setupFee')} />
            </FormField>
            {/* The remedy (for CPM lines; 'credit' unless changed) loads right after the form has painted. */}
            <Suspense fallback={<RemedyFieldPlaceholder />}>
              <RemedyField form={form} />
            </Suspense>
            <div className="sm:col-span-2">
              <FormField label="Description" error={errors.description?.message}>
                <Textarea rows={3} placeholder="What the campaign is about" {...form.register('description')} />
              </FormField>
            </div>
          </CardContent>
        </Card>

        {hasPackage && (
          <Card>
            <CardHeader>
              <CardTitle>Package</CardTitle>
              <CardDescription>
                {showLines
                  ? "The package's items are included, with the line items below."
                  : "The package's items are included; no separate line items are added."}
              </CardDescription>
            </CardHeader>
            {/* The package's table scrolls inside the card on a phone, also while it is still loading. */}
            <CardContent className="min-w-0 overflow-x-auto">
              {selectedPackage ? (
                <Suspense fallback={<p className="text-sm text-muted-foreground">Loading package...</p>}>
                  <PackageDetails pkg={selectedPackage} headingLevel="h4" />
                </Suspense>
              ) : (
                <p className="text-sm text-muted-foreground">Loading package...</p>
              )}
            </CardContent>
          </Card>
        )}
        {showLines && (
          <LineItemsFields
            form={form}
            products={products}
            productsLoading={options.productsLoading}
            besidePackage={hasPackage}
            contractId={contract?.id}
          />
        )}
      </div>

      <div className={cn('grid grid-cols-1 gap-6', layout === 'page' && 'lg:sticky lg:top-20')}>
        <ContractSummaryCard
          form={form}
          products={products}
          packagePrice={selectedPackage?.price ?? 0}
          countLines={showLines}
        />

        <Card>
          <CardContent className="grid gap-4 pt-5">
            {showSendSwitch && (
              <SwitchRow
                label="Send to customer immediately"
                checked={Boolean(sendToCustomer)}
                onChange={(checked) => {
                  form.setValue('sendToCustomer', checked);
                  if (checked) form.setValue('makeActive', false);
                }}
              />
            )}
            {!editing && (
              <SwitchRow
                label="Make active (live) without sending"
                checked={Boolean(makeActive)}
                onChange={(checked) => {
                  form.setValue('makeActive', checked);
                  if (checked) form.setValue('sendToCustomer', false);
                }}
              />
            )}
            <p className="text-sm text-muted-foreground" data-testid="delivery-hint" aria-live="polite">
              {deliveryHint({ editing, sendToCustomer: showSendSwitch && Boolean(sendToCustomer), makeActive })}
            </p>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="outline" onClick={cancel} disabled={busy}>
                Cancel
              </Button>
              <Button type="submit" disabled={busy}>
                {submitLabel}
              </Button>
            </div>
          </CardContent>
        </Card>
      </div>
    </form>
  );
}

function deliveryHint({
  editing,
  sendToCustomer,
  makeActive,
}: {
  editing: boolean;
  sendToCustomer: boolean;
  makeActive?: boolean;
}): string {
  if (editing) {
    return sendToCustomer
      ? 'The contract will be sent to the customer by e-mail when you save.'
      : 'Your changes are saved; the customer is not e-mailed.';
  }
  if (makeActive) return 'The contract will be created as active (live) but not sent to the customer.';
  if (sendToCustomer) return 'The contract will be sent to the customer by e-mail on creation.';
  return 'The contract will be saved as a draft; you can send it to the customer later.';
}

function SwitchRow({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center justify-between gap-4">
      <Label htmlFor={id} className="cursor-pointer">
        {label}
      </Label>
      <Switch id={id} checked={checked} onCheckedChange={onChange} />
    </div>
  );
}

/** The remedy field's place while it loads: its label and an empty control, so nothing moves when it comes. */
function RemedyFieldPlaceholder() {
  return (
    <div className="grid gap-1.5" aria-hidden>
      <span className="text-sm font-medium leading-none text-slate-700">Under-delivery Remedy</span>
      <div className="h-9 rounded-md border border-input bg-muted/30" />
    </div>
  );
}

type TriggerProps = { id?: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string };

/** Each option shows the customer's name and e-mail; the id and aria props land on the trigger for FormField. */
function CustomerSelect({
  value,
  onChange,
  onBlur,
  customers,
  loading,
  ...trigger
}: TriggerProps & {
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  customers: { id: string; name: string; email: string; company: string | null }[];
  loading: boolean;
}) {
  const selected = customers.find((c) => c.id === value);
  return (
    <LazySelect
      value={value}
      onValueChange={onChange}
      onBlur={onBlur}
      placeholder={loading ? 'Loading customers...' : 'Select a customer'}
      display={selected ? selected.name : undefined}
      options={customers.map((customer) => ({
        value: customer.id,
        label: (
          <>
            <span className="font-medium">{customer.name}</span>
            <span className="block text-xs text-muted-foreground">{customer.email}</span>
          </>
        ),
      }))}
      {...trigger}
    />
  );
}

function PaymentModeSelect({
  value,
  onChange,
  onBlur,
  ...trigger
}: TriggerProps & { value: string; onChange: (value: string) => void; onBlur: () => void }) {
  const selected = PAYMENT_MODE_LABELS[value as keyof typeof PAYMENT_MODE_LABELS];
  return (
    <LazySelect
      value={value}
      onValueChange={onChange}
      onBlur={onBlur}
      placeholder="Select a payment mode"
      display={selected?.label}
      options={PAYMENT_MODES.map((mode) => ({
        value: mode,
        label: (
          <>
            <span className="font-medium">{PAYMENT_MODE_LABELS[mode].label}</span>
            <span className="block text-xs text-muted-foreground">{PAYMENT_MODE_LABELS[mode].description}</span>
          </>
        ),
      }))}
      {...trigger}
    />
  );
}

function PackageSelect({
  value,
  onChange,
  onBlur,
  packages,
  loading,
  ...trigger
}: TriggerProps & {
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  packages: { id: string; name: string; price: number }[];
  loading: boolean;
}) {
  const selected = packages.find((p) => p.id === value);
  return (
    <LazySelect
      value={value}
      onValueChange={onChange}
      onBlur={onBlur}
      placeholder={loading ? 'Loading packages...' : 'No Package'}
      display={value === NO_PACKAGE ? 'No Package' : (selected?.name ?? (loading ? 'Loading packages...' : undefined))}
      options={[
        { value: NO_PACKAGE, label: 'No Package' },
        ...packages.map((pkg) => ({
          value: pkg.id,
          label: (
            <>
              <span className="font-medium">{pkg.name}</span>
              <span className="block text-xs tabular-nums text-muted-foreground">{formatMoney(pkg.price)} / month</span>
            </>
          ),
        })),
      ]}
      {...trigger}
    />
  );
}

/** The active products, plus any (archived) product already on the contract's lines. */
function withContractProducts(active: ProductOption[], contract: Contract | null | undefined): ProductOption[] {
  if (!contract) return active;
  const known = new Set(active.map((p) => p.id));
  const extra: ProductOption[] = [];
  for (const line of contract.lineItems) {
    if (known.has(line.productId)) continue;
    known.add(line.productId);
    extra.push({
      id: line.product.id,
      name: line.product.name,
      defaultPrice: line.product.defaultPrice,
      seasonalPrice: line.product.seasonalPrice,
      adType: line.product.adType as ProductOption['adType'],
      priceMetric: line.priceMetric,
      defaultDuration: null,
      isActive: false,
    });
  }
  return [...active, ...extra];
}

/** The contract's own customer stays in the list even before the options load. */
function withContractCustomer<T extends { id: string }>(customers: T[], contract: Contract | null | undefined) {
  if (!contract?.customer || customers.some((c) => c.id === contract.customerId)) return customers;
  return [...customers, contract.customer as unknown as T];
}
