import {
  AUTOPAY_MESSAGES,
  autopayConsentText,
  methodLabel,
  type PaymentMethodChange,
  type PaymentMethods,
  type PaymentMethodView,
  type PaymentSetupDone,
  type PaymentSetupLinkSent,
  type PaymentSetupPage,
  type PaymentSetupStart,
  type SetupCard,
} from '@shared/contracts/autopay';
import { type CardPayment, isWellFormedToken } from '@shared/contracts/checkout';
import type { Db } from '../../db/client';
import { recordAudit } from '../../lib/audit';
import { businessToday } from '../../lib/business-day';
import { readCompanyProfile } from '../../lib/company-profile';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors';
import { enqueueEmail } from '../../lib/mailer';
import type { SessionUser } from '../sessions/sessions';
import { getSettings } from '../settings/settings.service';
import { emitWebhookEvent } from '../webhooks/webhook-events';
import { setupLinkEmail } from './autopay.emails';
import {
  insertMethod,
  makeDefault,
  type PaymentMethodRow,
  promoteNewestActive,
  removeMethod,
  retryFailedNow,
  selectAutopayCustomer,
  selectMethods,
  selectSetupLink,
  setAutopay,
  spendSetupLink,
} from './autopay.repo';
import { type AutopayDeps, runAutopayCharges } from './autopay-charges.service';
import { saveTestCard } from './builtin-vault';
import { spendSetupLinkOnce } from './provider-events.repo';
import { createSetupLink, hashSetupToken } from './setup-links';

/**
 * Payment methods on file and the customer's autopay switch (product.md section 18): what the portal's
 * "Payment methods" page, the public set-up page, the checkout's "Save this card" box and the staff's customer
 * page do. Autopay is on while the customer has a default active method and consent; the customer turns it on
 * or off, staff only off.
 */

export type PaymentMethodDeps = AutopayDeps & { businessName: string };

/** Who agreed, from where: the consent record kept with a method. */
export type ConsentContext = {
  userId: string | null;
  name: string;
  email: string | null;
  ip: string | null;
  userAgent: string | null;
};

const GONE = () => new AppError('GONE', AUTOPAY_MESSAGES.setupLinkGone);
const INVALID_LINK = () => new AppError('NOT_FOUND', AUTOPAY_MESSAGES.setupLinkInvalid);

export function toView(row: PaymentMethodRow): PaymentMethodView {
  return {
    id: row.id,
    kind: row.kind as PaymentMethodView['kind'],
    provider: row.provider as PaymentMethodView['provider'],
    brand: row.brand,
    last4: row.last4,
    label: methodLabel(row),
    expMonth: row.expMonth,
    expYear: row.expYear,
    isDefault: row.isDefault,
    status: row.status as PaymentMethodView['status'],
    createdAt: row.createdAt.toISOString(),
    consent: {
      text: row.consentText,
      at: row.consentAt.toISOString(),
      name: row.consentName,
      email: row.consentEmail,
      ip: row.consentIp,
      userAgent: row.consentUserAgent,
    },
  };
}

async function methodsOf(db: Db, customerId: string): Promise<PaymentMethods> {
  const customer = await selectAutopayCustomer(db, customerId);
  if (!customer) throw notFound('Customer');
  const rows = await selectMethods(db, customerId);
  const methods = rows.map(toView);
  const defaultMethod = methods.find((m) => m.isDefault && m.status === 'active') ?? null;
  const { autopayChargeOn } = await getSettings(db, 'contracts');
  return {
    autopay: {
      enabled: customer.autopayEnabled,
      canEnable: defaultMethod !== null,
      chargeOn: autopayChargeOn,
      defaultMethod,
    },
    methods,
  };
}

const ownCustomer = (actor: SessionUser): string => {
  // A client account always belongs to a customer; one whose customer is gone has nothing here.
  if (!actor.customerId) throw notFound('Customer');
  return actor.customerId;
};

// ---------------------------------------------------------------------------------------------------------
// The client's own methods
// ---------------------------------------------------------------------------------------------------------

export const listOwnMethods = (deps: PaymentMethodDeps, actor: SessionUser) => methodsOf(deps.db, ownCustomer(actor));

/** "Add a payment method": a set-up page for the signed-in client, valid one hour. */
export async function startOwnSetup(deps: PaymentMethodDeps, actor: SessionUser): Promise<PaymentSetupStart> {
  const customerId = ownCustomer(actor);
  const link = await createSetupLink(deps.db, {
    baseUrl: deps.baseUrl,
    customerId,
    purpose: 'portal',
    createdBy: actor.id,
  });
  return { url: link.url };
}

export async function makeOwnDefault(
  deps: PaymentMethodDeps,
  actor: SessionUser,
  id: string,
): Promise<PaymentMethodChange> {
  const customerId = ownCustomer(actor);
  const changed = await deps.db.transaction(async (tx) => {
    const row = await makeDefault(tx, customerId, id);
    if (!row) return null;
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'payment_method.default',
      entity: 'customer',
      entityId: customerId,
      after: { paymentMethodId: row.id, method: methodLabel(row) },
    });
    // A new default retries at once each invoice whose charge failed.
    await retryFailedNow(tx, customerId, businessToday());
    return row;
  });
  if (!changed) throw notFound('Payment method');
  await runAutopayCharges(deps, { customerId });
  return {
    ...(await methodsOf(deps.db, customerId)),
    message: `${methodLabel(changed)} is now your default payment method.`,
  };
}

/** Removes a method; removing the last one of an autopay customer turns autopay off, and says so. */
export async function removeOwnMethod(
  deps: PaymentMethodDeps,
  actor: SessionUser,
  id: string,
): Promise<PaymentMethodChange> {
  const customerId = ownCustomer(actor);
  const outcome = await deps.db.transaction(async (tx) => {
    const removed = await removeMethod(tx, customerId, id);
    if (!removed) return null;
    // The removed method was perhaps the default: the newest active one left takes its place (none changes else).
    const promoted = await promoteNewestActive(tx, customerId);
    const customer = await selectAutopayCustomer(tx, customerId);
    const left = (await selectMethods(tx, customerId)).some((m) => m.isDefault && m.status === 'active');
    const turnedOff = Boolean(customer?.autopayEnabled) && !left;
    if (turnedOff) await setAutopay(tx, customerId, false);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'payment_method.removed',
      entity: 'customer',
      entityId: customerId,
      after: {
        paymentMethodId: removed.id,
        method: methodLabel(removed),
        newDefault: promoted?.id ?? null,
        autopayTurnedOff: turnedOff,
      },
    });
    return { turnedOff };
  });
  if (!outcome) throw notFound('Payment method');
  return {
    ...(await methodsOf(deps.db, customerId)),
    message: outcome.turnedOff ? AUTOPAY_MESSAGES.lastMethodRemoved : AUTOPAY_MESSAGES.methodRemoved,
  };
}

export async function setOwnAutopay(
  deps: PaymentMethodDeps,
  actor: SessionUser,
  enabled: boolean,
): Promise<PaymentMethods> {
  const customerId = ownCustomer(actor);
  await switchAutopay(deps, customerId, enabled, actor.id);
  if (enabled) await runAutopayCharges(deps, { customerId });
  return methodsOf(deps.db, customerId);
}

async function switchAutopay(deps: PaymentMethodDeps, customerId: string, enabled: boolean, actorId: string) {
  const before = await selectAutopayCustomer(deps.db, customerId);
  if (!before) throw notFound('Customer');
  const done = await deps.db.transaction(async (tx) => {
    if (!(await setAutopay(tx, customerId, enabled))) return false;
    if (before.autopayEnabled !== enabled) {
      await recordAudit(tx, {
        actorId,
        action: enabled ? 'autopay.enabled' : 'autopay.disabled',
        entity: 'customer',
        entityId: customerId,
        before: { autopayEnabled: before.autopayEnabled },
        after: { autopayEnabled: enabled },
      });
    }
    return true;
  });
  if (!done) throw conflict(AUTOPAY_MESSAGES.noActiveMethod);
}

// ---------------------------------------------------------------------------------------------------------
// Staff: see, send the set-up link, turn autopay off
// ---------------------------------------------------------------------------------------------------------

export const listCustomerMethods = (deps: PaymentMethodDeps, customerId: string) => methodsOf(deps.db, customerId);

export async function turnCustomerAutopayOff(deps: PaymentMethodDeps, actor: SessionUser, customerId: string) {
  await switchAutopay(deps, customerId, false, actor.id);
  return methodsOf(deps.db, customerId);
}

/** E-mails the customer a set-up link (7 days, once). */
export async function sendSetupLink(
  deps: PaymentMethodDeps,
  actor: SessionUser,
  customerId: string,
): Promise<PaymentSetupLinkSent> {
  const customer = await selectAutopayCustomer(deps.db, customerId);
  if (!customer) throw notFound('Customer');
  // The set-up link goes where the customer's payment e-mails go: its billing contact, else the customer.
  const to = { name: customer.name, email: customer.billingEmail, contactPerson: customer.billingContactName };
  if (!to.email) throw conflict(AUTOPAY_MESSAGES.noEmail);
  const link = await deps.db.transaction(async (tx) => {
    const created = await createSetupLink(tx, {
      baseUrl: deps.baseUrl,
      customerId,
      purpose: 'email',
      createdBy: actor.id,
    });
    const company = await readCompanyProfile(tx);
    await enqueueEmail(
      tx,
      setupLinkEmail({
        to,
        company,
        url: created.url,
        expiresAt: created.expiresAt,
        customerId,
      }),
    );
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'payment_method.setup_link_sent',
      entity: 'customer',
      entityId: customerId,
      after: { sentTo: to.email, expiresAt: created.expiresAt.toISOString() },
    });
    return created;
  });
  deps.mailer.kick(deps.db);
  return { sentTo: to.email, expiresAt: link.expiresAt.toISOString() };
}

// ---------------------------------------------------------------------------------------------------------
// The set-up page (/setup/{token}): a capability for one customer
// ---------------------------------------------------------------------------------------------------------

export async function liveLink(db: Db, token: string) {
  const link = isWellFormedToken(token) ? await selectSetupLink(db, hashSetupToken(token)) : undefined;
  if (!link) throw INVALID_LINK();
  if (link.usedAt || link.expiresAt.getTime() <= Date.now()) throw GONE();
  return link;
}

/** The set-up page's facts; the route adds where the method is entered (the provider configured). */
export async function getSetupPage(
  deps: PaymentMethodDeps,
  token: string,
): Promise<Omit<PaymentSetupPage, 'provider'>> {
  const link = await liveLink(deps.db, token);
  const customer = await selectAutopayCustomer(deps.db, link.customerId);
  if (!customer) throw INVALID_LINK();
  const methods = (await selectMethods(deps.db, link.customerId)).map(toView);
  return {
    businessName: deps.businessName,
    customerName: customer.name,
    consentText: autopayConsentText(deps.businessName),
    expiresAt: link.expiresAt.toISOString(),
    returnPath: link.purpose === 'portal' ? '/portal/payment-methods' : null,
    methods: methods.map(({ id, label, isDefault, status }) => ({ id, label, isDefault, status })),
  };
}

/**
 * The day and time a method is saved at: the demo's back-dated history passes its own; without it, now (the
 * consent's time, the method's, and the charges its saving runs at once).
 */
export type SaveClock = { today: string; at: Date };

/** Saves the card of the set-up page: a refused card answers 400 and spends nothing; the link works once. */
export async function completeSetup(
  deps: PaymentMethodDeps,
  token: string,
  card: SetupCard,
  context: Omit<ConsentContext, 'name' | 'email' | 'userId'>,
  clock?: SaveClock,
): Promise<PaymentSetupDone> {
  const link = await liveLink(deps.db, token);
  const customer = await selectAutopayCustomer(deps.db, link.customerId);
  if (!customer) throw INVALID_LINK();
  const saved = await saveMethod(deps, {
    customerId: link.customerId,
    card,
    makeDefault: card.makeDefault,
    source: 'setup_link',
    consent: {
      userId: link.purpose === 'portal' ? link.createdBy : null,
      name: card.name,
      email: customer.email,
      ...context,
    },
    spendLink: link.id,
    clock,
  });
  return { method: toView(saved.method), autopayEnabled: saved.autopayEnabled };
}

/**
 * A card saved with consent after a checkout's payment ("Save this card and pay future invoices ..."): the
 * checkout's customer, the payer's name on the card. A card the vault refuses is not saved (the payment stands).
 */
export async function saveCheckoutCard(
  deps: PaymentMethodDeps,
  customerId: string,
  card: CardPayment,
  consent: ConsentContext,
): Promise<void> {
  try {
    await saveMethod(deps, { customerId, card, makeDefault: true, source: 'checkout', consent, spendLink: null });
  } catch (error) {
    if (error instanceof AppError && error.status < 500) return;
    throw error;
  }
}

/**
 * Saves a card on file: the provider keeps the card, we keep its brand, last 4, expiry, fingerprint and the
 * consent; the method becomes the default when there is none or when asked; autopay turns on (the customer
 * agreed to it), and each open invoice whose charge failed is retried at once.
 */
async function saveMethod(
  deps: PaymentMethodDeps,
  input: {
    customerId: string;
    card: Pick<CardPayment, 'cardNumber' | 'expiry' | 'name'>;
    makeDefault: boolean;
    source: 'checkout' | 'portal' | 'setup_link';
    consent: ConsentContext;
    spendLink: string | null;
    clock?: SaveClock;
  },
): Promise<{ method: PaymentMethodRow; autopayEnabled: boolean }> {
  const vault = await saveTestCard(deps.db, input.card);
  if ('refused' in vault) throw badRequest(vault.refused);
  const { saved } = vault;
  return recordMethod(deps, {
    ...input,
    vaulted: {
      provider: 'builtin',
      providerCustomerId: null,
      providerMethodId: saved.providerMethodId,
      kind: 'card',
      brand: saved.brand,
      last4: saved.last4,
      expMonth: saved.expMonth,
      expYear: saved.expYear,
      fingerprint: saved.fingerprint,
    },
  });
}

/** What a provider keeps of a method it saved, as we record it (never a number). */
export type VaultedMethod = {
  provider: 'builtin' | 'stripe';
  providerCustomerId: string | null;
  providerMethodId: string;
  kind: 'card' | 'us_bank_account';
  brand: string;
  last4: string;
  expMonth: number | null;
  expYear: number | null;
  fingerprint: string | null;
};

/**
 * Records a method its provider saved (the built-in vault, or Stripe's setup-mode Checkout), with the consent:
 * the set-up link is spent in the same transaction (a second save of the link answers 410), the method becomes
 * the default when there is none or when asked, autopay turns on, and each failed open invoice is retried now.
 */
export async function recordMethod(
  deps: PaymentMethodDeps,
  input: {
    customerId: string;
    vaulted: VaultedMethod;
    makeDefault: boolean;
    source: 'checkout' | 'portal' | 'setup_link';
    consent: ConsentContext & { at?: Date };
    spendLink: string | null;
    /** The provider's page took the method while the link was live: spent even if it expired since. */
    spendExpiredLink?: boolean;
    /** The demo's back-dated day and time (default: now). */
    clock?: SaveClock;
  },
): Promise<{ method: PaymentMethodRow; autopayEnabled: boolean }> {
  const saved = input.vaulted;
  const today = input.clock?.today ?? businessToday();
  const at = input.clock?.at;
  const method = await deps.db.transaction(async (tx) => {
    const spent = input.spendLink
      ? input.spendExpiredLink
        ? await spendSetupLinkOnce(tx, input.spendLink)
        : await spendSetupLink(tx, input.spendLink, at)
      : true;
    if (!spent) throw GONE();
    const existing = await selectMethods(tx, input.customerId);
    const hasDefault = existing.some((m) => m.isDefault);
    const row = await insertMethod(tx, {
      customerId: input.customerId,
      provider: saved.provider,
      providerCustomerId: saved.providerCustomerId,
      providerMethodId: saved.providerMethodId,
      kind: saved.kind,
      brand: saved.brand,
      last4: saved.last4,
      expMonth: saved.expMonth,
      expYear: saved.expYear,
      fingerprint: saved.fingerprint,
      isDefault: false,
      status: 'active',
      consentText: autopayConsentText(deps.businessName),
      consentUserId: input.consent.userId,
      consentName: input.consent.name,
      consentEmail: input.consent.email,
      ...(input.consent.at ? { consentAt: input.consent.at } : {}),
      consentIp: input.consent.ip,
      consentUserAgent: input.consent.userAgent?.slice(0, 500) ?? null,
      source: input.source,
      ...(at ? { consentAt: at, createdAt: at, updatedAt: at } : {}),
    });
    const method = !hasDefault || input.makeDefault ? ((await makeDefault(tx, input.customerId, row.id)) ?? row) : row;
    await setAutopay(tx, input.customerId, true);
    await retryFailedNow(tx, input.customerId, today);
    await emitWebhookEvent(tx, 'payment_method.saved', { ids: [method.id] });
    await recordAudit(tx, {
      actorId: input.consent.userId,
      action: 'payment_method.saved',
      entity: 'customer',
      entityId: input.customerId,
      after: {
        paymentMethodId: method.id,
        method: methodLabel(method),
        source: input.source,
        isDefault: method.isDefault,
      },
    });
    return method;
  });
  await runAutopayCharges(deps, { customerId: input.customerId, today: input.clock?.today, at });
  const customer = await selectAutopayCustomer(deps.db, input.customerId);
  return { method, autopayEnabled: Boolean(customer?.autopayEnabled) };
}
