import { calendarDay, dayFromNumber, dayNumber, daysInMonth } from '@shared/calendar-date';
import { methodLabel } from '@shared/contracts/autopay';
import { businessToday } from '../../lib/business-day';
import { readCompanyProfile } from '../../lib/company-profile';
import { enqueueEmails } from '../../lib/mailer';
import { cardExpiringEmail } from './autopay.emails';
import { recordExpiryNotices, selectMethodsExpiringBy } from './autopay.repo';
import type { AutopayDeps } from './autopay-charges.service';
import { createSetupLink } from './setup-links';

/**
 * Cards on file expire at the end of their expiry month: their customer is told 30 and 7 days before, each once
 * per method (payment_method_notices' key decides, so runs on several instances send each once). A card first
 * seen inside 7 days gets the 7-day notice only. Answers how many e-mails were queued.
 */
export async function sendExpiryNotices(deps: AutopayDeps, options: { today?: string } = {}): Promise<number> {
  const today = options.today ?? businessToday();
  const horizon = dayFromNumber(dayNumber(today) + 30);
  const candidates = await selectMethodsExpiringBy(deps.db, today, horizon);
  let queued = 0;
  for (const method of candidates) {
    const expiresOn = calendarDay(method.expYear, method.expMonth, daysInMonth(method.expYear, method.expMonth));
    const daysLeft = dayNumber(expiresOn) - dayNumber(today);
    if (daysLeft < 0 || daysLeft > 30) continue;
    const kind = daysLeft <= 7 ? 'expiring_7' : 'expiring_30';
    const sent = await deps.db.transaction(async (tx) => {
      // The 7-day notice also stands for a 30-day one never sent: one e-mail, both kept.
      const kinds = kind === 'expiring_7' ? (['expiring_7', 'expiring_30'] as const) : (['expiring_30'] as const);
      const recorded = await recordExpiryNotices(tx, method.id, kinds);
      if (!recorded.includes(kind)) return false;
      const link = await createSetupLink(tx, {
        baseUrl: deps.baseUrl,
        customerId: method.customerId,
        purpose: 'email',
        createdBy: null,
      });
      await enqueueEmails(tx, [
        cardExpiringEmail({
          to: { name: method.customerName, email: method.customerEmail, contactPerson: method.customerContactPerson },
          company: await readCompanyProfile(tx),
          method: methodLabel(method),
          expiresOn,
          days: kind === 'expiring_7' ? 7 : 30,
          updateUrl: link.url,
          customerId: method.customerId,
        }),
      ]);
      return true;
    });
    if (sent) queued++;
  }
  if (queued > 0) deps.mailer.kick(deps.db);
  return queued;
}
