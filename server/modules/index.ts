import type { FastifyInstance } from 'fastify';
import { auditRoutes } from './audit/audit.routes';
import { authRoutes } from './auth/auth.routes';
import { billingRoutes } from './billing/billing.routes';
import { clientPortalRoutes } from './client-portal/client-portal.routes';
import { commissionsRoutes } from './commissions/commissions.routes';
import { contractsRoutes } from './contracts/contracts.routes';
import { creativesRoutes } from './creatives/creatives.routes';
import { creditNotesRoutes } from './credit-notes/credit-notes.routes';
import { customersRoutes } from './customers/customers.routes';
import { dashboardRoutes } from './dashboard/dashboard.routes';
import { deliveryRoutes } from './delivery/delivery.routes';
import { healthRoutes } from './health/health.routes';
import { invitationsRoutes } from './invitations/invitations.routes';
import { invoicesRoutes } from './invoices/invoices.routes';
import { notificationsRoutes } from './notifications/notifications.routes';
import { outboxRoutes } from './outbox/outbox.routes';
import { packagesRoutes } from './packages/packages.routes';
import { paymentsRoutes } from './payments/payments.routes';
import { productsRoutes } from './products/products.routes';
import { reportsRoutes } from './reports/reports.routes';
import { settingsRoutes } from './settings/settings.routes';
import { usersRoutes } from './users/users.routes';

/** Every feature's routes, registered explicitly. Each route declares its access rule (plugins/authorize.ts). */
export async function registerRoutes(app: FastifyInstance): Promise<void> {
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(usersRoutes);
  await app.register(settingsRoutes);
  await app.register(outboxRoutes);
  await app.register(customersRoutes);
  await app.register(productsRoutes);
  await app.register(packagesRoutes);
  await app.register(contractsRoutes);
  await app.register(dashboardRoutes);
  await app.register(auditRoutes);
  await app.register(clientPortalRoutes);
  await app.register(deliveryRoutes);
  await app.register(creativesRoutes);
  await app.register(invitationsRoutes);
  await app.register(invoicesRoutes);
  await app.register(billingRoutes);
  await app.register(paymentsRoutes);
  await app.register(creditNotesRoutes);
  await app.register(notificationsRoutes);
  await app.register(reportsRoutes);
  await app.register(commissionsRoutes);
}
