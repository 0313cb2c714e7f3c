import {
  type CompanyProfile,
  companyAddressLines,
  companyContactLine,
  companyTaxIdLine,
} from '@shared/contracts/company-vocabulary';

/**
 * The look of every e-mail the product sends, in one place: the greeting, the HTML layout with its sign-off
 * and, in e-mails to customers, the company's footer (product.md section 17), fact tables, buttons, the
 * plain-text part, and HTML escaping. Each module writes its own messages with these.
 */

export const PRODUCT_NAME = 'AdCRM';

export type EmailRecipient = { name: string; email: string };

/** A customer as its e-mails greet it: by its contact person's first name when it has one. */
export type CustomerRecipient = EmailRecipient & { contactPerson: string | null };

/**
 * Who sends an e-mail: the company profile (lib/company-profile.ts) for an e-mail to a customer, which signs
 * off with the legal name and ends with the company's address, contact and tax ID; null for one to staff.
 */
export type EmailSender = CompanyProfile | null;

/** The name a greeting uses: the contact person's first name ("Giulia" of "Giulia Russo"), else the name. */
export function greetingName(who: { name: string; contactPerson?: string | null }): string {
  return who.contactPerson?.trim().split(/\s+/)[0] || who.name;
}

/** "Hello Giulia," */
export const greeting = (who: { name: string; contactPerson?: string | null }) => `Hello ${greetingName(who)},`;

/** One row of facts: a label and its value ("Invoice", "INV-2026-000042"). */
export type Fact = [label: string, value: string];

const signOff = (sender: EmailSender) => ['Thank you,', sender?.legalName ?? PRODUCT_NAME];

/**
 * The company's lines at the foot of a customer e-mail: legal name, address, phone, e-mail, website, tax ID;
 * none while the profile holds nothing but the legal name (the sign-off already says it).
 */
export function companyFooterLines(sender: CompanyProfile): string[] {
  const details = [...companyAddressLines(sender.address), companyContactLine(sender), companyTaxIdLine(sender)].filter(
    (line): line is string => Boolean(line),
  );
  return details.length ? [sender.legalName, ...details] : [];
}

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/** The HTML part: the body in the product's page, the sign-off and, from a company, its footer. */
export function emailLayout(body: string, sender: EmailSender): string {
  const lines = sender ? companyFooterLines(sender) : [];
  const footer = lines.length
    ? `<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0 12px"><p style="font-size:12px;color:#6b7280;line-height:1.5">${lines.map(escapeHtml).join('<br>')}</p>`
    : '';
  return `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;color:#111;line-height:1.5">${body}<p>${signOff(sender).map(escapeHtml).join('<br>')}</p>${footer}</body></html>`;
}

/** The plain-text part: the lines given, the sign-off and, from a company, its footer after a "-- " line. */
export function plainText(lines: string[], sender: EmailSender): string {
  const details = sender ? companyFooterLines(sender) : [];
  const footer = details.length ? ['', '-- ', ...details] : [];
  return [...lines, ...signOff(sender), ...footer].join('\n');
}

/**
 * The company's payment instructions (bank details for a wire, say) in an e-mail that asks for money, as
 * plain-text lines and HTML; nothing when the profile has none.
 */
export function paymentInstructionsParts(sender: CompanyProfile): { lines: string[]; html: string } {
  if (!sender.paymentInstructions) return { lines: [], html: '' };
  const lines = sender.paymentInstructions.split(/\r?\n/);
  return {
    lines: ['Other ways to pay:', ...lines, ''],
    html: `<p style="color:#555">Other ways to pay:<br>${lines.map(escapeHtml).join('<br>')}</p>`,
  };
}

/** Facts as plain-text lines: "Label: value". */
export function factLines(facts: Fact[]): string[] {
  return facts.map(([label, value]) => `${label}: ${value}`);
}

/** Facts as a two-column HTML table, values in bold. */
export function factTable(facts: Fact[]): string {
  const rows = facts
    .map(
      ([label, value]) =>
        `<tr><td style="padding:4px 12px 4px 0;color:#555">${escapeHtml(label)}</td><td style="padding:4px 0"><strong>${escapeHtml(value)}</strong></td></tr>`,
    )
    .join('');
  return `<table style="border-collapse:collapse;margin:12px 0">${rows}</table>`;
}

/** A button-like link in a paragraph of its own. */
export function emailButton(url: string, label: string): string {
  return `<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 18px;background:#2563eb;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(label)}</a></p>`;
}

/** The address behind a button, for mail readers that do not show buttons. */
export function addressLine(url: string): string {
  return `<p style="color:#555">Or open this address: ${escapeHtml(url)}</p>`;
}

/**
 * How most e-mails open: the greeting (a customer by its contact person's first name), what happened, and
 * its facts; as plain-text lines (ending with a blank line) and as HTML.
 */
export function emailOpening(
  who: { name: string; contactPerson?: string | null },
  intro: string,
  facts: Fact[],
): { lines: string[]; html: string } {
  return {
    lines: [greeting(who), '', intro, '', ...factLines(facts), ''],
    html: `<p>${escapeHtml(greeting(who))}</p>\n<p>${escapeHtml(intro)}</p>\n${factTable(facts)}`,
  };
}
