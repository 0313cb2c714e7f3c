import { z } from 'zod';
import { letterCount, visibleText } from '../visible-text';
import { IO_MESSAGES } from './insertion-order-vocabulary';

export * from './insertion-order-vocabulary';

import type { IoEventType, IoStatus } from './insertion-order-vocabulary';

/**
 * Insertion orders (product.md section 15): the contract as sent, frozen as version N, that the customer
 * accepts (signs) or declines. The public side is reached by the version's capability link
 * (`/io/{token}`); staff read the versions of a contract without ever seeing a token.
 */

/** POST /api/io/{token}/accept: the same schema validates the form. */
export const ioAcceptSchema = z.object({
  // The name as it prints: invisible and direction-changing characters removed first, then at least two
  // letters and at most 100 characters (shared/visible-text.ts).
  signerName: z
    .string({ message: IO_MESSAGES.signerName })
    .transform(visibleText)
    .pipe(
      z
        .string()
        .max(100, IO_MESSAGES.signerName)
        .refine((name) => letterCount(name) >= 2, IO_MESSAGES.signerName),
    ),
  agree: z.literal(true, { message: IO_MESSAGES.agree }),
});
export type IoAcceptInput = z.input<typeof ioAcceptSchema>;

/** POST /api/io/{token}/decline. */
export const ioDeclineSchema = z.object({
  reason: z
    .string({ message: IO_MESSAGES.declineReason })
    .trim()
    .min(1, IO_MESSAGES.declineReason)
    .max(1000, IO_MESSAGES.declineReason),
});
export type IoDeclineInput = z.input<typeof ioDeclineSchema>;

/** One line of an IO as frozen at the send (amounts in dollars). */
export type IoLine = {
  description: string;
  adType: string | null;
  priceMetric: string;
  quantity: number;
  unitPrice: number;
  seasonalPrice: number | null;
  discount: number;
  lineTotal: number;
  seasonalLineTotal: number;
  flightStart: string;
  flightEnd: string | null;
};

/** The figures the customer agrees to, frozen at the send (amounts in dollars). */
export type IoFigures = {
  title: string | null;
  /** Who signs and is billed: the customer, or the agency of record that buys for it (product.md section 20). */
  customerName: string;
  /** Billed to an agency: the advertiser the order is for; null otherwise (and for orders sent before agencies). */
  advertiserName: string | null;
  customerEmail: string;
  salesRepName: string | null;
  startDate: string;
  termMonths: number | null;
  autoStopDate: string | null;
  paymentMode: 'portal' | 'pay_link';
  lines: IoLine[];
  packageName: string | null;
  packagePrice: number;
  setupFee: number;
  monthlyAmount: number;
  seasonalMonthlyAmount: number;
  firstInvoiceAmount: number;
  taxLabel: string;
  taxRate: number;
  taxIncluded: boolean;
  oneTimeCharges: { description: string; amount: number; billedOn: string }[];
  /** The 12-month schedule: each invoice the billing engine will issue (date, due, total). */
  schedule: { periodStart: string; periodEnd: string; dueDate: string; total: number }[];
  terms: string;
};

/** GET /api/io/{token}: what the link's holder (the customer) sees. */
export type PublicInsertionOrder = {
  contractId: string;
  version: number;
  status: IoStatus;
  /** The newest version of this contract's IO. */
  latestVersion: number;
  sentAt: string;
  /** SHA-256 of the PDF's exact bytes, and of its content (printed in its footer). */
  sha256: string;
  contentSha256: string;
  figures: IoFigures;
  pdfUrl: string;
  /** Once accepted: who signed and when, and the signed PDF (the IO plus its signing certificate). */
  signerName: string | null;
  acceptedAt: string | null;
  signedPdfUrl: string | null;
  declinedAt: string | null;
  declineReason: string | null;
  /** Pay-link contracts: where to pay once accepted (the same customer's link); null otherwise. */
  payUrl: string | null;
};

/** The 410 answer of an older version's link. */
export type IoGoneResponse = { message: string; code: string; latestVersion: number; latestUrl: string | null };

export type IoEvent = {
  type: IoEventType;
  at: string;
  ip: string | null;
  userAgent: string | null;
  actorName: string | null;
  detail: string | null;
};

/** A version as staff see it (GET /api/contracts/{id}/io): no token. */
export type InsertionOrderVersion = {
  id: string;
  version: number;
  status: IoStatus;
  sentAt: string;
  sentByName: string | null;
  customerEmail: string;
  viewedAt: string | null;
  sha256: string;
  contentSha256: string;
  pdfUrl: string;
  acceptedAt: string | null;
  signerName: string | null;
  signerEmail: string | null;
  signerIp: string | null;
  signerUserAgent: string | null;
  signedSha256: string | null;
  signedPdfUrl: string | null;
  declinedAt: string | null;
  declineReason: string | null;
  supersededAt: string | null;
  events: IoEvent[];
};

export type ContractInsertionOrders = {
  contractId: string;
  /** Whether payment may start: true when the newest version is accepted, or no version was ever sent. */
  payable: boolean;
  versions: InsertionOrderVersion[];
};

/** The short form on GET /api/contracts/{id} and the client's contract page. */
export type ContractIoSummary = {
  version: number;
  status: IoStatus;
  sentAt: string;
  signerName: string | null;
  acceptedAt: string | null;
};

/** The newest version as its customer sees it on the pay page and in the portal (the client is the customer). */
export type CustomerIoStep = { token: string; version: number; status: IoStatus };

/** POST /api/contracts/{id}/io/verify (multipart, one PDF): does this file match a version sent or signed? */
export type IoVerifyResult = {
  sha256: string;
  match: { version: number; kind: 'sent' | 'signed' } | null;
};
