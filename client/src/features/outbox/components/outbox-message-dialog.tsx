import { Badge } from '@/components/ui/badge';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { EmailText } from '@/components/ui/email-text';
import { Fact } from '@/components/ui/fact';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useOutboxEmail } from '../api/get-outbox-email';

export const OUTBOX_STATUS_TONE = { queued: 'yellow', sent: 'green', failed: 'red' } as const;

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-US') : '—');

/**
 * One outbox message opened: recipient, subject, status, attempts, when it was kept and sent, the last error,
 * and the body as text and as HTML. The HTML is shown in a sandboxed frame (no scripts, no forms, no navigation of
 * this page, no access to it), and links that grant something show masked, as everywhere in the outbox.
 */
export function OutboxMessageDialog({ messageId, onClose }: { messageId: string | null; onClose: () => void }) {
  const { data: message, isLoading, error } = useOutboxEmail(messageId);
  return (
    <Dialog open={messageId !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-3xl" data-testid="outbox-message">
        <DialogHeader>
          <DialogTitle className="break-words">{message?.subject ?? 'E-mail'}</DialogTitle>
          <DialogDescription>
            What was sent, as kept in the outbox. Links that grant access show masked.
          </DialogDescription>
        </DialogHeader>
        {isLoading && <Skeleton className="h-48 rounded-lg" />}
        {error && !message && <ErrorState title="Could not load the e-mail">Close it and try again.</ErrorState>}
        {message && (
          <>
            <dl className="grid gap-2 text-sm">
              <Fact label="To">
                <EmailText email={message.to} />
              </Fact>
              <Fact label="Status">
                <Badge tone={OUTBOX_STATUS_TONE[message.status]}>{message.status}</Badge>
              </Fact>
              <Fact label="Attempts">{message.attempts}</Fact>
              <Fact label="Created">{when(message.createdAt)}</Fact>
              <Fact label="Sent">{when(message.sentAt)}</Fact>
              {message.lastError && (
                <Fact label="Last error">
                  <span className="text-destructive">{message.lastError}</span>
                </Fact>
              )}
            </dl>
            <Tabs defaultValue={message.html ? 'html' : 'text'}>
              <TabsList aria-label="Body">
                {message.html && <TabsTrigger value="html">HTML</TabsTrigger>}
                <TabsTrigger value="text">Text</TabsTrigger>
              </TabsList>
              {message.html && (
                <TabsContent value="html">
                  <iframe
                    title={`HTML body of ${message.subject}`}
                    sandbox=""
                    referrerPolicy="no-referrer"
                    srcDoc={message.html}
                    className="h-[50vh] w-full rounded-lg border bg-white"
                    data-testid="outbox-html"
                  />
                </TabsContent>
              )}
              <TabsContent value="text">
                <pre
                  className="max-h-[50vh] overflow-auto whitespace-pre-wrap break-words rounded-lg border bg-muted/30 p-3 font-sans text-sm text-slate-700"
                  data-testid="outbox-text"
                >
                  {message.text}
                </pre>
              </TabsContent>
            </Tabs>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
