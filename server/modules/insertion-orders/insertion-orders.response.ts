import type {
  ContractInsertionOrders,
  ContractIoSummary,
  InsertionOrderVersion,
  IoEvent,
  IoFigures,
  IoGoneResponse,
  IoLine,
  IoVerifyResult,
  PublicInsertionOrder,
} from '@shared/contracts/insertion-orders';
import {
  arrayOf,
  boolean,
  integer,
  type JsonSchema,
  nullable,
  nullableInteger,
  nullableNumber,
  nullableString,
  number,
  object,
  string,
} from '../../lib/response-schema';

/** The insertion orders' answers (lib/response-schema.ts): only these fields are ever sent (never a token to staff). */

const ioLine = object<IoLine>({
  description: string,
  adType: nullableString,
  priceMetric: string,
  quantity: integer,
  unitPrice: number,
  seasonalPrice: nullableNumber,
  discount: number,
  lineTotal: number,
  seasonalLineTotal: number,
  flightStart: string,
  flightEnd: nullableString,
});

const ioFigures = object<IoFigures>({
  title: nullableString,
  customerName: string,
  advertiserName: nullableString,
  customerEmail: string,
  salesRepName: nullableString,
  startDate: string,
  termMonths: nullableInteger,
  autoStopDate: nullableString,
  paymentMode: string,
  lines: arrayOf(ioLine),
  packageName: nullableString,
  packagePrice: number,
  setupFee: number,
  monthlyAmount: number,
  seasonalMonthlyAmount: number,
  firstInvoiceAmount: number,
  taxLabel: string,
  taxRate: number,
  taxIncluded: boolean,
  oneTimeCharges: arrayOf(
    object<IoFigures['oneTimeCharges'][number]>({ description: string, amount: number, billedOn: string }),
  ),
  schedule: arrayOf(
    object<IoFigures['schedule'][number]>({ periodStart: string, periodEnd: string, dueDate: string, total: number }),
  ),
  terms: string,
});

export const publicInsertionOrderResponse = object<PublicInsertionOrder>({
  contractId: string,
  version: integer,
  status: string,
  latestVersion: integer,
  sentAt: string,
  sha256: string,
  contentSha256: string,
  figures: ioFigures,
  pdfUrl: string,
  signerName: nullableString,
  acceptedAt: nullableString,
  signedPdfUrl: nullableString,
  declinedAt: nullableString,
  declineReason: nullableString,
  payUrl: nullableString,
});

export const ioGoneResponse = object<IoGoneResponse>({
  message: string,
  code: string,
  latestVersion: integer,
  latestUrl: nullableString,
});

const ioEvent = object<IoEvent>({
  type: string,
  at: string,
  ip: nullableString,
  userAgent: nullableString,
  actorName: nullableString,
  detail: nullableString,
});

const ioVersion = object<InsertionOrderVersion>({
  id: string,
  version: integer,
  status: string,
  sentAt: string,
  sentByName: nullableString,
  customerEmail: string,
  viewedAt: nullableString,
  sha256: string,
  contentSha256: string,
  pdfUrl: string,
  acceptedAt: nullableString,
  signerName: nullableString,
  signerEmail: nullableString,
  signerIp: nullableString,
  signerUserAgent: nullableString,
  signedSha256: nullableString,
  signedPdfUrl: nullableString,
  declinedAt: nullableString,
  declineReason: nullableString,
  supersededAt: nullableString,
  events: arrayOf(ioEvent),
});

export const contractInsertionOrdersResponse = object<ContractInsertionOrders>({
  contractId: string,
  payable: boolean,
  versions: arrayOf(ioVersion),
});

export const ioVerifyResponse = object<IoVerifyResult>({
  sha256: string,
  match: nullable(object<NonNullable<IoVerifyResult['match']>>({ version: integer, kind: string })),
});

/** The staff short form on a contract's answer (no token). */
export const contractIoSummaryResponse: JsonSchema = nullable(
  object<ContractIoSummary>({
    version: integer,
    status: string,
    sentAt: string,
    signerName: nullableString,
    acceptedAt: nullableString,
  }),
);

/** The customer's short form on the pay link's and the portal's answers (the client is the customer). */
export const customerIoResponse: JsonSchema = nullable(
  object<{ token: string; version: number; status: string }>({ token: string, version: integer, status: string }),
);
