import type { Activity } from '@shared/contracts/activities';
import type { User } from '@shared/contracts/auth';
import { QueryClient } from '@tanstack/react-query';

/** Records as the API answers them, for the activities' component tests. */

export const CUSTOMER_ID = '00000000-0000-4000-8000-0000000000c1';
export const REP_ID = '00000000-0000-4000-8000-0000000000a1';

export const REP: User = {
  id: REP_ID,
  firstName: 'Jordan',
  lastName: 'Rep',
  email: 'jordan@example.test',
  role: 'sales',
  commissionRate: 0.05,
  isActive: true,
  customerId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};

export function makeActivity(fields: Partial<Activity> = {}): Activity {
  return {
    id: '00000000-0000-4000-8000-0000000000f1',
    type: 'task',
    subject: 'Call Bella Notte about Q1',
    body: null,
    dueAt: '2026-12-04T14:00:00.000Z',
    durationMinutes: null,
    outcome: null,
    done: false,
    doneAt: null,
    overdue: false,
    remindAt: '2026-12-04T14:00:00.000Z',
    customerId: CUSTOMER_ID,
    customerName: 'Bella Notte Trattoria',
    dealId: null,
    dealTitle: null,
    contactId: null,
    contactName: null,
    ownerId: REP_ID,
    ownerName: 'Jordan Rep',
    createdAt: '2026-12-01T10:00:00.000Z',
    updatedAt: '2026-12-01T10:00:00.000Z',
    ...fields,
  };
}

export const testQueryClient = () =>
  new QueryClient({
    defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false }, mutations: { retry: false } },
  });
