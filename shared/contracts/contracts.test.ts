import { describe, expect, it } from 'vitest';
import {
  addContractLineSchema,
  type ContractBodyInput,
  contractBodySchema,
  contractListQuerySchema,
} from './contract-api';
import {
  addLineFormSchema,
  type ContractFormValues,
  contractFormSchema,
  contractToFormValues,
  formTotals,
  newContractFormValues,
  toContractPayload,
} from './contract-form';
import { formFigures } from './contract-form-figures';
import {
  addCalendarMonths,
  availableActions,
  canDeleteContract,
  canEditContract,
  canTransition,
  computeAutoStopDate,
  editRefusalLabel,
  transitionRefusal,
} from './contract-lifecycle';
import type { Contract } from './contract-responses';
import { CONTRACT_STATUSES, contractStatusBadge } from './contract-vocabulary';

const CUSTOMER = '2b8e5a4c-1f3d-4c6e-9a7b-0d1e2f3a4b5c';
const PRODUCT = '7c9d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e2f';
const PACKAGE = '9e8d7c6b-5a4f-4e3d-9c2b-1a0f9e8d7c6b';

const validForm = (overrides: Partial<ContractFormValues> = {}): ContractFormValues => ({
  ...newContractFormValues('2026-03-15'),
  customerId: CUSTOMER,
  paymentMode: 'pay_link',
  lineItems: [{ productId: PRODUCT, quantity: '2', unitPrice: '150.00', discount: '25.50' }],
  ...overrides,
});

/** The first message for each path ('' for the root). */
function messages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) out[issue.path.join('.')] ??= issue.message;
  return out;
}

describe('contract form schema', () => {
  it('accepts a complete form', () => {
    expect(contractFormSchema.safeParse(validForm()).success).toBe(true);
  });

  it.each([
    ['customer missing', { customerId: '' }, 'customerId', 'Customer is required'],
    ['start date missing', { startDate: '' }, 'startDate', 'Start date is required'],
    ['start date invalid', { startDate: '2026-02-30' }, 'startDate', 'Enter a valid date (YYYY-MM-DD)'],
    ['payment mode missing', { paymentMode: '' as const }, 'paymentMode', 'Payment mode is required'],
    ['term 0', { termMonths: '0' }, 'termMonths', 'Term must be at least 1 month'],
    ['term negative', { termMonths: '-3' }, 'termMonths', 'Term must be at least 1 month'],
    ['term 121', { termMonths: '121' }, 'termMonths', 'Term cannot exceed 120 months'],
    ['term not whole', { termMonths: '1.5' }, 'termMonths', 'Term must be a whole number of months'],
    ['term text', { termMonths: 'abc' }, 'termMonths', 'Term must be a whole number of months'],
    ['setup fee negative', { setupFee: '-1' }, 'setupFee', 'Setup fee cannot be negative'],
    ['setup fee text', { setupFee: 'ten' }, 'setupFee', 'Setup fee must be an amount in dollars, like 250.00'],
    [
      'no package and no line',
      { lineItems: [] },
      'lineItems',
      'Please select a package or add at least one complete line item',
    ],
    [
      'no package and only incomplete lines',
      { lineItems: [{ productId: PRODUCT, quantity: '1', unitPrice: '', discount: '0' }] },
      'lineItems',
      'Please select a package or add at least one complete line item',
    ],
    [
      'discount above the line amount',
      { lineItems: [{ productId: PRODUCT, quantity: '2', unitPrice: '10', discount: '20.01' }] },
      'lineItems.0.discount',
      'Discount cannot exceed the line amount',
    ],
    [
      'discount above the in-season amount ($100 line, $90 off, $50 in season)',
      { lineItems: [{ productId: PRODUCT, quantity: '1', unitPrice: '100', discount: '90', seasonalPrice: '50' }] },
      'lineItems.0.discount',
      'Discount cannot exceed the line amount',
    ],
    [
      'discount above the in-season amount of two units (2 x $44.99 < $90)',
      { lineItems: [{ productId: PRODUCT, quantity: '2', unitPrice: '100', discount: '90', seasonalPrice: '44.99' }] },
      'lineItems.0.discount',
      'Discount cannot exceed the line amount',
    ],
    [
      'discount above the line amount, whatever the in-season price',
      { lineItems: [{ productId: PRODUCT, quantity: '1', unitPrice: '50', discount: '90', seasonalPrice: '100' }] },
      'lineItems.0.discount',
      'Discount cannot exceed the line amount',
    ],
    [
      'negative unit price',
      { lineItems: [{ productId: PRODUCT, quantity: '1', unitPrice: '-5', discount: '0' }] },
      'lineItems.0.unitPrice',
      'Unit price cannot be negative',
    ],
    [
      'quantity 0',
      { lineItems: [{ productId: PRODUCT, quantity: '0', unitPrice: '5', discount: '0' }] },
      'lineItems.0.quantity',
      'Quantity must be at least 1',
    ],
    [
      'negative discount',
      { lineItems: [{ productId: PRODUCT, quantity: '1', unitPrice: '5', discount: '-1' }] },
      'lineItems.0.discount',
      'Discount cannot be negative',
    ],
  ] as const)('%s: %s says "%s"', (_name, overrides, path, message) => {
    const result = contractFormSchema.safeParse(validForm(overrides as Partial<ContractFormValues>));
    expect(result.success).toBe(false);
    expect(messages(result)[path]).toBe(message);
  });

  it('reports the missing package or line together with other errors', () => {
    const result = contractFormSchema.safeParse(validForm({ customerId: '', lineItems: [] }));
    expect(messages(result)).toMatchObject({
      customerId: 'Customer is required',
      lineItems: 'Please select a package or add at least one complete line item',
    });
  });

  it('accepts a package without lines, a blank term and a blank setup fee', () => {
    const result = contractFormSchema.safeParse(
      validForm({ packageId: PACKAGE, lineItems: [], termMonths: '', setupFee: '' }),
    );
    expect(result.success).toBe(true);
  });

  it('accepts a discount up to the in-season amount, or any in-season price when there is no discount', () => {
    const accepted: [string, string, string, string][] = [
      // [quantity, unit price, discount, in-season price]
      ['1', '100', '50', '50'],
      ['2', '100', '90', '45'],
      ['1', '100', '90', ''],
      ['1', '100', '0', '0'],
      ['1', '100', '90', '150'],
    ];
    for (const [quantity, unitPrice, discount, seasonalPrice] of accepted) {
      const result = contractFormSchema.safeParse(
        validForm({ lineItems: [{ productId: PRODUCT, quantity, unitPrice, discount, seasonalPrice }] }),
      );
      expect(result.success, `${quantity} x ${unitPrice} - ${discount}, in season ${seasonalPrice}`).toBe(true);
    }
  });

  it('says so on the Add Line form too', () => {
    const result = addLineFormSchema.safeParse({
      productId: PRODUCT,
      quantity: '1',
      unitPrice: '100',
      discount: '90',
      seasonalPrice: '50',
    });
    expect(messages(result)).toEqual({ discount: 'Discount cannot exceed the line amount' });
  });

  it('accepts a discount equal to the line amount, and terms of 1 and 120 months', () => {
    for (const termMonths of ['1', '120']) {
      const result = contractFormSchema.safeParse(
        validForm({ termMonths, lineItems: [{ productId: PRODUCT, quantity: '2', unitPrice: '10', discount: '20' }] }),
      );
      expect(result.success).toBe(true);
    }
  });

  it('ignores incomplete lines beside a complete one', () => {
    const result = contractFormSchema.safeParse(
      validForm({
        lineItems: [
          { productId: PRODUCT, quantity: '1', unitPrice: '10', discount: '0' },
          { productId: '', quantity: '1', unitPrice: 'not checked', discount: 'x' },
        ],
      }),
    );
    expect(result.success).toBe(true);
  });

  it('has the ui-spec defaults', () => {
    expect(newContractFormValues('2026-01-02')).toMatchObject({
      startDate: '2026-01-02',
      setupFee: '0',
      termMonths: '',
      packageId: 'none',
      sendToCustomer: true,
      makeActive: false,
      lineItems: [{ productId: '', quantity: '1', unitPrice: '', discount: '0' }],
    });
    const parsed = contractFormSchema.parse({
      customerId: CUSTOMER,
      paymentMode: 'portal',
      startDate: '2026-01-02',
      packageId: PACKAGE,
    });
    expect(parsed).toMatchObject({ setupFee: '0', sendToCustomer: true, makeActive: false, lineItems: [] });
  });
});

describe('toContractPayload', () => {
  it('drops incomplete lines, converts numbers, and sends no status without makeActive', () => {
    const payload = toContractPayload(
      validForm({
        termMonths: '12',
        setupFee: '99.95',
        description: 'Holiday run',
        lineItems: [
          { productId: PRODUCT, quantity: '3', unitPrice: '1,250.50', discount: '0.50' },
          { productId: PRODUCT, quantity: '1', unitPrice: '', discount: '0' },
          { productId: '', quantity: '1', unitPrice: '10', discount: '0' },
          { productId: PRODUCT, quantity: '', unitPrice: '10', discount: '0' },
        ],
      }),
    );
    expect(payload).toEqual({
      customerId: CUSTOMER,
      startDate: '2026-03-15',
      termMonths: 12,
      description: 'Holiday run',
      setupFee: 99.95,
      paymentMode: 'pay_link',
      underDeliveryRemedy: 'credit',
      packageId: null,
      billToCustomerId: null,
      sendToCustomer: true,
      makeActive: false,
      lineItems: [{ productId: PRODUCT, quantity: 3, unitPrice: 1250.5, discount: 0.5 }],
    });
    expect('status' in payload).toBe(false);
  });

  it('turns an empty term into null, "none" into null, and sends status active with makeActive', () => {
    const payload = toContractPayload(
      validForm({ termMonths: '', packageId: 'none', makeActive: true, sendToCustomer: true, setupFee: '' }),
    );
    expect(payload).toMatchObject({
      termMonths: null,
      packageId: null,
      status: 'active',
      makeActive: true,
      setupFee: 0,
    });
    expect(toContractPayload(validForm({ packageId: PACKAGE })).packageId).toBe(PACKAGE);
  });

  it('produces a body the API schema accepts, with the same figures in cents', () => {
    const payload: ContractBodyInput = toContractPayload(validForm({ termMonths: '6', setupFee: '10.10' }));
    const body = contractBodySchema.parse(payload);
    expect(body).toMatchObject({
      termMonths: 6,
      setupFee: 1010,
      lineItems: [{ productId: PRODUCT, quantity: 2, unitPrice: 15000, discount: 2550 }],
    });
  });
});

describe('contract API body schema', () => {
  const valid = (): Record<string, unknown> => ({
    customerId: CUSTOMER,
    startDate: '2026-01-31',
    termMonths: 3,
    description: 'x',
    setupFee: 0,
    paymentMode: 'portal',
    packageId: null,
    sendToCustomer: false,
    makeActive: false,
    lineItems: [{ productId: PRODUCT, quantity: 1, unitPrice: 100, discount: 0 }],
  });

  it.each([
    ['customer missing', { customerId: undefined }, 'customerId', 'Customer is required'],
    ['bad date', { startDate: '31/01/2026' }, 'startDate', 'Enter a valid date (YYYY-MM-DD)'],
    ['no date', { startDate: '' }, 'startDate', 'Start date is required'],
    ['term 0', { termMonths: 0 }, 'termMonths', 'Term must be at least 1 month'],
    ['term 121', { termMonths: 121 }, 'termMonths', 'Term cannot exceed 120 months'],
    ['payment mode', { paymentMode: 'cash' }, 'paymentMode', 'Payment mode is required'],
    ['negative setup fee', { setupFee: -1 }, 'setupFee', 'Setup fee cannot be negative'],
    [
      'negative unit price',
      { lineItems: [{ productId: PRODUCT, quantity: 1, unitPrice: -1 }] },
      'lineItems.0.unitPrice',
      'Unit price cannot be negative',
    ],
    [
      'discount above the line',
      { lineItems: [{ productId: PRODUCT, quantity: 2, unitPrice: 10, discount: 20.01 }] },
      'lineItems.0.discount',
      'Discount cannot exceed the line amount',
    ],
    [
      'discount above the in-season amount',
      { lineItems: [{ productId: PRODUCT, quantity: 1, unitPrice: 100, discount: 90, seasonalPrice: 50 }] },
      'lineItems.0.discount',
      'Discount cannot exceed the line amount',
    ],
    [
      'discount above the in-season amount given as text',
      { lineItems: [{ productId: PRODUCT, quantity: 1, unitPrice: '100', discount: '90', seasonalPrice: '89.99' }] },
      'lineItems.0.discount',
      'Discount cannot exceed the line amount',
    ],
    [
      'no package and no line',
      { lineItems: [], packageId: 'none' },
      'lineItems',
      'Please select a package or add at least one complete line item',
    ],
    [
      'line without product',
      { lineItems: [{ quantity: 1, unitPrice: 1 }] },
      'lineItems.0.productId',
      'Product is required',
    ],
    [
      'status paused',
      { status: 'paused' },
      'status',
      'Status can only be draft, sent or active here; use the contract actions for other changes',
    ],
  ])('%s', (_name, overrides, path, message) => {
    const result = contractBodySchema.safeParse({ ...valid(), ...overrides });
    expect(result.success).toBe(false);
    expect(messages(result)[path]).toBe(message);
  });

  it("checks the in-season amount it is given; one left out is the product's, for the server to check", () => {
    const line = { productId: PRODUCT, quantity: 1, unitPrice: 100, discount: 90 };
    const cases: [unknown, boolean][] = [
      [50, false],
      [89.99, false],
      [90, true],
      [null, true],
      ['', true],
      [undefined, true],
    ];
    for (const [seasonalPrice, ok] of cases) {
      const result = contractBodySchema.safeParse({ ...valid(), lineItems: [{ ...line, seasonalPrice }] });
      expect(result.success, `in season ${String(seasonalPrice)}`).toBe(ok);
      const added = addContractLineSchema.safeParse({ ...line, seasonalPrice });
      expect(added.success, `Add Line, in season ${String(seasonalPrice)}`).toBe(ok);
      if (!ok) expect(messages(added)).toEqual({ discount: 'Discount cannot exceed the line amount' });
    }
  });

  it('defaults the optional fields', () => {
    const body = contractBodySchema.parse({
      customerId: CUSTOMER,
      startDate: '2026-01-31T10:00:00.000Z',
      paymentMode: 'pay_link',
      packageId: PACKAGE,
    });
    expect(body).toMatchObject({
      startDate: '2026-01-31',
      termMonths: null,
      setupFee: 0,
      description: null,
      title: null,
      sendToCustomer: false,
      makeActive: false,
      lineItems: [],
      packageId: PACKAGE,
    });
  });
});

describe('edit and delete rules (ui-spec.md section 4)', () => {
  const cases: [string, string | null, string | null, boolean, boolean][] = [
    ['draft', null, null, true, true],
    ['draft', 'sub_1', 'plink_1', true, true],
    ['sent', null, null, true, false],
    ['sent', null, 'plink_1', false, false],
    ['active', null, null, true, true],
    ['active', 'sub_1', null, false, false],
    ['active', null, 'plink_1', false, false],
    ['paused', null, null, false, false],
    ['canceled', null, null, false, true],
    ['canceled', 'sub_1', null, false, true],
    ['completed', null, null, false, false],
  ];
  it.each(cases)('%s (subscription %s, payment link %s): edit %s, delete %s', (status, sub, link, edit, del) => {
    const c = { status, stripeSubscriptionId: sub, stripePaymentLinkId: link };
    expect(canEditContract(c)).toBe(edit);
    expect(canDeleteContract(c)).toBe(del);
  });
});

describe('transitions', () => {
  const allowed: Record<string, string[]> = {
    draft: ['send', 'activate', 'cancel'],
    sent: ['activate', 'cancel'],
    active: ['pause', 'cancel'],
    paused: ['resume', 'cancel'],
    canceled: [],
    completed: [],
  };
  it.each(CONTRACT_STATUSES)('%s allows exactly its actions', (status) => {
    expect(availableActions(status)).toEqual(allowed[status]);
  });

  it('names the current status when refusing', () => {
    expect(canTransition('canceled', 'pause')).toBe(false);
    expect(transitionRefusal('pause', 'draft')).toBe(
      'Cannot pause this contract: it is draft. Only active contracts can be paused.',
    );
    expect(transitionRefusal('cancel', 'completed')).toBe(
      'Cannot cancel this contract: it is completed. Only draft, sent, active or paused contracts can be canceled.',
    );
  });
});

describe('dates', () => {
  it.each([
    ['2026-01-31', 1, '2026-02-28'],
    ['2028-01-31', 1, '2028-02-29'],
    ['2026-01-31', 2, '2026-03-31'],
    ['2026-03-15', 12, '2027-03-15'],
    ['2026-11-30', 3, '2027-02-28'],
    ['2026-08-31', 120, '2036-08-31'],
    ['2026-05-31', -1, '2026-04-30'],
  ] as const)('%s + %d months = %s', (start, months, expected) => {
    expect(addCalendarMonths(start, months)).toBe(expected);
  });

  it('has no auto-stop date when indefinite', () => {
    expect(computeAutoStopDate('2026-01-31', null)).toBeNull();
    expect(computeAutoStopDate('2026-01-31', 1)).toBe('2026-02-28');
  });
});

describe('status badges', () => {
  it.each([
    ['active', 'Active', 'green'],
    ['sent', 'Sent', 'yellow'],
    ['draft', 'Draft', 'grey'],
    ['paused', 'Paused', 'red'],
    ['canceled', 'Canceled', 'red'],
    ['completed', 'Completed', 'blue'],
    ['archived', 'Archived', 'grey'],
  ])('%s is a %s badge in %s', (status, label, tone) => {
    expect(contractStatusBadge(status)).toMatchObject({ label, tone });
  });
});

describe('list query', () => {
  it('reads "all" as no status filter and mine as a flag', () => {
    expect(contractListQuerySchema.parse({ status: 'all', mine: 'true' })).toMatchObject({
      status: undefined,
      mine: true,
      limit: 100,
      offset: 0,
    });
    expect(contractListQuerySchema.safeParse({ status: 'archived' }).success).toBe(false);
  });
});

describe('form summary', () => {
  /** What the summary's billing preview shows for form values (formTotals' complete lines, then the engine). */
  const figuresOf = (
    values: Parameters<typeof formTotals>[0] & { startDate: string; termMonths?: string },
    options: Partial<Parameters<typeof formFigures>[2]> = {},
  ) => {
    const totals = formTotals(values, { packagePriceCents: options.packagePriceCents });
    return formFigures(values, totals.counted, {
      packagePriceCents: totals.packagePrice,
      setupFeeCents: totals.setupFee,
      ...options,
    });
  };

  it('shows each row total and totals over complete rows with the package', () => {
    const values = {
      setupFee: '50',
      startDate: '2026-10-01',
      termMonths: '2',
      lineItems: [
        { productId: PRODUCT, quantity: '2', unitPrice: '10.10', discount: '0.20', seasonalPrice: '15' },
        { productId: '', quantity: '1', unitPrice: '5', discount: '0' },
        { productId: PRODUCT, quantity: '1', unitPrice: '', discount: '0' },
      ],
    };
    const totals = formTotals(values, { packagePriceCents: 100_00 });
    expect(totals.rowTotals).toEqual([2000, 500, null]);
    expect(totals).toMatchObject({ lineItemsTotal: 2000, packagePrice: 10000, setupFee: 5000, total: 17000 });
    expect(figuresOf(values, { packagePriceCents: 100_00 })).toMatchObject({
      // October is in season: 2 x 15.00 - 0.20 = 29.80, + package 100 + setup fee 50
      firstInvoice: { periodStart: '2026-10-01', dueDate: '2026-10-08', subtotalCents: 179_80 },
      monthlyCents: 120_00,
      seasonalMonthlyCents: 129_80,
      // October 179.80 + November 129.80
      termValueCents: 309_60,
    });
  });

  it("previews a flat line with its product's metric and in-season price, in the month its flight starts", () => {
    const FLAT = '0f1e2d3c-4b5a-4968-8776-655443322110';
    const figures = figuresOf(
      {
        setupFee: '0',
        startDate: '2026-11-15',
        termMonths: '',
        lineItems: [
          { productId: PRODUCT, quantity: '250', unitPrice: '12', discount: '0', seasonalPrice: '' },
          {
            productId: FLAT,
            quantity: '1',
            unitPrice: '2500',
            discount: '0',
            seasonalPrice: '3500',
            flightStart: '2026-12-20',
          },
        ],
      },
      {
        productsById: {
          [PRODUCT]: { name: 'Pre-roll (CPM)', priceMetric: 'cpm', defaultDuration: null },
          [FLAT]: { name: 'Homepage Takeover', priceMetric: 'flat', defaultDuration: 7 },
        },
      },
    );
    expect(figures).toMatchObject({
      // November 15 - December 14 bills the CPM line only; the takeover starts in the next period.
      firstInvoice: { subtotalCents: 3_000_00 },
      monthlyCents: 3_000_00,
      oneTimeCharges: [
        {
          kind: 'flat',
          description: 'Homepage Takeover',
          amountCents: 3_500_00,
          billedOn: '2026-12-15',
          seasonal: true,
        },
      ],
      termValueCents: null,
    });
  });

  it('has no figures while the start date or the term is not valid', () => {
    const lineItems = [{ productId: PRODUCT, quantity: '1', unitPrice: '10', discount: '0' }];
    expect(figuresOf({ setupFee: '0', startDate: '', lineItems })).toBeNull();
    expect(figuresOf({ setupFee: '0', startDate: '2026-02-30', lineItems })).toBeNull();
    expect(figuresOf({ setupFee: '0', startDate: '2026-12-01', termMonths: '0', lineItems })).toBeNull();
    expect(figuresOf({ setupFee: '0', startDate: '2026-12-01', termMonths: '12', lineItems })).toMatchObject({
      termValueCents: 120_00,
    });
  });
});

describe('an edit saved unchanged', () => {
  const product = {
    id: PRODUCT,
    name: 'Banner',
    adType: 'banner',
    defaultPrice: 450,
    seasonalPrice: null,
    priceMetric: 'monthly',
  };
  const stored = {
    id: '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a',
    customerId: CUSTOMER,
    billToCustomerId: CUSTOMER,
    title: 'Holiday Lights: season launch',
    description: 'Winter light show',
    startDate: '2026-01-15',
    termMonths: 12,
    paymentMode: 'portal',
    underDeliveryRemedy: 'makegood',
    packageId: PACKAGE,
    setupFee: 250,
    status: 'draft',
    lineItems: [
      {
        id: 'l1',
        productId: PRODUCT,
        quantity: 2,
        unitPrice: 175,
        discount: 0.5,
        lineTotal: 349.5,
        seasonalPrice: 199,
        flightStart: '2026-01-15',
        flightEnd: null,
        product,
      },
      {
        id: 'l2',
        productId: PRODUCT,
        quantity: 1,
        unitPrice: 0.99,
        discount: 0,
        lineTotal: 0.99,
        seasonalPrice: null,
        flightStart: '2026-03-01',
        flightEnd: '2026-05-31',
        product,
      },
    ],
  } as unknown as Contract;

  it('sends back the stored package, every line, the title and the figures as they were', () => {
    const values = contractToFormValues(stored);
    expect(contractFormSchema.safeParse(values).success).toBe(true);
    expect(toContractPayload(values)).toEqual({
      customerId: CUSTOMER,
      startDate: '2026-01-15',
      termMonths: 12,
      description: 'Winter light show',
      title: 'Holiday Lights: season launch',
      setupFee: 250,
      paymentMode: 'portal',
      underDeliveryRemedy: 'makegood',
      packageId: PACKAGE,
      // Billed to the customer itself: kept as chosen (billed to its agency, null: the server keeps it).
      billToCustomerId: CUSTOMER,
      sendToCustomer: false,
      makeActive: false,
      lineItems: [
        // A flight from the contract's start follows it (null); another keeps its dates.
        {
          productId: PRODUCT,
          quantity: 2,
          unitPrice: 175,
          discount: 0.5,
          seasonalPrice: 199,
          flightStart: null,
          flightEnd: null,
        },
        {
          productId: PRODUCT,
          quantity: 1,
          unitPrice: 0.99,
          discount: 0,
          seasonalPrice: null,
          flightStart: '2026-03-01',
          flightEnd: '2026-05-31',
        },
      ],
    });
  });

  it('leaves out a title the contract does not have, and an indefinite term stays indefinite', () => {
    const payload = toContractPayload(
      contractToFormValues({ ...stored, title: null, termMonths: null, packageId: null } as Contract),
    );
    expect('title' in payload).toBe(false);
    expect(payload.termMonths).toBeNull();
    expect(payload.packageId).toBeNull();
  });
});

describe('editRefusalLabel', () => {
  it.each([
    [{ status: 'draft' }, null],
    [{ status: 'sent' }, null],
    [{ status: 'active' }, null],
    [{ status: 'draft', stripePaymentLinkId: 'plink_1' }, null],
    [{ status: 'sent', stripePaymentLinkId: 'plink_1' }, 'Cannot edit - payment processing started'],
    [{ status: 'active', stripeSubscriptionId: 'sub_1' }, 'Cannot edit - payment processing started'],
    [{ status: 'paused' }, 'Cannot edit - contract paused'],
    [{ status: 'paused', stripeSubscriptionId: 'sub_1' }, 'Cannot edit - contract paused'],
    [{ status: 'canceled', stripePaymentLinkId: 'plink_1' }, 'Cannot edit - contract canceled'],
    [{ status: 'completed' }, 'Cannot edit - contract completed'],
  ])('%j: %s', (contract, label) => {
    expect(editRefusalLabel(contract)).toBe(label);
  });
});
