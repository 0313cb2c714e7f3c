import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { autopayConsentText } from '@shared/contracts/autopay';
import {
  type CardPayment,
  CHECKOUT_MESSAGES,
  type Checkout,
  type CheckoutPaid,
  type CheckoutReceipt,
  type CheckoutStatus,
  type CheckoutUrlResponse,
  closedContractMessage,
  type FirstPayment,
  isWellFormedToken,
  type PayLink,
  type PayLinkInvoice,
  paymentSuccessPath,
  portalContractPath,
} from '@shared/contracts/checkout';
import { shortContractId } from '@shared/contracts/contract-vocabulary';
import { amountDueCents, isPayable } from '@shared/invoice-amounts';
import { centsToAmount, sumCents } from '@shared/money';
import { basisPointsToPercent } from '@shared/rates';
import type Stripe from 'stripe';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { businessToday } from '../../lib/business-day';
import { checkoutLink, payLink, portalLink } from '../../lib/capability-links';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import type { Letterhead } from '../../lib/pdf';
import { type FirstInvoiceQuote, quoteFirstInvoice } from '../billing/billing.service';
import { lockContractForMoney, lockContractsOfInvoices } from '../contract-status/contract-status.service';
import { dunningAfterPayment } from '../dunning/dunning.service';
import { assertInsertionOrderAccepted, customerInsertionOrders } from '../insertion-orders/insertion-orders.service';
import { renewExpiredHold } from '../inventory/inventory.service';
import { checkoutReceiptRecord, type ReceiptFile, receiptPdf, toReceipt } from '../invoices/receipts.service';
import type { SessionUser } from '../sessions/sessions';
import { type ChargeResult, chargeTestCard } from './builtin-provider';
import {
  type CheckoutSessionRow,
  type CheckoutSubject,
  expireOpenSessionsOverlapping,
  expireSessionRow,
  type InvoiceRow,
  insertSession,
  type PayLinkContract,
  selectContractByPayToken,
  selectContractWithCustomer,
  selectFirstInvoice,
  selectInvoice,
  selectInvoicesByIds,
  selectInvoicesOldestFirst,
  selectOpenInvoices,
  selectPayableInvoicesOfPayer,
  selectPayer,
  selectReusableSession,
  selectSessionByProviderId,
  selectSessionByToken,
  setProviderSessionId,
} from './checkout.repo';
import { recordDeclinedAttempt, type SettleResult, settleCheckout } from './checkout.settle';
import { type CheckoutSaveOffer, type PaymentProvider, WebhookSignatureError } from './provider';
import { type PaymentProviders, stripeConfigured } from './providers';
import { createStripeClient } from './stripe-provider';

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
const CLOSED_CONTRACT_STATUSES = ['canceled', 'completed'];
const FIRST_PAYMENT_STATUSES = ['draft', 'sent'];

const invalidPayLink = () => new AppError('NOT_FOUND', CHECKOUT_MESSAGES.invalidPayLink);
const invalidCheckout = () => new AppError('NOT_FOUND', CHECKOUT_MESSAGES.invalidCheckout);

// ---------------------------------------------------------------------------------------------------------
// What is due
// ---------------------------------------------------------------------------------------------------------

/** What a contract's customer can pay now: its open invoices, or its first invoice before billing starts. */
type Due =
  | { state: 'closed' | 'nothing_due'; message: string }
  | { state: 'due'; invoices: InvoiceRow[]; first: null; amountCents: number }
  | { state: 'due'; invoices: []; first: FirstInvoiceQuote; amountCents: number };

async function dueFor(db: Db, contract: PayLinkContract['contract']): Promise<Due> {
  if (CLOSED_CONTRACT_STATUSES.includes(contract.status)) {
    return { state: 'closed', message: closedContractMessage(contract.status) };
  }
  const open = await selectOpenInvoices(db, contract.id);
  if (open.length > 0) {
    return { state: 'due', invoices: open, first: null, amountCents: sumCents(open.map(amountDueCents)) };
  }
  if (FIRST_PAYMENT_STATUSES.includes(contract.status) && !(await hasInvoices(db, contract.id))) {
    const first = await quoteFirstInvoice(db, contract);
    if (first.draft.totalCents > 0) {
      return { state: 'due', invoices: [], first, amountCents: first.draft.totalCents };
    }
  }
  return { state: 'nothing_due', message: CHECKOUT_MESSAGES.nothingDue };
}

async function hasInvoices(db: Db, contractId: string): Promise<boolean> {
  return Boolean(await selectFirstInvoice(db, contractId));
}

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

function toFirstPayment(first: FirstInvoiceQuote): FirstPayment {
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
    taxLabel: first.tax.label,
    taxRate: basisPointsToPercent(first.tax.rateBp),
    taxIncluded: first.tax.included,
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
  const [due, ios] = await Promise.all([dueFor(deps.db, contract), customerInsertionOrders(deps.db, [contract.id])]);
  const today = businessToday();
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
    insertionOrder: ios.get(contract.id) ?? null,
  };
}

/** Opens (or reopens) a checkout for everything due on the pay link's contract. */
export async function startPayLinkCheckout(deps: CheckoutDeps, token: string): Promise<CheckoutUrlResponse> {
  const found = isWellFormedToken(token) ? await selectContractByPayToken(deps.db, token) : undefined;
  if (!found) throw invalidPayLink();
  return openCheckout(deps, {
    target: { kind: 'contract', found },
    source: 'pay_link',
    cancelUrl: payLink(deps.baseUrl, token),
    actorId: null,
    async charge(tx) {
      const due = await dueFor(tx, found.contract);
      if (due.state !== 'due') throw conflict(due.message);
      return {
        invoices: due.invoices,
        amountCents: due.amountCents,
        description: due.first ? firstPaymentDescription(found.contract) : invoicesDescription(due.invoices),
      };
    },
  });
}

/**
 * The portal's Pay Now: a checkout for one of the open invoices billed to the client's customer (an agency's:
 * any of its advertisers'); any other invoice answers 404.
 */
export async function startInvoiceCheckout(
  deps: CheckoutDeps,
  actor: SessionUser,
  invoiceId: string,
): Promise<CheckoutUrlResponse> {
  const listed = await selectInvoice(deps.db, invoiceId);
  if (!listed || !actor.customerId || listed.billToCustomerId !== actor.customerId) throw notFound('Invoice');
  const found = await selectContractWithCustomer(deps.db, listed.contractId);
  if (!found) throw notFound('Invoice');
  return openCheckout(deps, {
    target: { kind: 'contract', found },
    source: 'portal',
    cancelUrl: portalLink(deps.baseUrl),
    actorId: actor.id,
    async charge(tx) {
      // Read again under the contract's lock: a payment that landed meanwhile is seen.
      const invoice = (await selectInvoice(tx, invoiceId))!;
      if (invoice.status === 'paid' || (isPayable(invoice.status) && amountDueCents(invoice) === 0)) {
        throw conflict(CHECKOUT_MESSAGES.alreadyPaid);
      }
      if (!isPayable(invoice.status)) throw conflict('This invoice is void and cannot be paid.');
      return { invoices: [invoice], amountCents: amountDueCents(invoice), description: invoicesDescription([invoice]) };
    },
  });
}

/**
 * The portal's "Pay all due" (product.md section 20): one checkout for every invoice billed to the client's customer
 * (an agency's: all its advertisers') that has something due, oldest first (due date, then number), for their total
 * due as the server works it out under their contracts' locks. Nothing due answers 409. The same checkout as Pay
 * Now (the built-in page, or Stripe Checkout when configured); its settlement applies the payment oldest first
 * (checkout.settle.ts settlePayAll).
 */
export async function startPayAllCheckout(deps: CheckoutDeps, actor: SessionUser): Promise<CheckoutUrlResponse> {
  const payer = actor.customerId ? await selectPayer(deps.db, actor.customerId) : undefined;
  if (!payer) throw conflict(CHECKOUT_MESSAGES.nothingDueToPayAll);
  return openCheckout(deps, {
    target: { kind: 'payer', payer },
    source: 'portal',
    cancelUrl: portalLink(deps.baseUrl),
    actorId: actor.id,
    async charge(tx) {
      const listed = await selectPayableInvoicesOfPayer(tx, payer.id);
      if (listed.length === 0) throw conflict(CHECKOUT_MESSAGES.nothingDueToPayAll);
      // The first lock of every money path, for each of their contracts (one statement, in id order); then what
      // is due is read again under them, so a payment that landed meanwhile is seen.
      await lockContractsOfInvoices(
        tx,
        listed.map((invoice) => invoice.id),
      );
      const invoices = await selectPayableInvoicesOfPayer(tx, payer.id);
      if (invoices.length === 0) throw conflict(CHECKOUT_MESSAGES.nothingDueToPayAll);
      return {
        invoices,
        amountCents: sumCents(invoices.map(amountDueCents)),
        description: invoicesDescription(invoices),
      };
    },
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

/** What a checkout charges: the invoices (none for a first payment) and the amount, worked out under the lock. */
type Charge = { invoices: InvoiceRow[]; amountCents: number; description: string };

/** Whom a checkout is opened for: one contract (Pay Now, a pay link), or a payer's every invoice due ("Pay all due"). */
type CheckoutTarget =
  | { kind: 'contract'; found: PayLinkContract }
  | { kind: 'payer'; payer: PayLinkContract['customer'] };

/**
 * One open checkout per invoice (and one per contract for a first payment, one per payer for "Pay all due"),
 * whoever opens it and however many times at once. Under the contract's lock (the first lock of every money
 * path; a "Pay all due" takes its contracts' locks in its charge): what is due is worked out, an open checkout
 * of this source charging exactly that is reused, and otherwise the open checkouts it overlaps are closed and a
 * new one is made. The provider is called after the transaction, so a slow or failing provider holds no locks;
 * a concurrent opener of the same checkout waits for it.
 */
async function openCheckout(
  deps: CheckoutDeps,
  input: {
    target: CheckoutTarget;
    source: 'pay_link' | 'portal';
    cancelUrl: string;
    actorId: string | null;
    charge: (tx: Db) => Promise<Charge>;
  },
): Promise<CheckoutUrlResponse> {
  const provider = deps.providers.active;
  const { target } = input;
  const contractId = target.kind === 'contract' ? target.found.contract.id : null;
  const customer = target.kind === 'contract' ? target.found.customer : target.payer;
  const subject: CheckoutSubject = contractId ? { contractId } : { payerId: customer.id };

  const opened = await deps.db.transaction(async (tx) => {
    if (contractId) {
      if (!(await lockContractForMoney(tx, contractId))) throw invalidPayLink();
      // A sent contract pays once its newest insertion order version is accepted (none sent: as before).
      await assertInsertionOrderAccepted(tx, contractId);
      // A sent contract whose inventory hold ran out takes its units again before it can be paid (409 if gone).
      await renewExpiredHold(tx, contractId);
    }
    const charge = await input.charge(tx);
    const invoiceIds = charge.invoices.map((invoice) => invoice.id).sort();
    const match = {
      ...subject,
      source: input.source,
      provider: provider.name,
      invoiceIds,
      amountCents: charge.amountCents,
    };
    const reusable = await selectReusableSession(tx, match);
    if (reusable) return { session: reusable, created: false as const, charge, closed: [] };
    const closed = await expireOpenSessionsOverlapping(tx, { ...subject, invoiceIds });
    const session = await insertSession(tx, {
      token: randomBytes(24).toString('base64url'),
      contractId,
      payerId: contractId ? null : customer.id,
      invoiceIds,
      amountCents: charge.amountCents,
      provider: provider.name,
      source: input.source,
      expiresAt: new Date(Date.now() + CHECKOUT_TTL_MS),
    });
    await recordAudit(tx, {
      actorId: input.actorId,
      action: 'checkout.opened',
      entity: contractId ? 'contract' : 'customer',
      entityId: contractId ?? customer.id,
      after: {
        checkoutSessionId: session.id,
        source: session.source,
        provider: session.provider,
        invoiceIds,
        amountCents: session.amountCents,
      },
    });
    return { session, created: true as const, charge, closed };
  });
  await closeAtProvider(deps, opened.closed);

  if (!opened.created) return { checkoutUrl: await reusedCheckoutUrl(deps, provider, opened.session) };
  const saveOffer =
    provider.name === 'stripe' ? await saveOfferFor(deps, { customerId: customer.id, contractId }) : null;
  let created: Awaited<ReturnType<PaymentProvider['createCheckout']>>;
  try {
    created = await provider.createCheckout({
      sessionId: opened.session.id,
      token: opened.session.token,
      contractId,
      amountCents: opened.session.amountCents,
      description: opened.charge.description,
      customerEmail: customer.email,
      successUrl: `${deps.baseUrl}${paymentSuccessPath(contractId, opened.session.token)}`,
      cancelUrl: input.cancelUrl,
      expiresAt: opened.session.expiresAt,
      ...(saveOffer ? { saveOffer } : {}),
    });
  } catch (error) {
    // Nothing to pay at the provider: the next opener makes a new checkout instead of waiting for this one.
    await expireSessionRow(deps.db, opened.session.id);
    throw error;
  }
  await setProviderSessionId(deps.db, opened.session.id, created.providerSessionId);
  return { checkoutUrl: created.checkoutUrl };
}

export type { CheckoutSaveOffer };

/**
 * Who offers to keep a Stripe checkout's card on file (Stripe's own "Save payment details" box, product.md section
 * 18): modules/autopay registers it (payments sits below it), answering the customer's Stripe customer and the
 * consent text, or null for no offer. Registering again replaces it; null removes it.
 */
type CheckoutSaveOfferer = (
  deps: CheckoutDeps,
  checkout: { customerId: string; contractId: string | null },
) => Promise<CheckoutSaveOffer | null>;
let checkoutSaveOfferer: CheckoutSaveOfferer | null = null;

export function registerCheckoutSaveOffer(offerer: CheckoutSaveOfferer | null): void {
  checkoutSaveOfferer = offerer;
}

/** The save offer of a new Stripe checkout; any failure (Stripe unreachable, say) opens it without one. */
async function saveOfferFor(
  deps: CheckoutDeps,
  checkout: { customerId: string; contractId: string | null },
): Promise<CheckoutSaveOffer | null> {
  if (!checkoutSaveOfferer) return null;
  try {
    return await checkoutSaveOfferer(deps, checkout);
  } catch (error) {
    // What failed, by kind only (a Stripe error's type, say StripeAPIError): never its message or request.
    const kind =
      error instanceof Error ? ('type' in error && typeof error.type === 'string' ? error.type : error.name) : 'error';
    process.emitWarning(
      `A Stripe checkout ${checkout.contractId ? `of contract ${checkout.contractId}` : `of customer ${checkout.customerId}`} opens without the offer to save its card: ${kind}`,
    );
    return null;
  }
}

/** How long a second opener waits for the provider's checkout of a session made a moment ago. */
const PROVIDER_WAIT_MS = 15_000;

/**
 * The URL of a reused checkout. Ours is built from its token. Stripe's is asked of Stripe, once the opener
 * that made the session has recorded Stripe's id for it (a few hundred milliseconds after it was made).
 */
async function reusedCheckoutUrl(
  deps: CheckoutDeps,
  provider: PaymentProvider,
  session: CheckoutSessionRow,
): Promise<string> {
  if (provider.name === 'builtin') return checkoutLink(deps.baseUrl, session.token);
  const deadline = Date.now() + PROVIDER_WAIT_MS;
  let current: CheckoutSessionRow | undefined = session;
  while (current?.status === 'open' && !current.providerSessionId && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    current = await selectSessionByToken(deps.db, session.token);
  }
  const url =
    current?.status === 'open' && current.providerSessionId
      ? await provider.openCheckoutUrl(current.providerSessionId)
      : null;
  if (!url) throw conflict(CHECKOUT_MESSAGES.checkoutOpening);
  return url;
}

/** Checkouts closed in favour of a new one are closed at Stripe too (best effort: they cannot be paid here). */
async function closeAtProvider(
  deps: CheckoutDeps,
  closed: readonly { provider: string; providerSessionId: string | null }[],
): Promise<void> {
  const stripe = deps.providers.stripe;
  if (!stripe) return;
  for (const other of closed) {
    if (other.provider === 'stripe' && other.providerSessionId) {
      await stripe.expireCheckout(other.providerSessionId).catch(() => undefined);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// The built-in hosted checkout
// ---------------------------------------------------------------------------------------------------------

/** Who a checkout is for: its contract and that contract's bill-to, or a "Pay all due"'s payer (no contract). */
type CheckoutParty = { contract: PayLinkContract['contract'] | null; customer: PayLinkContract['customer'] };

async function partyOf(db: Db, session: CheckoutSessionRow): Promise<CheckoutParty | undefined> {
  if (session.contractId) return selectContractWithCustomer(db, session.contractId);
  const payer = session.payerId ? await selectPayer(db, session.payerId) : undefined;
  return payer ? { contract: null, customer: payer } : undefined;
}

export async function getCheckout(deps: CheckoutDeps, token: string): Promise<Checkout> {
  const session = isWellFormedToken(token) ? await selectSessionByToken(deps.db, token) : undefined;
  if (session?.provider !== 'builtin') throw invalidCheckout();
  const found = await partyOf(deps.db, session);
  if (!found) throw invalidCheckout();
  const status = statusOf(session);
  const description = found.contract
    ? session.invoiceIds.length > 0
      ? invoicesDescription(await selectInvoicesByIds(deps.db, session.invoiceIds))
      : firstPaymentDescription(found.contract)
    : invoicesDescription(await selectInvoicesOldestFirst(deps.db, session.invoiceIds));
  return {
    business: { name: deps.businessName },
    customer: { name: found.customer.name, email: found.customer.email },
    description,
    amount: centsToAmount(session.amountCents),
    status,
    returnUrl: returnPath(session, found),
    redirectUrl: status === 'completed' ? paymentSuccessPath(session.contractId, session.token) : null,
    expiresAt: session.expiresAt.toISOString(),
    autopayConsent: autopayConsentText(deps.businessName),
  };
}

function statusOf(session: CheckoutSessionRow): CheckoutStatus {
  if (session.status === 'open' && session.expiresAt.getTime() <= Date.now()) return 'expired';
  return session.status as CheckoutStatus;
}

function returnPath(session: CheckoutSessionRow, found: CheckoutParty): string {
  if (session.source === 'pay_link' && found.contract?.payLinkToken) return `/p/${found.contract.payLinkToken}`;
  return '/portal';
}

/** A card the payer asked to keep on file, with who agreed and from where (product.md section 18). */
export type CheckoutCardToSave = {
  customerId: string;
  card: CardPayment;
  consent: { userId: string | null; name: string; email: string | null; ip: string | null; userAgent: string | null };
};
type CheckoutCardSaver = (deps: CheckoutDeps, saved: CheckoutCardToSave) => Promise<void>;
let checkoutCardSaver: CheckoutCardSaver | null = null;

/**
 * Who keeps a paying card on file when its box is ticked: modules/autopay registers it (payments sits below it).
 * Without one the box is ignored. Registering again replaces it.
 */
export function registerCheckoutCardSaver(saver: CheckoutCardSaver): void {
  checkoutCardSaver = saver;
}

/**
 * Pays a built-in checkout with a card. A declined card records the failed attempt and answers 400 with
 * the decline message; a good card completes the session (one conditional update: a replay, or five
 * submissions at once, pay once) and applies the payment; a completed session answers its success page.
 */
export async function payCheckout(
  deps: CheckoutDeps,
  token: string,
  card: CardPayment,
  payer: { ip: string | null; userAgent: string | null } = { ip: null, userAgent: null },
): Promise<CheckoutPaid> {
  const session = isWellFormedToken(token) ? await selectSessionByToken(deps.db, token) : undefined;
  if (session?.provider !== 'builtin') throw invalidCheckout();
  const status = statusOf(session);
  if (status === 'completed') return { redirectUrl: paymentSuccessPath(session.contractId, session.token) };
  if (status === 'expired') throw conflict(CHECKOUT_MESSAGES.checkoutExpired);
  // The contract may have changed since the checkout opened: its insertion order must still be accepted.
  if (session.contractId) await assertInsertionOrderAccepted(deps.db, session.contractId);

  const charge = chargeTestCard(card);
  if (charge.outcome === 'declined') {
    await deps.db.transaction((tx) => recordDeclinedAttempt(tx, deps, session, charge));
    deps.mailer.kick(deps.db);
    throw badRequest(charge.message);
  }
  const paid = await settleBuiltin(deps, session, charge);
  // "Save this card and pay future invoices ... automatically": saved with the payer's consent once paid.
  if (card.saveCard && checkoutCardSaver) {
    const found = await partyOf(deps.db, session);
    if (found) {
      await checkoutCardSaver(deps, {
        customerId: found.customer.id,
        card,
        consent: {
          userId: null,
          name: card.name,
          email: found.customer.email,
          ip: payer.ip,
          userAgent: payer.userAgent,
        },
      });
    }
  }
  return paid;
}

async function settleBuiltin(
  deps: CheckoutDeps,
  session: CheckoutSessionRow,
  charge: Extract<ChargeResult, { outcome: 'succeeded' }>,
): Promise<CheckoutPaid> {
  const result: SettleResult = await deps.db.transaction(async (tx) => {
    // Under the contract's lock, again: an edit that superseded the version meanwhile stops the payment (a "Pay
    // all due" pays issued invoices only: settleCheckout takes their contracts' locks).
    if (session.contractId) {
      await lockContractForMoney(tx, session.contractId);
      await assertInsertionOrderAccepted(tx, session.contractId);
    }
    return settleCheckout(tx, deps, session, {
      provider: 'builtin',
      providerPaymentId: charge.providerPaymentId,
      amountCents: session.amountCents,
      cardBrand: charge.cardBrand,
      cardLast4: charge.cardLast4,
      strict: true,
    });
  });
  deps.mailer.kick(deps.db);
  if (result.outcome === 'settled') await dunningAfter(deps, result.contractIds);
  if (result.outcome === 'not_open') {
    const now = await selectSessionByToken(deps.db, session.token);
    if (now?.status === 'completed') return { redirectUrl: paymentSuccessPath(session.contractId, session.token) };
    throw conflict(CHECKOUT_MESSAGES.checkoutExpired);
  }
  return { redirectUrl: paymentSuccessPath(session.contractId, session.token) };
}

/** Dunning after a payment, for each contract it paid invoices of (a paused contract may resume). */
async function dunningAfter(deps: CheckoutDeps, contractIds: readonly string[]): Promise<void> {
  for (const contractId of contractIds) await dunningAfterPayment(deps, { contractId });
}

// ---------------------------------------------------------------------------------------------------------
// The receipt of a checkout: the payment success page, through the checkout's own token
// ---------------------------------------------------------------------------------------------------------

/**
 * What a checkout paid, for whoever holds its token (the payer: it is in their checkout's address and in the
 * success page's): paid with the receipt once the payment is recorded; pending while the checkout is open (a
 * Stripe payment whose webhook has not arrived yet). An unknown token, or a checkout that closed unpaid,
 * answers 404. Only the payments this checkout took are read, so no other invoice or customer is ever named.
 */
export async function getCheckoutReceipt(deps: CheckoutDeps, token: string): Promise<CheckoutReceipt> {
  const { session, found } = await receiptSession(deps, token);
  const ways = {
    business: { name: deps.businessName },
    contractId: session.contractId,
    payPageUrl:
      session.source === 'pay_link' && found.contract?.payLinkToken ? `/p/${found.contract.payLinkToken}` : null,
    contractPageUrl:
      session.source === 'portal' ? (session.contractId ? portalContractPath(session.contractId) : '/portal') : null,
  };
  if (session.status !== 'completed') return { ...ways, state: 'pending', receipt: null, pdfUrl: null };
  const record = await checkoutReceiptRecord(deps.db, session.id);
  return {
    ...ways,
    state: 'paid',
    receipt: record ? toReceipt(record) : null,
    pdfUrl: record ? `/api/checkout/${session.token}/receipt/pdf` : null,
  };
}

/** The checkout's receipt as a PDF; 404 until the payment is recorded. */
export async function checkoutReceiptPdf(
  deps: CheckoutDeps,
  token: string,
  letterhead: () => Promise<Letterhead>,
): Promise<ReceiptFile> {
  const { session } = await receiptSession(deps, token);
  const record = session.status === 'completed' ? await checkoutReceiptRecord(deps.db, session.id) : null;
  if (!record) throw notFound('Receipt');
  return receiptPdf(record, await letterhead());
}

/** The checkout a receipt token names: completed, or still open (paid at the provider, not confirmed yet). */
async function receiptSession(deps: CheckoutDeps, token: string) {
  const session = isWellFormedToken(token) ? await selectSessionByToken(deps.db, token) : undefined;
  if (!session || (session.status !== 'completed' && statusOf(session) !== 'open')) throw invalidCheckout();
  const found = await partyOf(deps.db, session);
  if (!found) throw invalidCheckout();
  return { session, found };
}

// ---------------------------------------------------------------------------------------------------------
// Provider webhooks
// ---------------------------------------------------------------------------------------------------------

/**
 * Who acts on the verified Stripe events payments does not handle itself (a method saved in setup mode, an
 * off-session PaymentIntent's result, the card updater), and on a checkout's completion once payments settled
 * its payment (a card the customer ticked to save): modules/autopay registers it (payments sits below it).
 * An error it throws answers 500, so that Stripe delivers the event again. Registering again replaces it.
 */
type StripeEventHandler = (deps: CheckoutDeps, event: Stripe.Event) => Promise<void>;
let stripeEventHandler: StripeEventHandler | null = null;

export function registerStripeEventHandler(handler: StripeEventHandler | null): void {
  stripeEventHandler = handler;
}

/**
 * The Stripe SDK's client of this configuration (pointed at STRIPE_API_BASE when set), for what a module above
 * payments asks of Stripe itself (autopay's saved methods and off-session charges); null without Stripe.
 */
export function stripeClientFor(
  config: Pick<Config, 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'STRIPE_API_BASE'>,
): Stripe | null {
  if (!stripeConfigured(config)) return null;
  return createStripeClient({
    secretKey: config.STRIPE_SECRET_KEY!,
    webhookSecret: config.STRIPE_WEBHOOK_SECRET!,
    apiBase: config.STRIPE_API_BASE,
  });
}

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
  if (event.type === 'ignored') {
    if (stripeEventHandler && event.event) await stripeEventHandler(deps, event.event as Stripe.Event);
    return { received: true };
  }

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
    await dunningAfter(deps, result.contractIds);
    for (const other of result.closedSessions) {
      if (other.provider === 'stripe' && other.providerSessionId) {
        await provider.expireCheckout(other.providerSessionId).catch(() => undefined);
      }
    }
  }
  // Then, settled or settled before (a replay, or a delivery after the handler failed), the completion goes on to
  // the handler above payments: it saves the card if the customer ticked Stripe's box, once.
  if (stripeEventHandler && event.event) await stripeEventHandler(deps, event.event as Stripe.Event);
  return { received: true };
}
