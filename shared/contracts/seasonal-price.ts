import { type Cents, shareOfCents } from '../money';

/**
 * A line's in-season price scaled with its unit price (the contract form, when a rep changes the price of a
 * line that has an in-season price): new in-season = old in-season x new price / old price, rounded half
 * away from zero to the cent (shared/money.ts, exact for any amounts). Null when there is nothing to scale
 * from (an old price of zero) or the new price is not an amount.
 */
export function scaledSeasonalPrice(
  seasonalPriceCents: Cents,
  oldUnitPriceCents: Cents,
  newUnitPriceCents: Cents,
): Cents | null {
  if (oldUnitPriceCents <= 0 || newUnitPriceCents < 0 || seasonalPriceCents < 0) return null;
  return shareOfCents(seasonalPriceCents, newUnitPriceCents, oldUnitPriceCents);
}
