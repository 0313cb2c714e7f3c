import type { Activity } from '@shared/contracts/activities';
import { arrayOf, boolean, nullableInteger, nullableString, object, string } from '../../lib/response-schema';

/** An activity as the API sends it (lib/response-schema.ts): only these fields. */
export const activityResponse = object<Activity>({
  id: string,
  type: string,
  subject: string,
  body: nullableString,
  dueAt: nullableString,
  durationMinutes: nullableInteger,
  outcome: nullableString,
  done: boolean,
  doneAt: nullableString,
  overdue: boolean,
  remindAt: nullableString,
  customerId: string,
  customerName: string,
  dealId: nullableString,
  dealTitle: nullableString,
  contactId: nullableString,
  contactName: nullableString,
  ownerId: string,
  ownerName: string,
  createdAt: string,
  updatedAt: string,
});
export const activityListResponse = arrayOf(activityResponse);
