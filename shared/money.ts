/**
 * Money is integer cents, everywhere. This module is the only place that turns user or API input
 * into cents, cents back into amounts, and cents into display text. No floating-point arithmetic
 * touches money: parsing works on the decimal text, rounding is half away from zero on integers.
 */

export type Cents = number;

export const MAX_CENTS = 100_000_000_000_00; // $100 billion: far above any contract, far below 2^53

const AMOUNT_PATTERN = /^([+-])?(\d+)(?:\.(\d*))?$/;

/**
 * Parses a dollar amount ("1234.5", "1,234.50", 1234.5, "$12") into integer cents.
 * Returns null for anything that is not a finite amount with at most two decimals.
 */
export function parseMoney(input: string | number): Cents | null {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return null;
    // Shortest round-trip text of a number is its exact decimal form for amounts with <= 2 decimals.
    text = String(input);
    if (/e/i.test(text)) return null;
  } else {
    text = input.trim().replace(/^\$/, '').replace(/,/g, '');
  }
  const match = AMOUNT_PATTERN.exec(text);
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > 2) return null;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0') || '0');
  if (!Number.isSafeInteger(cents) || cents > MAX_CENTS) return null;
  return sign === '-' ? -cents : cents;
}

/** The amount (in dollars) for JSON: 123456 -> 1234.56. Exact for every safe integer of cents. */
export function centsToAmount(cents: Cents): number {
  assertCents(cents);
  return cents / 100;
}

/** Cents from an amount that is already known to be valid (API numbers, stored figures). Throws otherwise. */
export function amountToCents(amount: number | string): Cents {
  const cents = parseMoney(amount);
  if (cents === null) throw new RangeError(`Not a money amount: ${String(amount)}`);
  return cents;
}

/** "$1,234.50", "-$3.00": the one display format for money in the product (US dollars). */
export function formatCents(cents: Cents): string {
  assertCents(cents);
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const dollars = Math.trunc(abs / 100);
  const rest = abs - dollars * 100;
  const grouped = dollars.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}$${grouped}.${rest.toString().padStart(2, '0')}`;
}

/** Display an API amount (dollars, number or numeric string) as money text. */
export function formatAmount(amount: number | string | null | undefined): string {
  if (amount === null || amount === undefined || amount === '') return formatCents(0);
  const cents = parseMoney(amount);
  return cents === null ? formatCents(0) : formatCents(cents);
}

/** Integer division rounding half away from zero: the one rounding rule for money. */
export function divideRound(numerator: number, denominator: number): number {
  if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator) || denominator === 0) {
    throw new RangeError('divideRound takes safe integers and a non-zero denominator');
  }
  const sign = Math.sign(numerator) * Math.sign(denominator);
  const n = Math.abs(numerator);
  const d = Math.abs(denominator);
  const quotient = Math.trunc(n / d);
  const remainder = n - quotient * d;
  const rounded = remainder * 2 >= d ? quotient + 1 : quotient;
  return sign * rounded;
}

/**
 * part / whole of an amount of cents, rounded half away from zero, exact for any safe integers (computed in
 * BigInt: amount x part can pass 2^53). Used where a share of what was billed is credited.
 */
export function shareOfCents(cents: Cents, part: number, whole: number): Cents {
  if (![cents, part, whole].every(Number.isSafeInteger) || whole <= 0 || part < 0) {
    throw new RangeError('shareOfCents takes safe integers, a part of at least 0 and a whole above 0');
  }
  const sign = cents < 0 ? -1n : 1n;
  const n = BigInt(Math.abs(cents)) * BigInt(part);
  const d = BigInt(whole);
  const q = n / d;
  const rounded = (n - q * d) * 2n >= d ? q + 1n : q;
  return Number(sign * rounded);
}

/** A rate in basis points (1/100 of a percent) applied to cents: 10000 bp = 100%. */
export function applyRate(cents: Cents, basisPoints: number): Cents {
  return divideRound(cents * basisPoints, 10_000);
}

export function sumCents(values: readonly Cents[]): Cents {
  let total = 0;
  for (const value of values) {
    assertCents(value);
    total += value;
  }
  return total;
}

/** Cents as plain decimal text, for input fields and CSV: 125050 -> "1250.50", -50 -> "-0.50" (no grouping). */
export function centsToPlain(cents: Cents): string {
  assertCents(cents);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** An amount in dollars as an input field shows it: 1250.5 -> "1250.50", -0.5 -> "-0.50" (no grouping). */
export function plainAmount(amount: number): string {
  return centsToPlain(parseMoney(amount) ?? 0);
}

/**
 * Splits `total` cents over `weights` in proportion (the weights may be negative, their sum not zero), exactly:
 * each share is total x weight / sum rounded down, and the cents left over go one each to the shares with the
 * largest remainders (the first of equal ones). The shares always add up to `total`. Used where one figure
 * (an invoice's tax, a credit note's amount) is spread over lines or accounts.
 */
export function allocateCents(total: Cents, weights: readonly number[]): Cents[] {
  assertCents(total);
  for (const weight of weights) assertCents(weight);
  const sum = weights.reduce((a, b) => a + BigInt(b), 0n);
  if (sum === 0n) {
    if (total === 0) return weights.map(() => 0);
    throw new RangeError('allocateCents needs weights that do not add up to zero');
  }
  const sign = sum < 0n ? -1n : 1n;
  const den = sum * sign;
  const shares = weights.map((weight, index) => {
    const num = BigInt(total) * BigInt(weight) * sign;
    let quotient = num / den;
    if (num % den !== 0n && num < 0n) quotient -= 1n;
    return { index, quotient, remainder: num - quotient * den };
  });
  let left = BigInt(total) - shares.reduce((a, s) => a + s.quotient, 0n);
  const byRemainder = [...shares].sort((a, b) =>
    a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1,
  );
  for (const share of byRemainder) {
    if (left <= 0n) break;
    share.quotient += 1n;
    left -= 1n;
  }
  return shares.map((share) => Number(share.quotient));
}

/** A line's amount before its discount: quantity x unit price. */
export function lineAmountCents(line: { quantity: number; unitPriceCents: Cents }): Cents {
  return line.quantity * line.unitPriceCents;
}

/**
 * Line total = quantity x unit price - discount; never below zero (callers validate the discount). The one
 * line formula: the contract form's summary, the server's contract figures and billing all use it.
 */
export function lineTotalCents(line: { quantity: number; unitPriceCents: Cents; discountCents: Cents }): Cents {
  assertCents(line.unitPriceCents);
  assertCents(line.discountCents);
  if (!Number.isSafeInteger(line.quantity)) throw new RangeError('quantity must be an integer');
  return Math.max(0, lineAmountCents(line) - line.discountCents);
}

function assertCents(value: number): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`Not an integer number of cents: ${value}`);
}
