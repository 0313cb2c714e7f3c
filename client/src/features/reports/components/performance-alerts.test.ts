import type { Report } from '@shared/contracts/reports';
import { describe, expect, it } from 'vitest';
import { performanceAlerts } from './performance-alerts';

const base: Report = {
  range: 'last_3_months',
  from: '2026-09-01',
  to: '2026-11-30',
  scope: 'all',
  revenue: {
    total: 3000,
    byMonth: [
      { month: '2026-09', amount: 1000 },
      { month: '2026-10', amount: 1000 },
      { month: '2026-11', amount: 1000 },
    ],
  },
  mrr: 1000,
  statusCounts: { draft: 0, sent: 0, active: 3, paused: 0, canceled: 0, completed: 0 },
  topProducts: [],
  alerts: {
    overdueInvoices: 0,
    overdueByStage: { overdue: 0, first_reminder: 0, second_reminder: 0, contract_paused: 0 },
    contractsPausedForNonPayment: 0,
    expiringContracts: 0,
    payoutsAwaitingReview: 0,
  },
  quickStats: {
    newContracts: 1,
    averageContractValue: 100,
    invoicesIssued: 3,
    billed: 3000,
    collectionRate: 100,
    dueInvoices: 10,
    dueTotal: 3000,
    dueCollected: 3000,
    openBalance: 0,
    activeCustomers: 3,
  },
  recentActivity: [],
  delivery: {
    periodsRecorded: 0,
    bookedImpressions: 0,
    deliveredImpressions: 0,
    deliveryRate: null,
    creditsIssued: 0,
    creditsAmount: 0,
    makegoodImpressions: 0,
  },
  inventory: [],
  renewals: {
    endedCount: 0,
    endedValue: 0,
    renewedCount: 0,
    renewedValue: 0,
    countRate: null,
    valueRate: null,
    byRep: [],
  },
  autopay: {
    paidInvoices: 0,
    autopayInvoices: 0,
    autopayShare: null,
    autopayAmount: 0,
    recoveredInvoices: 0,
    recoveredAmount: 0,
  },
  agencies: {
    invoices: 0,
    gross: 0,
    commission: 0,
    net: 0,
    deductedCommission: 0,
    owedCommission: 0,
    agencyCount: 0,
    byAgency: [],
  },
};
const today = new Date('2026-11-21T12:00:00Z');

describe('performanceAlerts', () => {
  it('is empty when everything is on track', () => {
    expect(performanceAlerts(base, today)).toEqual([]);
  });

  it('flags a low collection rate, a revenue drop between complete months and open items', () => {
    const report: Report = {
      ...base,
      revenue: {
        total: 1750,
        byMonth: [
          { month: '2026-09', amount: 1000 },
          { month: '2026-10', amount: 750 },
          { month: '2026-11', amount: 0 },
        ],
      },
      statusCounts: { ...base.statusCounts, sent: 1 },
      alerts: {
        overdueInvoices: 2,
        overdueByStage: { overdue: 1, first_reminder: 1, second_reminder: 0, contract_paused: 0 },
        contractsPausedForNonPayment: 0,
        expiringContracts: 1,
        payoutsAwaitingReview: 3,
      },
      quickStats: { ...base.quickStats, collectionRate: 58.3 },
    };
    expect(performanceAlerts(report, today)).toEqual([
      {
        tone: 'warning',
        text: 'Collection rate is 58.3% of what fell due (target 90%): follow up on unpaid invoices.',
      },
      { tone: 'warning', text: 'Revenue in October 2026 was 25% below September 2026.' },
      { tone: 'warning', text: '2 invoices are overdue: 1 not reminded yet, 1 after the first reminder.' },
      { tone: 'info', text: '1 contract ends within 30 days: time for renewal conversations.' },
      { tone: 'info', text: '1 contract is sent and waiting for the customer.' },
      { tone: 'info', text: '3 payout requests are waiting for review.' },
    ]);
  });

  it('flags the collection rate only once at least 5 invoices fell due in the range', () => {
    const collection = (dueInvoices: number, collectionRate: number | null): Report => ({
      ...base,
      quickStats: { ...base.quickStats, dueInvoices, collectionRate },
    });
    const alert = {
      tone: 'warning',
      text: 'Collection rate is 20.7% of what fell due (target 90%): follow up on unpaid invoices.',
    };
    // [invoices fallen due, collection rate, alerts]
    const table: [number, number | null, unknown[]][] = [
      [0, null, []],
      [1, 20.7, []],
      [4, 20.7, []],
      [5, 20.7, [alert]],
      [40, 20.7, [alert]],
      [5, 90, []],
      [5, 89.9, [{ ...alert, text: alert.text.replace('20.7', '89.9') }]],
      [5, null, []],
    ];
    for (const [dueInvoices, rate, expected] of table) {
      expect(performanceAlerts(collection(dueInvoices, rate), today), `${dueInvoices} due, ${rate}%`).toEqual(expected);
    }
  });

  it('compares complete months only: the running month is left out', () => {
    const report: Report = {
      ...base,
      revenue: {
        total: 2200,
        byMonth: [
          { month: '2026-10', amount: 2000 },
          { month: '2026-11', amount: 200 },
        ],
      },
    };
    expect(performanceAlerts(report, today)).toEqual([]);
    const growth: Report = {
      ...base,
      revenue: {
        total: 2300,
        byMonth: [
          { month: '2026-09', amount: 1000 },
          { month: '2026-10', amount: 1300 },
          { month: '2026-11', amount: 0 },
        ],
      },
    };
    expect(performanceAlerts(growth, today)).toEqual([
      { tone: 'info', text: 'Revenue in October 2026 was 30% above September 2026.' },
    ]);
  });

  it('breaks the overdue invoices down by dunning stage, leaving out the stages that have none', () => {
    const alertsWith = (alerts: Partial<Report['alerts']>): Report => ({
      ...base,
      alerts: { ...base.alerts, ...alerts },
    });
    expect(
      performanceAlerts(
        alertsWith({
          overdueInvoices: 7,
          overdueByStage: { overdue: 1, first_reminder: 2, second_reminder: 3, contract_paused: 1 },
        }),
        today,
      ),
    ).toEqual([
      {
        tone: 'warning',
        text: '7 invoices are overdue: 1 not reminded yet, 2 after the first reminder, 3 after the second reminder, 1 on a paused contract.',
      },
    ]);
    expect(
      performanceAlerts(
        alertsWith({
          overdueInvoices: 3,
          overdueByStage: { overdue: 0, first_reminder: 0, second_reminder: 1, contract_paused: 2 },
        }),
        today,
      ),
    ).toEqual([
      { tone: 'warning', text: '3 invoices are overdue: 1 after the second reminder, 2 on paused contracts.' },
    ]);
    expect(
      performanceAlerts(
        alertsWith({
          overdueInvoices: 1,
          overdueByStage: { overdue: 1, first_reminder: 0, second_reminder: 0, contract_paused: 0 },
        }),
        today,
      ),
    ).toEqual([{ tone: 'warning', text: '1 invoice is overdue: 1 not reminded yet.' }]);
  });

  it('counts the contracts paused for non-payment in an alert of their own', () => {
    const paused = (contractsPausedForNonPayment: number): Report => ({
      ...base,
      alerts: { ...base.alerts, contractsPausedForNonPayment },
    });
    expect(performanceAlerts(paused(1), today)).toEqual([
      { tone: 'warning', text: '1 contract is paused for non-payment.' },
    ]);
    expect(performanceAlerts(paused(4), today)).toEqual([
      { tone: 'warning', text: '4 contracts are paused for non-payment.' },
    ]);
  });

  it('puts the paused contracts right after the overdue invoices', () => {
    const report: Report = {
      ...base,
      alerts: {
        overdueInvoices: 2,
        overdueByStage: { overdue: 0, first_reminder: 0, second_reminder: 0, contract_paused: 2 },
        contractsPausedForNonPayment: 1,
        expiringContracts: 2,
        payoutsAwaitingReview: 0,
      },
    };
    expect(performanceAlerts(report, today)).toEqual([
      { tone: 'warning', text: '2 invoices are overdue: 2 on paused contracts.' },
      { tone: 'warning', text: '1 contract is paused for non-payment.' },
      { tone: 'info', text: '2 contracts end within 30 days: time for renewal conversations.' },
    ]);
  });
});
