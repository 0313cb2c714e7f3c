/**
 * The look of every e-mail the product sends, in one place: the HTML layout with its sign-off, fact tables,
 * buttons, the plain-text part, and HTML escaping. Each module writes its own messages with these.
 */

export const PRODUCT_NAME = 'AdCRM';

export type EmailRecipient = { name: string; email: string };

/** One row of facts: a label and its value ("Invoice", "INV-2026-000042"). */
export type Fact = [label: string, value: string];

const SIGN_OFF = ['Thank you,', PRODUCT_NAME];

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/** The HTML part: the body in the product's page, followed by the sign-off. */
export function emailLayout(body: string): string {
  return `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;color:#111;line-height:1.5">${body}<p>${SIGN_OFF.join('<br>')}</p></body></html>`;
}

/** The plain-text part: the lines given, followed by the sign-off. */
export function plainText(lines: string[]): string {
  return [...lines, ...SIGN_OFF].join('\n');
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
 * How most customer e-mails open: the greeting, what happened, and its facts; as plain-text lines (ending
 * with a blank line) and as HTML.
 */
export function emailOpening(name: string, intro: string, facts: Fact[]): { lines: string[]; html: string } {
  return {
    lines: [`Hello ${name},`, '', intro, '', ...factLines(facts), ''],
    html: `<p>Hello ${escapeHtml(name)},</p>\n<p>${escapeHtml(intro)}</p>\n${factTable(facts)}`,
  };
}
