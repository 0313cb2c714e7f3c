import { Clock } from 'lucide-react';
import { endedSession } from '../session';

/** On the login screen after a session ended: says so (the sign-in then returns to where the user was). */
export function SessionEndedNotice() {
  if (!endedSession()) return null;
  return (
    <p
      role="status"
      className="mb-4 flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
      data-testid="session-ended"
    >
      <Clock className="mt-0.5 size-4 shrink-0" aria-hidden />
      Your session has ended, please sign in again
    </p>
  );
}
