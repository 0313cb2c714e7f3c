import type { WebhookEndpointView } from '@shared/contracts/webhooks-vocabulary';
import { Copy, Eye, RotateCw } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter, DialogFormHeader } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/feedback';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api-client';
import { copyText } from '@/lib/clipboard';
import { toastError } from '@/lib/toast-error';
import { useWebhookSecret } from '../api/get-webhook-secret';
import { useRotateWebhookSecret } from '../api/rotate-webhook-secret';

/**
 * An endpoint's signing secret: hidden until an admin reveals it (the reveal is in the audit trail), a copy
 * button, and "Rotate secret": a new secret at once, the previous one still signing for 24 hours so the
 * receiver can switch without missing an event. `justCreated` shows a new endpoint's secret straight away.
 */
export function WebhookSecretDialog({
  endpoint,
  justCreated = false,
  onOpenChange,
}: {
  endpoint: WebhookEndpointView | null;
  justCreated?: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={endpoint !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        {endpoint && <SecretPanel endpoint={endpoint} justCreated={justCreated} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function SecretPanel({
  endpoint,
  justCreated,
  onDone,
}: {
  endpoint: WebhookEndpointView;
  justCreated: boolean;
  onDone: () => void;
}) {
  const [revealed, setRevealed] = useState(justCreated);
  const [confirmingRotation, setConfirmingRotation] = useState(false);
  const secret = useWebhookSecret(endpoint.id, revealed);
  const rotate = useRotateWebhookSecret(endpoint.id);
  const previousUntil = secret.data?.previousSecretExpiresAt ?? endpoint.previousSecretExpiresAt;

  const copy = () =>
    secret.data &&
    copyText(secret.data.secret).then(
      () => toast({ title: 'Secret copied', description: 'Paste it into the system that receives the events.' }),
      () => toast({ variant: 'destructive', title: 'Could not copy', description: 'Select the secret and copy it.' }),
    );

  return (
    <div className="grid gap-5">
      <DialogFormHeader
        title={justCreated ? 'Endpoint added: its signing secret' : 'Signing secret'}
        description={`Every request to ${endpoint.url} is signed with this secret. The receiver checks the webhook-signature header with it.`}
      />
      {revealed ? (
        secret.isPending ? (
          <Spinner label="Loading the secret" />
        ) : secret.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(secret.error, 'The secret could not be loaded')}
          </p>
        ) : (
          <div className="flex flex-wrap items-center gap-2">
            <Input
              readOnly
              aria-label="Signing secret"
              value={secret.data.secret}
              className="min-w-0 flex-1 basis-56 font-mono text-xs"
              onFocus={(event) => event.currentTarget.select()}
            />
            <Button type="button" variant="outline" onClick={copy}>
              <Copy aria-hidden />
              Copy
            </Button>
          </div>
        )
      ) : (
        <Button type="button" variant="outline" className="w-fit" onClick={() => setRevealed(true)}>
          <Eye aria-hidden />
          Reveal secret
        </Button>
      )}
      {previousUntil && (
        <p className="text-sm text-muted-foreground">
          The previous secret also signs until {new Date(previousUntil).toLocaleString('en-US')} (two signatures per
          request).
        </p>
      )}
      {confirmingRotation ? (
        <div className="grid gap-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm">
          <p>
            A new secret signs every request from now on. The current one keeps signing too for 24 hours, so update the
            receiver within that time.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button
              type="button"
              disabled={rotate.isPending}
              onClick={() =>
                rotate.mutate(undefined, {
                  onSuccess: () => {
                    setRevealed(true);
                    setConfirmingRotation(false);
                    toast({ title: 'Secret rotated', description: 'The previous secret signs too for 24 hours.' });
                  },
                  onError: (error) => toastError('Failed to rotate the secret', error),
                })
              }
            >
              {rotate.isPending ? 'Rotating...' : 'Rotate Now'}
            </Button>
            <Button type="button" variant="outline" onClick={() => setConfirmingRotation(false)}>
              Keep the current secret
            </Button>
          </div>
        </div>
      ) : null}
      <DialogFooter>
        {!confirmingRotation && (
          <Button type="button" variant="outline" onClick={() => setConfirmingRotation(true)}>
            <RotateCw aria-hidden />
            Rotate secret
          </Button>
        )}
        <Button type="button" onClick={onDone}>
          Done
        </Button>
      </DialogFooter>
    </div>
  );
}
