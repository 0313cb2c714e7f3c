import { WEBHOOK_EVENT_TYPES } from '@shared/contracts/webhooks-vocabulary';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contractLineItems,
  insertionOrders,
  invoices,
  lineDeliveries,
  outboxEmails,
  webhookDeliveries,
  webhookEvents,
} from '../../db/schema';
import { businessToday } from '../../lib/business-day';
import { createMailer } from '../../lib/mailer';
import { buildTestApp, type TestContext } from '../../test/app';
import { createBillableContract, setContractSettings, setTaxSettings } from '../../test/billing-factories';
import { createTestCustomer, createTestProduct } from '../../test/catalog-factories';
import { createContractFor, createInvoice, createRep, earn, payInvoice } from '../../test/commission-factories';
import { plusDays } from '../../test/dates';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver';
import { runBilling } from '../billing/billing-run';
import { runDunning } from '../dunning/dunning.service';
import { recordFailedPayment } from '../payments/payments.service';
import { deliverDueWebhooks } from './webhooks.service';

/**
 * Each place that changes what other systems hear of raises its event, in the same transaction
 * (webhook-events.ts): pay an invoice, issue a credit note, send, activate (accept), pause and cancel a
 * contract, run billing, dunning seeing an invoice overdue, a declined card, delivery reconciled, a payout
 * disbursed, a card saved for autopay and one failed. Then a real receiver (standardwebhooks' Webhook.verify) gets every one of the 14 event types
 * at least once, through a failure and its retry.
 */

let ctx: TestContext;
let receiver: WebhookReceiver;
let endpoint: { id: string; secret: string };
const TODAY = businessToday();
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  ctx = await buildTestApp();
  receiver = await startWebhookReceiver();
  await setTaxSettings(ctx.db, { defaultTaxRate: 10, taxIncluded: false, taxLabel: 'Tax' });
  await setContractSettings(ctx.db, { pausePaymentsAfterExpiry: true, gracePeriodsEndOfDays: 7 });
  const response = await ctx.injectAs('admin', {
    method: 'POST',
    url: '/api/webhooks',
    payload: { url: receiver.url, events: [...WEBHOOK_EVENT_TYPES] },
  });
  expect(response.statusCode, response.body).toBe(201);
  endpoint = response.json();
  receiver.secrets.push(endpoint.secret);
});
afterAll(async () => {
  await receiver.close();
  await ctx.close();
});

type EventRow = { id: string; type: string; data: Record<string, unknown> };

/** The events raised about one resource (by its id in the event's data), oldest first. */
async function eventsAbout(resourceId: string): Promise<EventRow[]> {
  const rows = await ctx.db
    .select({ id: webhookEvents.id, type: webhookEvents.type, data: webhookEvents.data })
    .from(webhookEvents)
    .where(sql`${webhookEvents.data}->>'id' = ${resourceId}`)
    .orderBy(asc(webhookEvents.createdAt), asc(webhookEvents.type));
  return rows as EventRow[];
}
const typesAbout = async (resourceId: string) => (await eventsAbout(resourceId)).map((e) => e.type);

describe('where events are raised', () => {
  it('invoice.paid when a payment settles an invoice (not for a part payment), with the invoice as it is now', async () => {
    const { contract } = await createContractFor(ctx.db, null);
    const invoice = await createInvoice(ctx.db, contract.id, { subtotalCents: 500_00, taxCents: 50_00 });
    const part = await ctx.injectAs('finance', {
      method: 'POST',
      url: `/api/invoices/${invoice.id}/payments`,
      headers: json,
      payload: { amount: 100, method: 'check' },
    });
    expect(part.statusCode, part.body).toBeLessThan(300);
    // (Its due date is long past: dunning, run after the payment, saw it overdue.)
    expect(await typesAbout(invoice.id)).toEqual(['invoice.overdue']);
    expect((await payInvoice(ctx, invoice.id)).statusCode).toBeLessThan(300);
    expect(await typesAbout(invoice.id)).toEqual(['invoice.overdue', 'invoice.paid']);
    const paid = (await eventsAbout(invoice.id))[1];
    expect(paid.data).toMatchObject({
      object: 'invoice',
      id: invoice.id,
      number: invoice.number,
      contractId: contract.id,
      customerId: contract.customerId,
      status: 'paid',
      totalCents: 550_00,
      amountPaidCents: 550_00,
      amountDueCents: 0,
      taxCents: 50_00,
    });
    expect(paid.data.paidAt).toMatch(/Z$/);
    // One delivery to the subscribed endpoint, due now.
    const deliveries = await ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, paid.id));
    expect(deliveries).toEqual([expect.objectContaining({ endpointId: endpoint.id, status: 'pending', attempts: 0 })]);
  });

  it('credit_note.issued, and invoice.paid when the credit note settles what was due', async () => {
    const { contract } = await createContractFor(ctx.db, null);
    const invoice = await createInvoice(ctx.db, contract.id, { subtotalCents: 200_00 });
    const issue = (amount: number) =>
      ctx.injectAs('finance', {
        method: 'POST',
        url: `/api/invoices/${invoice.id}/credit-notes`,
        headers: json,
        payload: { amount, reason: 'Campaign started late' },
      });
    const first = await issue(50);
    expect(first.statusCode, first.body).toBeLessThan(300);
    const second = await issue(150);
    expect(second.statusCode, second.body).toBeLessThan(300);
    const notes = await ctx.db.execute(
      sql`select id, number from credit_notes where invoice_id = ${invoice.id} order by number`,
    );
    const [a, b] = (notes as unknown as { rows: { id: string; number: string }[] }).rows;
    expect(await typesAbout(a.id)).toEqual(['credit_note.issued']);
    expect((await eventsAbout(a.id))[0].data).toMatchObject({
      object: 'credit_note',
      number: a.number,
      invoiceId: invoice.id,
      amountCents: 50_00,
      kind: 'partial',
    });
    expect(await typesAbout(b.id)).toEqual(['credit_note.issued']);
    expect(await typesAbout(invoice.id)).toEqual(['invoice.paid']);
  });

  it('contract.sent, contract.accepted once with contract.activated, contract.paused, contract.activated again on resume, contract.canceled', async () => {
    const { contract } = await createBillableContract(ctx.db, {
      startDate: TODAY,
      status: 'draft',
      lines: [{ unitPriceCents: 300_00 }],
    });
    const act = (action: string, payload?: object) =>
      ctx.injectAs('admin', {
        method: 'POST',
        url: `/api/contracts/${contract.id}/${action}`,
        ...(payload ? { headers: json, payload } : {}),
      });
    expect((await act('send')).statusCode).toBe(200);
    // The customer signs its insertion order: contract.accepted then; staff's activation raises none again.
    const [io] = await ctx.db.select().from(insertionOrders).where(eq(insertionOrders.contractId, contract.id));
    const signed = await ctx.app.inject({
      method: 'POST',
      url: `/api/io/${io.token}/accept`,
      payload: { signerName: 'Pat Buyer', agree: true },
    });
    expect(signed.statusCode, signed.body).toBe(200);
    for (const action of ['activate', 'pause', 'resume', 'pause']) {
      const response = await act(action);
      expect(response.statusCode, `${action}: ${response.body}`).toBe(200);
    }
    const canceled = await act('cancel', { reason: 'Budget cut' });
    expect(canceled.statusCode, canceled.body).toBe(200);
    // A resume makes the contract active again: contract.activated, as any way into active raises.
    expect(await typesAbout(contract.id)).toEqual([
      'contract.sent',
      'contract.accepted',
      'contract.activated',
      'contract.paused',
      'contract.activated',
      'contract.paused',
      'contract.canceled',
    ]);
    const events = await eventsAbout(contract.id);
    // Accepted while still sent: the customer signed before staff activated it.
    expect(events.map((e) => e.data.status)).toEqual([
      'sent',
      'sent',
      'active',
      'paused',
      'active',
      'paused',
      'canceled',
    ]);
    expect(events.at(-1)!.data).toMatchObject({ cancelReason: 'Budget cut', customerId: contract.customerId });
    expect(JSON.stringify(events)).not.toMatch(/payLink|pay_link_token|stripe/i);
    // Activation billed the first month: its invoice was issued with an event.
    const [first] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
    expect(await typesAbout(first.id)).toEqual(['invoice.issued']);

    // A draft activated without being sent was not accepted.
    const direct = await createBillableContract(ctx.db, {
      startDate: TODAY,
      status: 'draft',
      lines: [{ unitPriceCents: 10_00 }],
    });
    expect(
      (await ctx.injectAs('admin', { method: 'POST', url: `/api/contracts/${direct.contract.id}/activate` }))
        .statusCode,
    ).toBe(200);
    expect(await typesAbout(direct.contract.id)).toEqual(['contract.activated']);
  });

  it('a contract created live raises contract.activated, one created and sent contract.sent (product.md section 17)', async () => {
    const customer = await createTestCustomer(ctx.db);
    const product = await createTestProduct(ctx.db, { defaultPriceCents: 250_00 });
    const create = (switches: { sendToCustomer: boolean; makeActive: boolean }) =>
      ctx.injectAs('admin', {
        method: 'POST',
        url: '/api/contracts',
        headers: json,
        payload: {
          customerId: customer.id,
          startDate: TODAY,
          termMonths: 6,
          paymentMode: 'pay_link',
          setupFee: 0,
          description: 'Created from the form',
          lineItems: [{ productId: product.id, quantity: 1, unitPrice: 250, discount: 0 }],
          ...switches,
        },
      });
    const live = await create({ sendToCustomer: true, makeActive: true });
    expect(live.statusCode, live.body).toBe(201);
    expect(live.json().status).toBe('active');
    // Created live: activated, never sent and so never accepted; its first invoice was issued.
    expect(await typesAbout(live.json().id)).toEqual(['contract.activated']);
    expect((await eventsAbout(live.json().id))[0].data).toMatchObject({ status: 'active' });

    const sent = await create({ sendToCustomer: true, makeActive: false });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().status).toBe('sent');
    expect(await typesAbout(sent.json().id)).toEqual(['contract.sent']);
    expect((await eventsAbout(sent.json().id))[0].data).toMatchObject({ status: 'sent' });

    const draft = await create({ sendToCustomer: false, makeActive: false });
    expect(draft.statusCode, draft.body).toBe(201);
    expect(await typesAbout(draft.json().id)).toEqual([]);
  });

  it('invoice.issued for every invoice of a billing run, and invoice.paid for one paid at issue', async () => {
    const month = (offset: number) => {
      const d = new Date(`${TODAY.slice(0, 7)}-01T00:00:00Z`);
      d.setUTCMonth(d.getUTCMonth() + offset);
      return d.toISOString().slice(0, 10);
    };
    const made = await Promise.all(
      [0, 1, 2].map(() =>
        createBillableContract(ctx.db, { startDate: month(-2), lines: [{ unitPriceCents: 100_00 }] }),
      ),
    );
    // A customer holding $300.00 of credit (a credit note on an invoice it had paid): the billing run's credit
    // balance pays its next invoices ($110.00 each) as they are issued.
    const { contract: earlier, customer } = await createContractFor(ctx.db, null);
    const paidBefore = await createInvoice(ctx.db, earlier.id, { subtotalCents: 300_00 });
    expect((await payInvoice(ctx, paidBefore.id)).statusCode).toBeLessThan(300);
    const credited = await ctx.injectAs('finance', {
      method: 'POST',
      url: `/api/invoices/${paidBefore.id}/credit-notes`,
      headers: json,
      payload: { amount: 300, reason: 'Campaign canceled' },
    });
    expect(credited.statusCode, credited.body).toBeLessThan(300);
    const free = await createBillableContract(ctx.db, {
      startDate: month(-1),
      customerId: customer.id,
      lines: [{ unitPriceCents: 100_00 }],
    });
    for (const { contract } of [...made, free]) await runBilling(ctx.db, { contractId: contract.id });
    for (const { contract } of made) {
      const issued = await ctx.db.select().from(invoices).where(eq(invoices.contractId, contract.id));
      expect(issued).toHaveLength(3);
      for (const invoice of issued) {
        const events = await eventsAbout(invoice.id);
        expect(events.map((e) => e.type)).toEqual(['invoice.issued']);
        expect(events[0].data).toMatchObject({
          id: invoice.id,
          number: invoice.number,
          status: 'pending',
          totalCents: 110_00,
        });
      }
    }
    const paidByCredit = await ctx.db.select().from(invoices).where(eq(invoices.contractId, free.contract.id));
    expect(paidByCredit.map((i) => [i.status, i.totalCents])).toEqual([
      ['paid', 110_00],
      ['paid', 110_00],
    ]);
    for (const invoice of paidByCredit) {
      expect((await typesAbout(invoice.id)).sort()).toEqual(['invoice.issued', 'invoice.paid']);
    }
  });

  it('invoice.overdue once per invoice, when dunning first sees it past its due date', async () => {
    const { contract } = await createContractFor(ctx.db, null);
    const overdue = await createInvoice(ctx.db, contract.id, { subtotalCents: 80_00 });
    const deps = {
      db: ctx.db,
      mailer: createMailer({ SMTP_URL: undefined, MAIL_FROM: 'AdCRM <billing@adcrm.local>' }),
      baseUrl: 'http://localhost',
    };
    // The day before its due date: not overdue; on the due date: not yet; the day after: overdue.
    await runDunning(deps, { contractId: contract.id, asOf: overdue.dueDate });
    expect(await typesAbout(overdue.id)).toEqual([]);
    const dayAfter = new Date(Date.parse(overdue.dueDate) + 86_400_000).toISOString().slice(0, 10);
    await runDunning(deps, { contractId: contract.id, asOf: dayAfter });
    await runDunning(deps, { contractId: contract.id, asOf: dayAfter });
    await runDunning(deps, { contractId: contract.id });
    const events = await eventsAbout(overdue.id);
    expect(events.map((e) => e.type)).toEqual(['invoice.overdue']);
    expect(events[0].data).toMatchObject({ status: 'pending', amountDueCents: 80_00, dueDate: overdue.dueDate });
  });

  it('payment.failed for a declined card, with the failure and no card secret', async () => {
    const { contract } = await createContractFor(ctx.db, null);
    const invoice = await createInvoice(ctx.db, contract.id, { subtotalCents: 60_00 });
    const failed = await ctx.db.transaction((tx) =>
      recordFailedPayment(tx, {
        invoiceId: invoice.id,
        amountCents: 60_00,
        method: 'card',
        provider: 'builtin',
        providerPaymentId: 'pi_declined_webhook',
        cardBrand: 'visa',
        cardLast4: '0002',
        failureMessage: 'Your card was declined.',
      }),
    );
    const [event] = await eventsAbout(failed.payment.id);
    expect(event.type).toBe('payment.failed');
    expect(event.data).toMatchObject({
      object: 'payment',
      invoiceId: invoice.id,
      status: 'failed',
      amountCents: 60_00,
      failureMessage: 'Your card was declined.',
    });
  });

  it('payment_method.saved and payment_method.failed for autopay, and payment.failed with its attempt and next attempt', async () => {
    const customer = await createTestCustomer(ctx.db, {
      name: 'Webhook Autopay',
      email: 'webhook-autopay@example.test',
    });
    const made = await createBillableContract(ctx.db, {
      customerId: customer.id,
      startDate: '2026-10-20',
      termMonths: 1,
      lines: [{ unitPriceCents: 50_00 }],
    });
    await runBilling(ctx.db, { contractId: made.contract.id, asOf: '2026-10-20' });
    const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.contractId, made.contract.id));
    const saveCard = async (cardNumber: string) => {
      await ctx.injectAs('finance', { method: 'POST', url: `/api/customers/${customer.id}/payment-setup-link` });
      const [mail] = await ctx.db
        .select()
        .from(outboxEmails)
        .where(eq(outboxEmails.to, 'webhook-autopay@example.test'))
        .orderBy(desc(outboxEmails.createdAt))
        .limit(1);
      const token = /\/setup\/([A-Za-z0-9_-]+)/.exec(mail!.deliveryText ?? mail!.text)![1];
      const saved = await ctx.app.inject({
        method: 'POST',
        url: `/api/setup/${token}`,
        payload: { cardNumber, expiry: '12 / 34', cvc: '123', name: 'Ada Lovelace', consent: true, makeDefault: true },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      return saved.json().method.id as string;
    };

    const expired = await saveCard('4000000000000069');
    expect(await typesAbout(expired)).toEqual(['payment_method.saved', 'payment_method.failed']);
    const [failedEvent] = (await eventsAbout(expired)).filter((e) => e.type === 'payment_method.failed');
    expect(failedEvent!.data).toMatchObject({
      object: 'payment_method',
      customerId: customer.id,
      brand: 'visa',
      last4: '0069',
      status: 'expired',
    });
    expect(JSON.stringify(failedEvent!.data)).not.toMatch(/4000000000000069|fingerprint|pm_/);

    await saveCard('4000000000009995');
    const failures = await ctx.db
      .select({ data: webhookEvents.data })
      .from(webhookEvents)
      .where(and(eq(webhookEvents.type, 'payment.failed'), sql`${webhookEvents.data}->>'invoiceId' = ${invoice!.id}`))
      .orderBy(asc(webhookEvents.createdAt));
    expect(
      failures.map(({ data }) => {
        const d = data as Record<string, unknown>;
        return [d.attempt, d.nextAttemptAt, d.method];
      }),
    ).toEqual([
      [1, null, 'card_on_file'],
      [2, plusDays(TODAY, 3), 'card_on_file'],
    ]);
  });

  it('delivery.reconciled when an under-delivered period is settled, with its remedy and credit note', async () => {
    const made = await createBillableContract(ctx.db, {
      startDate: '2026-06-01',
      lines: [{ quantity: 500, unitPriceCents: 12_00, priceMetric: 'cpm' }],
    });
    await runBilling(ctx.db, { contractId: made.contract.id, asOf: '2026-09-01' });
    const [line] = await ctx.db
      .select()
      .from(contractLineItems)
      .where(eq(contractLineItems.contractId, made.contract.id));
    const response = await ctx.injectAs('admin', {
      method: 'PUT',
      url: `/api/contracts/${made.contract.id}/delivery/${line.id}/2026-07`,
      payload: { impressions: 420_000, clicks: 840 },
    });
    expect(response.statusCode, response.body).toBe(200);
    const [period] = await ctx.db
      .select()
      .from(lineDeliveries)
      .where(and(eq(lineDeliveries.contractId, made.contract.id), eq(lineDeliveries.periodStart, '2026-07-01')));
    const [event] = await eventsAbout(period.id);
    expect(event.type).toBe('delivery.reconciled');
    expect(event.data).toMatchObject({
      object: 'delivery',
      contractId: made.contract.id,
      periodStart: '2026-07-01',
      bookedImpressions: 500_000,
      deliveredImpressions: 420_000,
      shortfallImpressions: 80_000,
      remedy: 'credit',
      creditNoteId: period.creditNoteId,
    });
    expect(await typesAbout(period.creditNoteId!)).toEqual(['credit_note.issued']);
  });

  it('payout.disbursed when finance marks an approved payout paid', async () => {
    const rep = await createRep(ctx);
    await earn(ctx, rep.id, 1000_00);
    const requested = await ctx.injectAs(rep, {
      method: 'POST',
      url: '/api/payouts/request',
      headers: json,
      payload: { requestedAmount: 40 },
    });
    expect(requested.statusCode, requested.body).toBeLessThan(300);
    const id = requested.json().id;
    for (const [action, payload] of [
      ['approve', { approvedAmount: 40 }],
      ['disburse', {}],
    ] as const) {
      const reviewed = await ctx.injectAs('finance', {
        method: 'POST',
        url: `/api/payouts/${id}/${action}`,
        headers: json,
        payload,
      });
      expect(reviewed.statusCode, reviewed.body).toBe(200);
    }
    const [event] = await eventsAbout(id);
    expect(event.type).toBe('payout.disbursed');
    expect(event.data).toMatchObject({ object: 'payout', repId: rep.id, status: 'disbursed', approvedCents: 40_00 });
  });

  it('deal.won when the contract drafted from a deal goes live, deal.lost with the reason a rep gives', async () => {
    const customer = await createTestCustomer(ctx.db, { name: 'Pier 9 Outfitters', email: 'ads@pier9.test' });
    const product = await createTestProduct(ctx.db, { name: 'Sidebar banner', defaultPriceCents: 300_00 });
    const newDeal = async (title: string) => {
      const response = await ctx.injectAs('sales', {
        method: 'POST',
        url: '/api/deals',
        headers: json,
        payload: {
          customerId: customer.id,
          title,
          amount: 900,
          lines: [{ productId: product.id, quantity: 3, unitPrice: 300 }],
        },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json() as { id: string; contractId: string | null };
    };
    const won = await newDeal('Harbor days');
    const drafted = await ctx.injectAs('sales', { method: 'POST', url: `/api/deals/${won.id}/contract` });
    expect(drafted.statusCode, drafted.body).toBe(201);
    const contractId = drafted.json().contractId as string;
    const live = await ctx.injectAs('sales', { method: 'POST', url: `/api/contracts/${contractId}/activate` });
    expect(live.statusCode, live.body).toBe(200);
    const [wonEvent] = await eventsAbout(won.id);
    expect(wonEvent.type).toBe('deal.won');
    expect(wonEvent.data).toMatchObject({
      object: 'deal',
      stage: 'Won',
      amountCents: 900_00,
      probability: 100,
      contractId,
    });

    const lost = await newDeal('Winter sale');
    const lose = await ctx.injectAs('sales', {
      method: 'POST',
      url: `/api/deals/${lost.id}/lose`,
      headers: json,
      payload: { reason: 'Budget' },
    });
    expect(lose.statusCode, lose.body).toBe(200);
    const [lostEvent] = await eventsAbout(lost.id);
    expect(lostEvent.type).toBe('deal.lost');
    expect(lostEvent.data).toMatchObject({ object: 'deal', stage: 'Lost', lostReason: 'Budget', probability: 0 });
  });

  it('delivers every one of the 16 events to a real receiver at least once, signed, through a failure and retry', async () => {
    // Each invoice.paid is refused on its first attempt, taken on its second (the 5 s retry).
    receiver.respond = (request) =>
      request.json.type === 'invoice.paid' && request.seenBefore === 0 ? { status: 500 } : { status: 200 };
    const start = Date.now() + 1000;
    for (const at of [start, start + 6_000, start + 12_000]) {
      while ((await deliverDueWebhooks(ctx.db, { now: new Date(at) })).claimed > 0) {}
    }
    const seen = new Set(receiver.received.map((r) => r.json.type));
    expect([...seen].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const request of receiver.received) expect(request.verifiedWith, request.body).toEqual([0]);
    const paid = receiver.received.filter((r) => r.json.type === 'invoice.paid');
    const ids = [...new Set(paid.map((r) => r.id))];
    for (const id of ids) {
      expect(paid.filter((r) => r.id === id).map((r) => r.seenBefore)).toEqual([0, 1]);
    }
    // Every delivery is done, and every event raised while subscribed was delivered.
    const [left] = await ctx.db
      .select({
        pending: sql<number>`count(*) filter (where status <> 'succeeded')::int`,
        all: sql<number>`count(*)::int`,
      })
      .from(webhookDeliveries);
    expect(left.pending).toBe(0);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(left.all);
  });
});
