import type { Activity } from '@shared/contracts/activities';
import { lazyWhen } from '@/components/ui/lazy-when';

/** The dialog loads the first time it opens (docs/decisions/017-performance.md): its form brings zod with it. */
export const LazyActivityDialog = lazyWhen(
  () => import('./activity-dialog').then((module) => module.ActivityDialog),
  (props) => props.open,
);

/** Which dialog is open: a new activity, or one to edit. */
export type Editing = { activity: Activity | null } | null;
