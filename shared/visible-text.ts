/**
 * Text as a reader sees it. A name typed into a form can hold characters that print nothing or change how the
 * rest prints: format characters (Unicode category Cf: zero-width spaces and joiners, the bidirectional
 * overrides such as U+202E that show "eoD enaJ" as "Jane Doe", the soft hyphen) and symbols drawn as blanks
 * (the Hangul fillers, the blank Braille pattern). A signature must be a name someone can read, so these are
 * removed before any length rule counts the letters (product.md section 17).
 */

/** Characters that render as nothing although they are not format characters. */
const BLANK_LIKE = /[\u115F\u1160\u3164\uFFA0\u2800]/gu;
const FORMAT = /\p{Cf}/gu;
const SPACES = /[\s\p{Zs}]+/gu;
const LETTER = /\p{L}/gu;

/** The text without invisible characters, its runs of spaces as one, trimmed. */
export function visibleText(text: string): string {
  return text.normalize('NFC').replace(FORMAT, '').replace(BLANK_LIKE, '').replace(SPACES, ' ').trim();
}

/** How many letters (of any script) the text holds. */
export function letterCount(text: string): number {
  return text.match(LETTER)?.length ?? 0;
}
