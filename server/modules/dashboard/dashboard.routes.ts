import { type DashboardStats, dashboardStatsQuerySchema } from '@shared/contracts/dashboard';
import { centsToAmount } from '@shared/money';
import { can } from '@shared/permissions';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contracts } from '../../db/schema';

/** GET /api/dashboard/stats: one aggregate query; a sales rep (or anyone asking with mine=true) gets their own figures. */
export async function dashboardRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/dashboard/stats',
    { config: { access: ['report:read:any', 'report:read:own'] }, schema: { querystring: dashboardStatsQuerySchema } },
    async (request): Promise<DashboardStats> => {
      const user = request.user!;
      const own = request.query.mine === 'true' || !can(user, 'report:read:any');
      const scope = own ? sql`${contracts.salesRepId} = ${user.id}` : sql`true`;
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
