/**
 * The HTML standard's valid e-mail address (what `<input type="email">` accepts): a local part, "@" and a
 * host name whose labels need no dot, so the first start's `admin@localhost` is one. The one e-mail rule of
 * every schema (contracts/common.ts `emailAddress`, and the sign-in form's contracts/login.ts).
 */
export const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

export const MAX_EMAIL_LENGTH = 254;
