import type { CustomerTimeline, TimelineEntry } from '@shared/contracts/customer-timeline';
import { TIMELINE_KINDS } from '@shared/contracts/customer-timeline';
import { arrayOf, nullableString, object, string } from '../../lib/response-schema';

/** The customer's story as the API answers it (lib/response-schema.ts): only these fields are ever sent. */
export const customerTimelineResponse = object<CustomerTimeline>({
  entries: arrayOf(
    object<TimelineEntry>({
      id: string,
      at: string,
      kind: { type: 'string', enum: [...TIMELINE_KINDS] },
      title: string,
      detail: nullableString,
      link: nullableString,
      actorName: nullableString,
    }),
  ),
  nextBefore: nullableString,
});
