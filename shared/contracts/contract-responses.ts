import type { AgencyBillingMode } from './agencies';
import type { ContractNextStep } from './contract-next-step';
import type { ContractStatus, PauseReason, PaymentMode } from './contract-vocabulary';
import type { UnderDeliveryRemedy } from './delivery-vocabulary';
import type { ContractIoSummary } from './insertion-orders';
import type { PriceMetric } from './product-vocabulary';

/** The contracts API's answers (amounts in dollars). */

export type ContractProductRef = {
  id: string;
  name: string;
  adType: string;
  defaultPrice: number;
  seasonalPrice: number | null;
  priceMetric: string;
};

export type ContractLineItem = {
  id: string;
  productId: string;
  quantity: number;
  unitPrice: number;
  discount: number;
  lineTotal: number;
  /** As sold: the product's metric then (monthly, flat, cpm). */
  priceMetric: PriceMetric;
  /** The unit price for periods starting October to December; null: none for this line. */
  seasonalPrice: number | null;
  /** The line total in season (the line total when it has no in-season price). */
  seasonalLineTotal: number;
  flightStart: string;
  /** null: until the contract ends. */
  flightEnd: string | null;
  product: ContractProductRef;
};

export type ContractPackageItem = {
  id: string;
  productId: string | null;
  /** A custom item name, for items that are not a catalog product. */
  productName: string | null;
  quantity: number;
  customPrice: number | null;
  customDescription: string | null;
  notes: string | null;
  product: ContractProductRef | null;
};

export type ContractPackage = {
  id: string;
  name: string;
  description: string | null;
  price: number;
  items: ContractPackageItem[];
};

export type ContractCustomer = { id: string; name: string; email: string; company: string | null };

/** A contract as the list shows it. */
export type ContractSummary = {
  id: string;
  customerId: string;
  customerName: string | null;
  /**
   * Who is invoiced and pays (product.md section 20): the customer itself, or its agency of record; the IO, the
   * pay link and the invoices go to its billing contact.
   */
  billToCustomerId: string;
  billToName: string | null;
  /** Billed to an agency: its commission in percent (15, 12.5) and billing mode, as agreed; null otherwise. */
  agencyCommissionPercent: number | null;
  agencyBillingMode: AgencyBillingMode | null;
  title: string | null;
  status: ContractStatus;
  /** Why a paused contract is paused ('non_payment': by dunning, resumes when its overdue invoices are paid); null unless paused. */
  pauseReason: PauseReason | null;
  description: string | null;
  /** YYYY-MM-DD */
  startDate: string;
  termMonths: number | null;
  /** YYYY-MM-DD: startDate + termMonths calendar months; null when indefinite. */
  autoStopDate: string | null;
  paymentMode: PaymentMode;
  /** How an under-delivered CPM period is settled (product.md section 12). */
  underDeliveryRemedy: UnderDeliveryRemedy;
  payLinkToken: string | null;
  /** The pay link as customers receive it (built from the configured public origin); null without a link. */
  payLinkUrl: string | null;
  /** Lines + package + setup fee (ui-spec.md's contract total); totalAmount is the same figure. */
  total: number;
  totalAmount: number;
  /**
   * The figures below come from the billing engine (shared/contract-figures.ts), the rules every invoice is
   * issued by. Monthly: what a whole period of the per-month and CPM lines still running bills at regular
   * prices, plus the package (a period a flight covers in part bills its days only: see the schedule).
   */
  monthlyAmount: number;
  /** The same at in-season prices (periods starting October to December). */
  seasonalMonthlyAmount: number;
  /** Charged once: the setup fee and the flat lines, each at the price of the period that bills it. */
  oneTimeAmount: number;
  /** The first invoice's total with tax: as issued once it is, otherwise as the billing run will issue it. */
  firstInvoiceAmount: number;
  /** YYYY-MM-DD: the first day of the first billing period (the start date), when the first invoice is issued. */
  firstInvoiceDate: string;
  /** YYYY-MM-DD: when the first invoice is due. */
  firstInvoiceDueDate: string;
  /** What the term bills before tax (every period that starts before the auto-stop date); null when indefinite. */
  termValue: number | null;
  setupFee: number;
  packagePrice: number;
  lineItemsTotal: number;
  stripeSubscriptionId: string | null;
  stripePaymentLinkId: string | null;
  stripeCustomerId: string | null;
  packageId: string | null;
  salesRepId: string | null;
  salesRepName: string | null;
  cancelReason: string | null;
  createdAt: string;
  updatedAt: string;
  /** Whether the caller may edit / delete it now (the rules below and the caller's rights). */
  canEdit: boolean;
  canDelete: boolean;
  /** A line can be added or ended from today (a running contract whose edit is locked). */
  canAmend: boolean;
};

/** A contract as GET /api/contracts/:id, create, update and every action answer it. */
export type Contract = ContractSummary & {
  customer: ContractCustomer | null;
  package: ContractPackage | null;
  lineItems: ContractLineItem[];
  /** Each one-time charge at the price it will bill, with the period whose invoice carries it. */
  oneTimeCharges: ContractOneTimeCharge[];
  /** The first invoice's figures; `number` once it is issued. */
  firstInvoice: ContractFirstInvoice;
  /**
   * A sent contract with inventory lines: when the hold on its slots ends or ended (ISO timestamp; product.md
   * section 13). Null for any other contract.
   */
  inventoryHoldUntil: string | null;
  /** The contract this one renews (product.md section 15), or null. */
  renewalOfId: string | null;
  /** The contract that renews this one, with its status, or null. */
  renewedBy: { id: string; status: string } | null;
  /** The newest insertion order version (product.md section 15), without its link; null: none sent. */
  insertionOrder: ContractIoSummary | null;
  /**
   * A sent contract's next step once its insertion order is signed (or when it has none): the first payment or
   * staff's activation (contract-next-step.ts); null otherwise.
   */
  nextStep: ContractNextStep | null;
};

export type ContractOneTimeCharge = {
  kind: 'setup_fee' | 'flat';
  description: string;
  amount: number;
  /** YYYY-MM-DD: the first day of the period whose invoice carries it. */
  billedOn: string;
  /** Billed at the line's in-season price. */
  inSeason: boolean;
};

export type ContractFirstInvoice = {
  periodStart: string;
  dueDate: string;
  subtotal: number;
  tax: number;
  total: number;
  /** The issued invoice's number; null until it is issued. */
  number: string | null;
};

export type PaymentLinkResponse = { paymentUrl: string };

/**
 * What an amendment (a line added or ended) will do, before it is confirmed: POST
 * /api/contracts/{id}/lines/preview and /api/contracts/{id}/lines/{lineId}/end/preview. Computed by the
 * amendment itself in a transaction that is rolled back, so it is exactly what confirming bills.
 */
export type AmendmentPreview = {
  /** The prorated charges (positive) and credits (negative) the next invoice will carry, one per invoiced period. */
  adjustments: { description: string; coversStart: string; coversEnd: string; amount: number }[];
  /** Their sum. */
  adjustmentsTotal: number;
  /** The next invoice before and after the amendment (null: nothing more to bill). */
  nextInvoice: AmendmentNextInvoice | null;
  currentNextInvoice: AmendmentNextInvoice | null;
  /** The regular and in-season monthly amounts before and after. */
  monthlyAmount: number;
  seasonalMonthlyAmount: number;
  currentMonthlyAmount: number;
  currentSeasonalMonthlyAmount: number;
};

/** An invoice the billing run will issue: the first day of its period (its date), its due date, its total. */
export type AmendmentNextInvoice = { periodStart: string; dueDate: string; total: number };
