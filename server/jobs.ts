import type { FastifyInstance } from 'fastify';
import type { Database, Db } from './db/client';
import { businessToday } from './lib/business-day';
import type { ScheduledJob } from './lib/job-queue';
import { refreshPlannerStatistics } from './lib/planner-statistics';
import { publicOrigin } from './lib/public-url';
import { sendActivityReminders } from './modules/activities/activity-reminders.service';
import { runAutopayCharges } from './modules/autopay/autopay-charges.service';
import { sendExpiryNotices } from './modules/autopay/expiry-notices.service';
import { runBilling } from './modules/billing/billing-run';
import { sendRenewalNotices } from './modules/contracts/contract-renewals.service';
import { sendMonthlyAgencyStatements } from './modules/customers/agency-statement.service';
import { runRenewalDeals } from './modules/deals/renewal-deals.service';
import { reconcileDelivery } from './modules/delivery/delivery.service';
import { runDunning } from './modules/dunning/dunning.service';
import { refreshForecastMonths } from './modules/forecast/forecast.service';
import { reportExpiredHolds, runRenewalHolds } from './modules/inventory/inventory.service';
import { compactReportTotals } from './modules/reports/reports.service';
import { purgeExpiredSessions } from './modules/sessions/sessions';
import { getSettings } from './modules/settings/settings.service';
import { purgeOldWebhookDeliveries } from './modules/webhooks/webhooks.service';
import { purgeIdempotencyKeys } from './plugins/idempotency.repo';
import { purgeRateLimitHits } from './plugins/rate-limit.repo';

/**
 * The product's background work, as jobs of the queue (lib/job-queue.ts). Cron expressions are read in
 * BUSINESS_TIMEZONE. Every job is also queued when an instance starts, so a restart catches up at once; each
 * is safe to run at any time (the work it does is decided by conditional statements, not by its schedule).
 * Jobs that queue e-mail ask for a delivery round right after (the round is this instance's; the outbox's
 * claims keep it once across instances).
 */
export function backgroundJobs(app: FastifyInstance, db: Db, engine: Database['engine'] = 'postgres'): ScheduledJob[] {
  const baseUrl = () => publicOrigin(app);
  const deliverSoon = (queued: number) => {
    if (queued > 0) app.mailer.kick(db);
  };
  return [
    {
      // Issues whatever is due up to today (catching up after downtime), then charges autopay customers.
      name: 'billing-run',
      cron: '0 * * * *',
      atStart: true,
      expireInSeconds: 60 * 60,
      run: async () => {
        deliverSoon((await runBilling(db, { baseUrl: baseUrl() })).invoicesIssued);
        // Autopay goes with every billing run: what is due now is charged, retries whose day came are made, and
        // cards expiring in 30 or 7 days are told of (product.md section 18).
        const deps = { db, mailer: app.mailer, baseUrl: baseUrl() };
        await runAutopayCharges(deps);
        deliverSoon(await sendExpiryNotices(deps));
      },
    },
    {
      // Each agency's statement of the previous month, PDF and CSV attached (product.md section 20), when the
      // setting agencyStatementsMonthly is on (Settings, agencies); once per agency and month (agency_statement_runs).
      name: 'agency-statements',
      cron: '0 7 1 * *',
      atStart: true,
      expireInSeconds: 30 * 60,
      run: async () => {
        if (!(await getSettings(db, 'agencies')).agencyStatementsMonthly) return;
        deliverSoon(await sendMonthlyAgencyStatements({ db, storage: app.storage }));
      },
    },
    {
      // Reminders at due + 3 and + 10 days, the pause for non-payment, resumes: after the hour's billing run.
      name: 'dunning',
      cron: '10 * * * *',
      atStart: true,
      expireInSeconds: 30 * 60,
      run: async () => {
        await runDunning({ db, mailer: app.mailer, baseUrl: baseUrl() });
      },
    },
    {
      // Pushed delivery whose grace days ran out becomes final; final, ended, short periods are settled (a
      // push settles its own periods at once: this catches the ones no push comes for).
      name: 'delivery-reconciliation',
      cron: '20 * * * *',
      atStart: true,
      expireInSeconds: 30 * 60,
      run: () => reconcileDelivery({ db, mailer: app.mailer, baseUrl: baseUrl() }),
    },
    {
      // Messages whose first delivery failed or whose sender died; new messages go out at once (kick).
      name: 'outbox-delivery',
      cron: '* * * * *',
      atStart: true,
      expireInSeconds: 10 * 60,
      run: () => app.mailer.deliverDue(db),
    },
    {
      // Reminders of calls, meetings, e-mails and tasks at their due time (15 minutes before a meeting), each once
      // across instances (one conditional UPDATE claims them).
      name: 'activity-reminders',
      cron: '* * * * *',
      atStart: true,
      expireInSeconds: 10 * 60,
      run: async () => deliverSoon(await sendActivityReminders(db, { baseUrl: baseUrl() })),
    },
    {
      // Renewal notices 60, 30 and 7 days before a running contract's end, each once per contract and end date
      // (renewal_notices' key makes repeats no-ops); the 30-day one is the "contract ending soon" notice.
      name: 'renewal-notices',
      cron: '0 8 * * *',
      atStart: true,
      // Then the pipeline's renewal deals: opened at the first notice, linked to Renew's draft, closed Lost when
      // the contract ended without a renewal.
      run: async () => {
        deliverSoon(await sendRenewalNotices(db, { baseUrl: baseUrl() }));
        await runRenewalDeals(db);
      },
    },
    {
      // The forecast's stored months (decision 059): brought up to date once a day, so that the first forecast of
      // a month does not wait for every contract and deal to be recomputed; on other days only what changed.
      name: 'forecast-months',
      cron: '5 0 * * *',
      atStart: true,
      run: async () => {
        await refreshForecastMonths(db, businessToday().slice(0, 7));
      },
    },
    {
      // Inventory holds of sent contracts that ran out: their units are free at once; this tells each rep once.
      name: 'inventory-hold-expiry',
      cron: '*/15 * * * *',
      atStart: true,
      run: async () => deliverSoon(await reportExpiredHolds(db, { baseUrl: baseUrl() })),
    },
    {
      // Right of first refusal: holds the next season's days of contracts due for renewal, releases them 30 days
      // before their flight (or at once for a canceled contract) and tells each rep once.
      name: 'renewal-holds',
      cron: '5 * * * *',
      atStart: true,
      run: async () => deliverSoon((await runRenewalHolds(db, { baseUrl: baseUrl() })).notified),
    },
    {
      // Folds the report totals' delta rows (server/db/schema/reports.ts); reports are exact with or without it.
      name: 'report-compaction',
      cron: '*/5 * * * *',
      atStart: true,
      run: () => compactReportTotals(db),
    },
    // The embedded database has no autovacuum: its planner statistics are refreshed here (lib/planner-statistics.ts).
    ...(engine === 'pglite'
      ? [
          {
            name: 'planner-statistics',
            cron: '*/10 * * * *',
            atStart: true,
            run: () => refreshPlannerStatistics(db),
          },
        ]
      : []),
    {
      // Expired sessions, old rate-limit windows, idempotency keys past their 24 hours and webhook deliveries
      // finished over 30 days ago, every hour.
      name: 'purge',
      cron: '30 * * * *',
      atStart: true,
      run: async () => {
        await purgeExpiredSessions(db, app.sessionPolicy);
        await purgeRateLimitHits(db);
        await purgeIdempotencyKeys(db);
        await purgeOldWebhookDeliveries(db);
      },
    },
  ];
}
