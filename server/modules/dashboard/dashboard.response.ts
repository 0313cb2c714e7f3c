import type { DashboardStats } from '@shared/contracts/dashboard';
import { number, object } from '../../lib/response-schema';

/** GET /api/dashboard/stats (lib/response-schema.ts): only these fields are ever sent. */
export const dashboardStatsResponse = object<DashboardStats>({
  activeContracts: number,
  monthlyRevenue: number,
  mrr: number,
  totalContracts: number,
  contractsThisMonth: number,
});
