import { z } from 'zod';
import type { ContractNextStep } from './contract-next-step';
import type { CustomerIoStep } from './insertion-orders';

/** GET /api/dashboard/stats: figures over the contracts the caller may see (a sales rep: their own). */
export type DashboardStats = {
  activeContracts: number;
  /**
   * Cash received this calendar month (UTC), in dollars: payments received less refunds and credit balances paid
   * back, never a credit balance applied; the reports' cash figure and finance's Cash this month (decision 048).
   */
  monthlyRevenue: number;
  /** Recurring amount per month of the active contracts (MRR), in dollars. */
  mrr: number;
  totalContracts: number;
  contractsThisMonth: number;
};

export const dashboardStatsQuerySchema = z.object({
  mine: z.enum(['true', 'false'], { message: 'mine must be true or false' }).optional(),
});

// The audit trail's filters and events live in ./audit (the Audit screen and the dashboard read the same route).
export { type AuditEvent, auditQuerySchema } from './audit';

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
  /** From the billing engine, as on the staff's contract page (shared/contracts/contract-responses.ts). */
  monthlyAmount: number;
  oneTimeAmount: number;
  /** What the term bills before tax; null when indefinite. */
  termValue: number | null;
  /** The newest insertion order version to review and sign (product.md section 15); null: none sent. */
  insertionOrder: CustomerIoStep | null;
  /** What happens next for a sent contract that is signed (or has no insertion order): contract-next-step.ts. */
  nextStep: ContractNextStep | null;
};
