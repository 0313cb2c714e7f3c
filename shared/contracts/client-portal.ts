import type { ContractNextStep } from './contract-next-step';
import type { ContractOneTimeCharge } from './contract-responses';
import type { PauseReason } from './contract-vocabulary';
import type { ClientContract } from './dashboard';
import type { UnderDeliveryRemedy } from './delivery-vocabulary';
import type { CustomerIoStep } from './insertion-orders';
import type { PriceMetric } from './product-vocabulary';

/**
 * The client portal's own answers (GET /api/client/summary, GET /api/client/contracts/{id}). Lists of the
 * client's contracts, invoices, creatives and figures have their own routes. A client's records are those billed
 * to its customer (product.md section 20): an agency's users see every advertiser's contract billed to the agency.
 */

/**
 * Whose campaign a contract is: the advertiser (the contract's customer), which is the client's own customer
 * unless the client is an agency billed for its advertisers (the portal then groups by advertiser).
 */
export type PortalAdvertiser = { advertiserId: string; advertiserName: string };

/** GET /api/client/contracts: a contract billed to the client's customer, with its advertiser. */
export type PortalContract = ClientContract & PortalAdvertiser;

/** The next payment: the earliest open invoice, or when none is open, the next scheduled billing period. */
export type NextPayment = {
  /** Dollars: what is due on that day (every open invoice, or every scheduled period, due that day). */
  amount: number;
  /** YYYY-MM-DD */
  dueDate: string;
  /** invoice: issued and unpaid; scheduled: the next period of an active contract, not invoiced yet. */
  source: 'invoice' | 'scheduled';
  /** The open invoice (source invoice, when one invoice is due that day), for Pay Now. */
  invoiceId: string | null;
};

/** An invoice past its due date and not paid: what to pay (what is still due on it) and which invoice. */
export type OverdueInvoice = {
  id: string;
  number: string;
  contractId: string;
  /** YYYY-MM-DD */
  dueDate: string;
  /** Dollars still due on it (total less what was paid and credited). */
  amountDue: number;
};

/**
 * What the client is behind on: its overdue invoices (the oldest first, at most 10 listed; count and amount
 * are of all of them) and its contracts paused for non-payment (they resume once their overdue invoices
 * are paid).
 */
export type PaymentAlerts = {
  overdueCount: number;
  /** Dollars still due on every overdue invoice. */
  overdueAmount: number;
  overdueInvoices: OverdueInvoice[];
  pausedForNonPayment: { id: string; title: string | null }[];
};

/** GET /api/client/summary: the dashboard's and portal's figures, computed from the client's own records. */
export type ClientSummary = PaymentAlerts & {
  /** Contracts with status active (the "Active Contracts" card, the portal's active campaigns). */
  activeContracts: number;
  /** Dollars still due on pending invoices (total less any part already paid). */
  outstandingBalance: number;
  pendingInvoices: number;
  nextPayment: NextPayment | null;
  /**
   * "Pay all due" (product.md section 20): the invoices billed to the client's customer with something due (pending
   * or failed), and dollars due on them: what POST /api/client/pay-all charges in one payment.
   */
  payAllCount: number;
  payAllAmount: number;
};

export type ClientContractLine = {
  id: string;
  /** The customer-facing description: the product's name, as the line reads on every invoice. */
  name: string;
  adType: string;
  /** As sold: monthly, flat (once) or cpm (per 1,000 impressions a month). */
  priceMetric: PriceMetric;
  quantity: number;
  unitPrice: number;
  discount: number;
  lineTotal: number;
  /** The unit price of periods starting October to December; null: the unit price all year. */
  seasonalPrice: number | null;
  /** The line total in season (the line total when it has no in-season price). */
  seasonalLineTotal: number;
  /** The flight: the days the line runs (YYYY-MM-DD); flightEnd null: until the contract ends. */
  flightStart: string;
  flightEnd: string | null;
};

/** GET /api/client/contracts/{id}: one of the client's own contracts, without internal fields. */
export type ClientContractDetail = PortalAdvertiser & {
  id: string;
  /** The newest insertion order version to review and sign (product.md section 15); null: none sent. */
  insertionOrder: CustomerIoStep | null;
  /** What happens next for a sent contract that is signed (or has no insertion order): contract-next-step.ts. */
  nextStep: ContractNextStep | null;
  title: string | null;
  description: string | null;
  status: string;
  startDate: string;
  termMonths: number | null;
  autoStopDate: string | null;
  paymentMode: string;
  /** Why a paused contract is paused (non_payment: resumes by itself when its overdue invoices are paid). */
  pauseReason: PauseReason | null;
  /** How an under-delivered CPM period is settled (product.md section 12). */
  underDeliveryRemedy: UnderDeliveryRemedy;
  /** This contract's overdue invoices (PaymentAlerts' figures for this contract alone). */
  overdueCount: number;
  overdueAmount: number;
  overdueInvoices: OverdueInvoice[];
  totalAmount: number;
  /** The figures below are the billing engine's, as on the staff's contract page (contract-responses.ts). */
  monthlyAmount: number;
  seasonalMonthlyAmount: number;
  setupFee: number;
  oneTimeAmount: number;
  oneTimeCharges: ContractOneTimeCharge[];
  firstInvoiceAmount: number;
  firstInvoiceDate: string;
  firstInvoiceDueDate: string;
  termValue: number | null;
  package: { name: string; price: number } | null;
  lineItems: ClientContractLine[];
};
