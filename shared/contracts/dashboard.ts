import { z } from 'zod';

/** GET /api/dashboard/stats: figures over the contracts the caller may see (a sales rep: their own). */
export type DashboardStats = {
  activeContracts: number;
  /** Recurring amount per month of the active contracts, in dollars. */
  monthlyRevenue: number;
  totalContracts: number;
  contractsThisMonth: number;
};

export const dashboardStatsQuerySchema = z.object({
  mine: z.enum(['true', 'false'], { message: 'mine must be true or false' }).optional(),
});

export const auditQuerySchema = z.object({
  entity: z.string().trim().max(50).optional(),
  entityId: z.string().trim().max(100).optional(),
});

export type AuditEvent = {
  id: number;
  action: string;
  entity: string;
  entityId: string;
  actorId: string | null;
  actorName: string | null;
  createdAt: string;
};

/** GET /api/client/contracts: a client's own contracts. */
export type ClientContract = {
  id: string;
  title: string | null;
  description: string | null;
  status: string;
  startDate: string;
  termMonths: number | null;
  paymentMode: string;
  totalAmount: number;
  monthlyAmount: number;
};
