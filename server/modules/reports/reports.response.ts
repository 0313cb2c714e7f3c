import type { SellThroughRow } from '@shared/contracts/inventory';
import type { Report, ReportActivity } from '@shared/contracts/reports';
import { arrayOf, integer, nullableNumber, nullableString, number, object, string } from '../../lib/response-schema';

type Revenue = Report['revenue'];
type TopProduct = Report['topProducts'][number];

const renewalFigures = {
  endedCount: integer,
  endedValue: number,
  renewedCount: integer,
  renewedValue: number,
  countRate: nullableNumber,
  valueRate: nullableNumber,
};

/** GET /api/reports (lib/response-schema.ts): only these fields are ever sent. */
export const reportResponse = object<Report>({
  range: string,
  from: string,
  to: string,
  scope: string,
  revenue: object<Revenue>({
    total: number,
    byMonth: arrayOf(object<Revenue['byMonth'][number]>({ month: string, amount: number })),
  }),
  mrr: number,
  statusCounts: object<Report['statusCounts']>({
    draft: integer,
    sent: integer,
    active: integer,
    paused: integer,
    canceled: integer,
    completed: integer,
  }),
  topProducts: arrayOf(object<TopProduct>({ productId: string, name: string, revenue: number })),
  alerts: object<Report['alerts']>({
    overdueInvoices: integer,
    overdueByStage: object<Report['alerts']['overdueByStage']>({
      overdue: integer,
      first_reminder: integer,
      second_reminder: integer,
      contract_paused: integer,
    }),
    contractsPausedForNonPayment: integer,
    expiringContracts: integer,
    payoutsAwaitingReview: integer,
  }),
  quickStats: object<Report['quickStats']>({
    newContracts: integer,
    averageContractValue: number,
    invoicesIssued: integer,
    billed: number,
    collectionRate: nullableNumber,
    dueInvoices: integer,
    dueTotal: number,
    dueCollected: number,
    openBalance: number,
    activeCustomers: integer,
  }),
  recentActivity: arrayOf(
    object<ReportActivity>({
      id: number,
      action: string,
      entity: string,
      entityId: string,
      actorName: nullableString,
      label: nullableString,
      summary: string,
      link: nullableString,
      createdAt: string,
    }),
  ),
  delivery: object<Report['delivery']>({
    periodsRecorded: integer,
    bookedImpressions: integer,
    deliveredImpressions: integer,
    deliveryRate: nullableNumber,
    creditsIssued: integer,
    creditsAmount: number,
    makegoodImpressions: integer,
  }),
  inventory: arrayOf(
    object<SellThroughRow>({
      productId: string,
      productName: string,
      capacity: integer,
      days: integer,
      capacityUnits: integer,
      bookedUnits: integer,
      heldUnits: integer,
      sellThrough: number,
    }),
  ),
  renewals: object<Report['renewals']>({
    ...renewalFigures,
    byRep: arrayOf(
      object<Report['renewals']['byRep'][number]>({
        salesRepId: nullableString,
        salesRepName: string,
        ...renewalFigures,
      }),
    ),
  }),
  autopay: object<Report['autopay']>({
    paidInvoices: integer,
    autopayInvoices: integer,
    autopayShare: nullableNumber,
    autopayAmount: number,
    recoveredInvoices: integer,
    recoveredAmount: number,
  }),
  agencies: object<Report['agencies']>({
    invoices: integer,
    gross: number,
    commission: number,
    net: number,
    deductedCommission: number,
    owedCommission: number,
    agencyCount: integer,
    byAgency: arrayOf(
      object<Report['agencies']['byAgency'][number]>({
        agencyId: string,
        name: string,
        advertisers: integer,
        invoices: integer,
        gross: number,
        commission: number,
        net: number,
      }),
    ),
  }),
});
