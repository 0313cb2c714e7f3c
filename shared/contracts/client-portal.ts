import type { ContractOneTimeCharge } from './contract-responses';

/**
 * The client portal's own answers (GET /api/client/summary, GET /api/client/contracts/{id}). Lists of the
 * client's contracts, invoices, creatives and figures have their own routes.
 */

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

/** GET /api/client/summary: the dashboard's and portal's figures, computed from the client's own records. */
export type ClientSummary = {
  /** Contracts with status active (the "Active Contracts" card, the portal's active campaigns). */
  activeContracts: number;
  /** Dollars still due on pending invoices (total less any part already paid). */
  outstandingBalance: number;
  pendingInvoices: number;
  nextPayment: NextPayment | null;
};

export type ClientContractLine = {
  name: string;
  adType: string;
  quantity: number;
  unitPrice: number;
  discount: number;
  lineTotal: number;
};

/** GET /api/client/contracts/{id}: one of the client's own contracts, without internal fields. */
export type ClientContractDetail = {
  id: string;
  title: string | null;
  description: string | null;
  status: string;
  startDate: string;
  termMonths: number | null;
  autoStopDate: string | null;
  paymentMode: string;
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
