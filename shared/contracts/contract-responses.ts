import type { ContractStatus, PauseReason, PaymentMode } from './contract-vocabulary';
import type { UnderDeliveryRemedy } from './delivery-vocabulary';
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
  /** Monthly and CPM lines + package: billed every month. */
  monthlyAmount: number;
  /** Charged once: the flat lines and the setup fee. */
  oneTimeAmount: number;
  /** The monthly amount plus the one-time charges. */
  firstInvoiceAmount: number;
  /** The monthly amount for periods starting October to December. */
  seasonalMonthlyAmount: number;
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
  /**
   * A sent contract with inventory lines: when the hold on its slots ends or ended (ISO timestamp; product.md
   * section 13). Null for any other contract.
   */
  inventoryHoldUntil: string | null;
};

export type PaymentLinkResponse = { paymentUrl: string };
