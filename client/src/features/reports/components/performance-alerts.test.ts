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
  alerts: { overdueInvoices: 0, expiringContracts: 0, payoutsAwaitingReview: 0 },
  quickStats: {
    newContracts: 1,
    averageContractValue: 100,
    invoicesIssued: 3,
    billed: 3000,
    collectionRate: 100,
    openBalance: 0,
    activeCustomers: 3,
  },
  recentActivity: [],
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
      alerts: { overdueInvoices: 2, expiringContracts: 1, payoutsAwaitingReview: 3 },
      quickStats: { ...base.quickStats, collectionRate: 58.3 },
    };
    expect(performanceAlerts(report, today)).toEqual([
      {
        tone: 'warning',
        text: 'Collection rate is 58.3% of what was billed (target 90%): follow up on unpaid invoices.',
      },
      { tone: 'warning', text: 'Revenue in October 2026 was 25% below September 2026.' },
      { tone: 'warning', text: '2 invoices are overdue.' },
      { tone: 'info', text: '1 contract ends within 30 days: time for renewal conversations.' },
      { tone: 'info', text: '1 contract is sent and waiting for the customer.' },
      { tone: 'info', text: '3 payout requests are waiting for review.' },
    ]);
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
});
