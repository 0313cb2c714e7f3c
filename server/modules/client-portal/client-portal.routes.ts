import { listQuerySchema } from '@shared/contracts/common';
import type { ClientContract } from '@shared/contracts/dashboard';
import { centsToAmount } from '@shared/money';
import { and, count, desc, eq, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contracts } from '../../db/schema';
import { sendPage } from '../../lib/http';

/** GET /api/client/contracts: the signed-in client's own contracts (their linked customer's), never drafts. */
export async function clientPortalRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/client/contracts',
    { config: { access: ['portal:access'] }, schema: { querystring: listQuerySchema } },
    async (request, reply) => {
      const customerId = request.user!.customerId;
      if (!customerId) return sendPage(reply, { rows: [], total: 0 });
      const where = and(eq(contracts.customerId, customerId), ne(contracts.status, 'draft'));
      const [rows, [{ total }]] = await Promise.all([
        app.db
          .select()
          .from(contracts)
          .where(where)
          .orderBy(desc(contracts.createdAt))
          .limit(request.query.limit)
          .offset(request.query.offset),
        app.db.select({ total: count() }).from(contracts).where(where),
      ]);
      const result: ClientContract[] = rows.map((c) => ({
        id: c.id,
        title: c.title,
        description: c.description,
        status: c.status,
        startDate: c.startDate,
        termMonths: c.termMonths,
        paymentMode: c.paymentMode,
        totalAmount: centsToAmount(c.totalCents),
        monthlyAmount: centsToAmount(c.monthlyAmountCents),
      }));
      return sendPage(reply, { rows: result, total });
    },
  );
}
