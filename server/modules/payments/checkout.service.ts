import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import {
  billingPeriod,
  type DraftInvoice,
  draftInvoice,
  taxRateBasisPoints,
  taxRatePercent,
  utcToday,
} from '@shared/billing';
import {
  type CardPayment,
  CHECKOUT_MESSAGES,
  type Checkout,
  type CheckoutPaid,
  type CheckoutStatus,
  type CheckoutUrlResponse,
  closedContractMessage,
  type FirstPayment,
  isWellFormedToken,
  type PayLink,
  type PayLinkInvoice,
  paymentSuccessPath,
} from '@shared/contracts/checkout';
import { shortContractId } from '@shared/contracts/contract-vocabulary';
import { centsToAmount, sumCents } from '@shared/money';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import type { SessionUser } from '../auth/sessions';
import { getSettings } from '../settings/settings.service';
import { type ChargeResult, chargeTestCard } from './builtin-provider';
import {
  type CheckoutSessionRow,
  expireSessionRow,
  type InvoiceRow,
  insertSession,
  type PayLinkContract,
  selectBillableContract,
  selectContractByPayToken,
  selectContractWithCustomer,
  selectFirstInvoice,
  selectInvoice,
  selectInvoicesByIds,
  selectOpenInvoices,
  selectReusableSession,
  selectSessionByProviderId,
  selectSessionByToken,
  setProviderSessionId,
} from './checkout.repo';
import { recordDeclinedAttempt, type SettleResult, settleCheckout } from './checkout.settle';
import { type PaymentProvider, WebhookSignatureError } from './provider';
import type { PaymentProviders } from './providers';

/** What checkout services need: the database, the outbox, the providers and the public origin. */
export type CheckoutDeps = {
  db: Db;
  mailer: Mailer;
  providers: PaymentProviders;
  /** The configured public origin: checkout, success and return links are built from it. */
  baseUrl: string;
  businessName: string;
};

/** How long a checkout stays payable (Stripe allows at most 24 hours). */
export const CHECKOUT_TTL_MS = 23 * 60 * 60 * 1000;
const OPEN_INVOICE_STATUSES = ['pending', 'failed'];
const CLOSED_CONTRACT_STATUSES = ['canceled', 'completed'];
const FIRST_PAYMENT_STATUSES = ['draft', 'sent'];

const invalidPayLink = () => new AppError('NOT_FOUND', CHECKOUT_MESSAGES.invalidPayLink);
const invalidCheckout = () => new AppError('NOT_FOUND', CHECKOUT_MESSAGES.invalidCheckout);

// ---------------------------------------------------------------------------------------------------------
// What is due
// ---------------------------------------------------------------------------------------------------------

type FirstPaymentDue = {
  draft: DraftInvoice;
  periodStart: string;
  periodEnd: string;
  taxLabel: string;
  taxRateBp: number;
  taxIncluded: boolean;
};

/** What a contract's customer can pay now: its open invoices, or its first invoice before billing starts. */
type Due =
  | { state: 'closed' | 'nothing_due'; message: string }
  | { state: 'due'; invoices: InvoiceRow[]; first: null; amountCents: number }
  | { state: 'due'; invoices: []; first: FirstPaymentDue; amountCents: number };

async function dueFor(db: Db, contract: PayLinkContract['contract']): Promise<Due> {
  if (CLOSED_CONTRACT_STATUSES.includes(contract.status)) {
    return { state: 'closed', message: closedContractMessage(contract.status) };
  }
  const open = await selectOpenInvoices(db, contract.id);
  if (open.length > 0) {
    return { state: 'due', invoices: open, first: null, amountCents: sumCents(open.map(amountDueCents)) };
  }
  if (FIRST_PAYMENT_STATUSES.includes(contract.status) && !(await hasInvoices(db, contract.id))) {
    const first = await firstPaymentFor(db, contract);
    if (first.draft.totalCents > 0) {
      return { state: 'due', invoices: [], first, amountCents: first.draft.totalCents };
    }
  }
  return { state: 'nothing_due', message: CHECKOUT_MESSAGES.nothingDue };
}

async function hasInvoices(db: Db, contractId: string): Promise<boolean> {
  return Boolean(await selectFirstInvoice(db, contractId));
}

/** The first invoice as the billing run will issue it: period 0's lines, the setup fee, tax from the settings. */
async function firstPaymentFor(db: Db, contract: PayLinkContract['contract']): Promise<FirstPaymentDue> {
  const [billable, tax] = await Promise.all([selectBillableContract(db, contract), getSettings(db, 'tax')]);
  const period = billingPeriod(contract.startDate, 0);
  const taxRateBp = taxRateBasisPoints(tax.defaultTaxRate);
  return {
    draft: draftInvoice(billable, period, { rateBp: taxRateBp, included: tax.taxIncluded }),
    periodStart: period.start,
    periodEnd: period.end,
    taxLabel: tax.taxLabel,
    taxRateBp,
    taxIncluded: tax.taxIncluded,
  };
}

const amountDueCents = (invoice: Pick<InvoiceRow, 'totalCents' | 'amountPaidCents'>) =>
  Math.max(0, invoice.totalCents - invoice.amountPaidCents);

function toPayLinkInvoice(invoice: InvoiceRow, today: string): PayLinkInvoice {
  return {
    id: invoice.id,
    number: invoice.number,
    periodStart: invoice.periodStart,
    periodEnd: invoice.periodEnd,
    dueDate: invoice.dueDate,
    status: invoice.status,
    total: centsToAmount(invoice.totalCents),
    amountPaid: centsToAmount(invoice.amountPaidCents),
    amountDue: centsToAmount(amountDueCents(invoice)),
    overdue: invoice.dueDate < today,
  };
}

function toFirstPayment(first: FirstPaymentDue): FirstPayment {
  return {
    periodStart: first.periodStart,
    periodEnd: first.periodEnd,
    lines: first.draft.lines.map((line) => ({
      description: line.description,
      quantity: line.quantity,
      unitPrice: centsToAmount(line.unitPriceCents),
      discount: centsToAmount(line.discountCents),
      amount: centsToAmount(line.amountCents),
      seasonal: line.seasonal,
    })),
    subtotal: centsToAmount(first.draft.subtotalCents),
    tax: centsToAmount(first.draft.taxCents),
    taxLabel: first.taxLabel,
    taxRate: taxRatePercent(first.taxRateBp),
    taxIncluded: first.taxIncluded,
    total: centsToAmount(first.draft.totalCents),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The pay-link page
// ---------------------------------------------------------------------------------------------------------

export async function getPayLink(deps: CheckoutDeps, token: string): Promise<PayLink> {
  const found = isWellFormedToken(token) ? await selectContractByPayToken(deps.db, token) : undefined;
  if (!found) throw invalidPayLink();
  const { contract, customer } = found;
  const due = await dueFor(deps.db, contract);
  const today = utcToday();
  return {
    business: { name: deps.businessName },
    customer: { name: customer.name, company: customer.company },
    contract: {
      id: contract.id,
      title: contract.title,
      description: contract.description,
      status: contract.status,
      startDate: contract.startDate,
    },
    state: due.state,
    message: due.state === 'due' ? null : due.message,
    invoices: due.state === 'due' ? due.invoices.map((invoice) => toPayLinkInvoice(invoice, today)) : [],
    firstPayment: due.state === 'due' && due.first ? toFirstPayment(due.first) : null,
    totalDue: due.state === 'due' ? centsToAmount(due.amountCents) : 0,
  };
}

/** Opens (or reopens) a checkout for everything due on the pay link's contract. */
export async function startPayLinkCheckout(deps: CheckoutDeps, token: string): Promise<CheckoutUrlResponse> {
  const found = isWellFormedToken(token) ? await selectContractByPayToken(deps.db, token) : undefined;
  if (!found) throw invalidPayLink();
  const due = await dueFor(deps.db, found.contract);
  if (due.state !== 'due') throw conflict(due.message);
  return openCheckout(deps, {
    found,
    source: 'pay_link',
    invoices: due.invoices,
    amountCents: due.amountCents,
    description: due.first ? firstPaymentDescription(found.contract) : invoicesDescription(due.invoices),
    cancelUrl: `${deps.baseUrl}/p/${token}`,
    actorId: null,
  });
}

/** The portal's Pay Now: a checkout for one of the client's own customer's open invoices. */
export async function startInvoiceCheckout(
  deps: CheckoutDeps,
  actor: SessionUser,
  invoiceId: string,
): Promise<CheckoutUrlResponse> {
  const invoice = await selectInvoice(deps.db, invoiceId);
  if (!invoice || !actor.customerId || invoice.customerId !== actor.customerId) throw notFound('Invoice');
  if (invoice.status === 'paid' || (OPEN_INVOICE_STATUSES.includes(invoice.status) && amountDueCents(invoice) === 0)) {
    throw conflict(CHECKOUT_MESSAGES.alreadyPaid);
  }
  if (!OPEN_INVOICE_STATUSES.includes(invoice.status)) throw conflict('This invoice is void and cannot be paid.');
  const found = await selectContractWithCustomer(deps.db, invoice.contractId);
  if (!found) throw notFound('Invoice');
  return openCheckout(deps, {
    found,
    source: 'portal',
    invoices: [invoice],
    amountCents: amountDueCents(invoice),
    description: invoicesDescription([invoice]),
    cancelUrl: `${deps.baseUrl}/portal`,
    actorId: actor.id,
  });
}

function invoicesDescription(invoices: Pick<InvoiceRow, 'number'>[]): string {
  const numbers = invoices.map((invoice) => invoice.number);
  const text = numbers.length === 1 ? `Invoice ${numbers[0]}` : `Invoices ${numbers.join(', ')}`;
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

function firstPaymentDescription(contract: PayLinkContract['contract']): string {
  const name = contract.title || contract.description || `Contract ${shortContractId(contract.id)}`;
  const text = `First invoice: ${name}`;
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

async function openCheckout(
  deps: CheckoutDeps,
  input: {
    found: PayLinkContract;
    source: 'pay_link' | 'portal';
    invoices: InvoiceRow[];
    amountCents: number;
    description: string;
    cancelUrl: string;
    actorId: string | null;
  },
): Promise<CheckoutUrlResponse> {
  const provider = deps.providers.active;
  const invoiceIds = input.invoices.map((invoice) => invoice.id).sort();
  const contractId = input.found.contract.id;

  const reusable = await selectReusableSession(deps.db, {
    contractId,
    source: input.source,
    provider: provider.name,
    invoiceIds,
    amountCents: input.amountCents,
  });
  if (reusable) {
    const url = await checkoutUrlOf(provider, reusable, deps.baseUrl);
    if (url) return { checkoutUrl: url };
  }

  const session = await deps.db.transaction(async (tx) => {
    const row = await insertSession(tx, {
      token: randomBytes(24).toString('base64url'),
      contractId,
      invoiceIds,
      amountCents: input.amountCents,
      provider: provider.name,
      source: input.source,
      expiresAt: new Date(Date.now() + CHECKOUT_TTL_MS),
    });
    await recordAudit(tx, {
      actorId: input.actorId,
      action: 'checkout.opened',
      entity: 'contract',
      entityId: contractId,
      after: {
        checkoutSessionId: row.id,
        source: row.source,
        provider: row.provider,
        invoiceIds,
        amountCents: row.amountCents,
      },
    });
    return row;
  });

  // The provider call happens outside the transaction: a slow or failing provider holds no locks.
  const created = await provider.createCheckout({
    sessionId: session.id,
    token: session.token,
    contractId,
    amountCents: session.amountCents,
    description: input.description,
    customerEmail: input.found.customer.email,
    successUrl: `${deps.baseUrl}${paymentSuccessPath(contractId)}`,
    cancelUrl: input.cancelUrl,
    expiresAt: session.expiresAt,
  });
  await setProviderSessionId(deps.db, session.id, created.providerSessionId);
  return { checkoutUrl: created.checkoutUrl };
}

/** The URL of an existing checkout: ours is built from the token; Stripe's is asked of Stripe. */
async function checkoutUrlOf(
  provider: PaymentProvider,
  session: CheckoutSessionRow,
  baseUrl: string,
): Promise<string | null> {
  if (provider.name === 'builtin') return `${baseUrl}/checkout/${session.token}`;
  return provider.openCheckoutUrl(session.providerSessionId!);
}

// ---------------------------------------------------------------------------------------------------------
// The built-in hosted checkout
// ---------------------------------------------------------------------------------------------------------

export async function getCheckout(deps: CheckoutDeps, token: string): Promise<Checkout> {
  const session = isWellFormedToken(token) ? await selectSessionByToken(deps.db, token) : undefined;
  if (session?.provider !== 'builtin') throw invalidCheckout();
  const found = await selectContractWithCustomer(deps.db, session.contractId);
  if (!found) throw invalidCheckout();
  const status = statusOf(session);
  const description =
    session.invoiceIds.length > 0
      ? invoicesDescription(await selectInvoicesByIds(deps.db, session.invoiceIds))
      : firstPaymentDescription(found.contract);
  return {
    business: { name: deps.businessName },
    customer: { name: found.customer.name, email: found.customer.email },
    description,
    amount: centsToAmount(session.amountCents),
    status,
    returnUrl: returnPath(session, found),
    redirectUrl: status === 'completed' ? paymentSuccessPath(session.contractId) : null,
    expiresAt: session.expiresAt.toISOString(),
  };
}

function statusOf(session: CheckoutSessionRow): CheckoutStatus {
  if (session.status === 'open' && session.expiresAt.getTime() <= Date.now()) return 'expired';
  return session.status as CheckoutStatus;
}

function returnPath(session: CheckoutSessionRow, found: PayLinkContract): string {
  if (session.source === 'pay_link' && found.contract.payLinkToken) return `/p/${found.contract.payLinkToken}`;
  return '/portal';
}

/**
 * Pays a built-in checkout with a card. A declined card records the failed attempt and answers 400 with
 * the decline message; a good card completes the session (one conditional update: a replay, or five
 * submissions at once, pay once) and applies the payment; a completed session answers its success page.
 */
export async function payCheckout(deps: CheckoutDeps, token: string, card: CardPayment): Promise<CheckoutPaid> {
  const session = isWellFormedToken(token) ? await selectSessionByToken(deps.db, token) : undefined;
  if (session?.provider !== 'builtin') throw invalidCheckout();
  const status = statusOf(session);
  if (status === 'completed') return { redirectUrl: paymentSuccessPath(session.contractId) };
  if (status === 'expired') throw conflict(CHECKOUT_MESSAGES.checkoutExpired);

  const charge = chargeTestCard(card);
  if (charge.outcome === 'declined') {
    await deps.db.transaction((tx) => recordDeclinedAttempt(tx, deps, session, charge));
    deps.mailer.kick(deps.db);
    throw badRequest(charge.message);
  }
  return settleBuiltin(deps, session, charge);
}

async function settleBuiltin(
  deps: CheckoutDeps,
  session: CheckoutSessionRow,
  charge: Extract<ChargeResult, { outcome: 'succeeded' }>,
): Promise<CheckoutPaid> {
  const result: SettleResult = await deps.db.transaction((tx) =>
    settleCheckout(tx, deps, session, {
      provider: 'builtin',
      providerPaymentId: charge.providerPaymentId,
      amountCents: session.amountCents,
      cardBrand: charge.cardBrand,
      cardLast4: charge.cardLast4,
      strict: true,
    }),
  );
  deps.mailer.kick(deps.db);
  if (result.outcome === 'not_open') {
    const now = await selectSessionByToken(deps.db, session.token);
    if (now?.status === 'completed') return { redirectUrl: paymentSuccessPath(session.contractId) };
    throw conflict(CHECKOUT_MESSAGES.checkoutExpired);
  }
  return { redirectUrl: paymentSuccessPath(session.contractId) };
}

// ---------------------------------------------------------------------------------------------------------
// Provider webhooks
// ---------------------------------------------------------------------------------------------------------

/** A Stripe webhook: verified on its raw body, then acted on once however often it is delivered. */
export async function handleStripeWebhook(
  deps: CheckoutDeps,
  rawBody: Buffer,
  headers: IncomingHttpHeaders,
): Promise<{ received: true }> {
  const provider = deps.providers.stripe;
  if (!provider) throw new AppError('NOT_FOUND', 'Stripe payments are not configured');
  let event: ReturnType<PaymentProvider['parseWebhook']>;
  try {
    event = provider.parseWebhook(rawBody, headers);
  } catch (error) {
    if (error instanceof WebhookSignatureError) throw badRequest(error.message);
    throw error;
  }
  if (event.type === 'ignored') return { received: true };

  const session =
    (event.checkoutToken ? await selectSessionByToken(deps.db, event.checkoutToken) : undefined) ??
    (await selectSessionByProviderId(deps.db, 'stripe', event.providerSessionId));
  // A session of another system on the same Stripe account: acknowledged, not ours to act on.
  if (session?.provider !== 'stripe') return { received: true };

  if (event.type === 'checkout.expired') {
    await expireSessionRow(deps.db, session.id);
    return { received: true };
  }
  if (event.type === 'checkout.failed') {
    await deps.db.transaction((tx) =>
      recordDeclinedAttempt(tx, deps, session, {
        outcome: 'declined',
        providerPaymentId: event.providerPaymentId ?? `${event.providerSessionId}:${event.eventId}`,
        cardBrand: 'unknown',
        cardLast4: '',
        message: event.message,
      }),
    );
    deps.mailer.kick(deps.db);
    return { received: true };
  }

  const result = await deps.db.transaction((tx) =>
    settleCheckout(tx, deps, session, {
      provider: 'stripe',
      providerPaymentId: event.providerPaymentId,
      amountCents: event.amountCents,
      cardBrand: event.cardBrand,
      cardLast4: event.cardLast4,
      strict: false,
    }),
  );
  deps.mailer.kick(deps.db);
  if (result.outcome === 'settled') {
    for (const other of result.closedSessions) {
      if (other.provider === 'stripe' && other.providerSessionId) {
        await provider.expireCheckout(other.providerSessionId).catch(() => undefined);
      }
    }
  }
  return { received: true };
}
