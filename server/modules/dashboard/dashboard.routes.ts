import type { DashboardStats } from '@shared/contracts/dashboard';
import { centsToAmount } from '@shared/money';
import { can } from '@shared/permissions';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { contracts } from '../../db/schema';

/** GET /api/dashboard/stats: one aggregate query; a sales rep gets their own figures. */
export async function dashboardRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/api/dashboard/stats',
    { config: { access: ['report:read:any', 'report:read:own'] } },
    async (request): Promise<DashboardStats> => {
      const user = request.user!;
      const scope = can(user, 'report:read:any') ? sql`true` : sql`${contracts.salesRepId} = ${user.id}`;
      const [row] = await app.db
        .select({
          activeContracts: sql<number>`count(*) filter (where ${contracts.status} = 'active')::int`,
          monthlyCents: sql<string>`coalesce(sum(${contracts.monthlyAmountCents}) filter (where ${contracts.status} = 'active'), 0)::bigint`,
          totalContracts: sql<number>`count(*)::int`,
          contractsThisMonth: sql<number>`count(*) filter (where ${contracts.createdAt} >= date_trunc('month', now()))::int`,
        })
        .from(contracts)
        .where(scope);
      return {
        activeContracts: row.activeContracts,
        monthlyRevenue: centsToAmount(Number(row.monthlyCents)),
        totalContracts: row.totalContracts,
        contractsThisMonth: row.contractsThisMonth,
      };
    },
  );
}
