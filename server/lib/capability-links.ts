/**
 * Links that grant something to whoever holds them (product.md section 2): choosing an account's password,
 * paying a contract's invoices, paying a checkout and reading its receipt, reviewing and signing an insertion order, saving a payment method. Each kind is built here, and masked here wherever
 * someone other than its recipient could read it: the outbox keeps what staff may read with the token
 * replaced (lib/mailer.ts), and only the SMTP delivery carries the full link. Audit events and logs never
 * hold one (lib/audit.ts, lib/logger.ts). See docs/decisions/020-capability-links.md.
 */

/** What a masked link shows in place of its token. */
export const HIDDEN_TOKEN = '[hidden]';

export const setPasswordLink = (baseUrl: string, token: string) => `${baseUrl}/set-password?token=${token}`;
export const payLink = (baseUrl: string, token: string) => `${baseUrl}/p/${token}`;
export const checkoutLink = (baseUrl: string, token: string) => `${baseUrl}/checkout/${token}`;
/** An insertion order's version, to review, accept or decline (product.md section 15). */
export const ioLink = (baseUrl: string, token: string) => `${baseUrl}/io/${token}`;
/** Saving a payment method for autopay (product.md section 18): 7 days, once. */
export const setupLink = (baseUrl: string, token: string) => `${baseUrl}/setup/${token}`;

/** The client portal: a sign-in is still needed, so its link grants nothing. */
export const portalLink = (baseUrl: string) => `${baseUrl}/portal`;

/**
 * The part of each capability link just before its token. The payment success page of a checkout carries the
 * checkout's token, which reads its receipt (shared/contracts/checkout.ts paymentSuccessPath puts it first).
 */
const TOKEN_AFTER = ['/set-password?token=', '/p/', '/checkout/', '/io/', '/setup/', '/payment/success?checkout='];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const CAPABILITY_TOKEN = new RegExp(`(${TOKEN_AFTER.map(escapeRegExp).join('|')})[A-Za-z0-9_-]+`, 'g');

/** The text with the token of every capability link in it replaced by HIDDEN_TOKEN. */
export function maskCapabilityLinks(text: string): string {
  return text.replace(CAPABILITY_TOKEN, `$1${HIDDEN_TOKEN}`);
}
