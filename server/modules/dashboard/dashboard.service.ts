import type { User } from '@shared/contracts/auth';
import type { DashboardStats } from '@shared/contracts/dashboard';
import { centsToAmount } from '@shared/money';
import type { Db } from '../../db/client';
import { cashReceivedThisMonth, contractFiguresThisMonth, reportScope } from '../reports/reports.service';

/**
 * The dashboards' cards, from the reports' own queries for the current month: contract counts and MRR
 * (one pass over the caller's contracts) and the cash received this calendar month.
 */
export async function dashboardStats(
  db: Db,
  actor: Pick<User, 'id' | 'role'>,
  mine: boolean,
  now = new Date(),
): Promise<DashboardStats> {
  const scope = reportScope(actor, mine);
  const [contracts, monthlyRevenue] = await Promise.all([
    contractFiguresThisMonth(db, scope, now),
    cashReceivedThisMonth(db, scope, now),
  ]);
  const counts = contracts.statusCounts;
  return {
    activeContracts: counts.active,
    monthlyRevenue,
    mrr: centsToAmount(contracts.mrrCents),
    totalContracts: Object.values(counts).reduce((sum, n) => sum + n, 0),
    contractsThisMonth: contracts.newContracts,
  };
}
