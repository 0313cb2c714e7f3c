import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small local stand-in for the Stripe API endpoints the product calls (Checkout Sessions create,
 * retrieve and expire; Refunds create; Billing Portal Sessions create), so the official SDK can be tested without network. It answers
 * in Stripe's shapes and records every request (path, form fields, idempotency key) for assertions.
 */

export type FakeStripeRequest = {
  method: string;
  path: string;
  form: Record<string, string>;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
};

type FakeSession = {
  id: string;
  object: 'checkout.session';
  url: string;
  status: 'open' | 'complete' | 'expired';
  mode: string;
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  customer_email: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  payment_status: 'unpaid' | 'paid';
  success_url: string;
  cancel_url: string;
  expires_at: number;
};

export type FakeStripe = {
  baseUrl: string;
  requests: FakeStripeRequest[];
  sessions: Map<string, FakeSession>;
  /** Marks a session paid (as Stripe does when the customer pays) and returns the completed object. */
  complete(sessionId: string): FakeSession;
  close(): Promise<void>;
};

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: FakeStripeRequest[] = [];
  const sessions = new Map<string, FakeSession>();
  const idempotent = new Map<string, string>();

  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const form = Object.fromEntries(new URLSearchParams(body));
      const idempotencyKey = header(req, 'idempotency-key');
      requests.push({
        method: req.method ?? 'GET',
        path: url.pathname,
        form,
        idempotencyKey,
        authorization: header(req, 'authorization'),
      });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${random()}` });
        res.end(JSON.stringify(payload));
      };
      const replayKey = idempotencyKey ? `${req.method} ${url.pathname} ${idempotencyKey}` : null;
      if (replayKey && idempotent.has(replayKey)) {
        res.writeHead(200, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
        res.end(idempotent.get(replayKey));
        return;
      }
      const remember = (payload: unknown) => {
        if (replayKey) idempotent.set(replayKey, JSON.stringify(payload));
        send(200, payload);
      };

      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const id = `cs_test_${random()}`;
        const session: FakeSession = {
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.test/c/pay/${id}`,
          status: 'open',
          mode: form.mode,
          amount_total:
            Number(form['line_items[0][quantity]'] ?? 1) * Number(form['line_items[0][price_data][unit_amount]']),
          currency: form['line_items[0][price_data][currency]'],
          client_reference_id: form.client_reference_id ?? null,
          customer_email: form.customer_email ?? null,
          metadata: metadataOf(form, 'metadata'),
          payment_intent: null,
          payment_status: 'unpaid',
          success_url: form.success_url,
          cancel_url: form.cancel_url,
          expires_at: Number(form.expires_at),
        };
        sessions.set(id, session);
        remember(session);
        return;
      }
      const sessionMatch = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(url.pathname);
      if (sessionMatch) {
        const session = sessions.get(sessionMatch[1]);
        if (!session)
          return send(404, stripeError('resource_missing', `No such checkout.session: '${sessionMatch[1]}'`));
        if (req.method === 'GET' && !sessionMatch[2]) return send(200, session);
        if (req.method === 'POST' && sessionMatch[2]) {
          if (session.status !== 'open') {
            return send(
              400,
              stripeError('checkout_session_not_open', 'Only Checkout Sessions with a status of open can be expired.'),
            );
          }
          session.status = 'expired';
          return remember(session);
        }
      }
      if (req.method === 'POST' && url.pathname === '/v1/refunds') {
        return remember({
          id: `re_${random()}`,
          object: 'refund',
          amount: Number(form.amount),
          currency: 'usd',
          payment_intent: form.payment_intent,
          reason: form.reason ?? null,
          status: 'succeeded',
        });
      }
      if (req.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
        if (!form.customer?.startsWith('cus_')) {
          return send(400, stripeError('resource_missing', `No such customer: '${form.customer ?? ''}'`));
        }
        const id = `bps_${random()}`;
        return remember({
          id,
          object: 'billing_portal.session',
          customer: form.customer,
          return_url: form.return_url ?? null,
          livemode: false,
          url: `https://billing.stripe.test/p/session/${id}`,
        });
      }
      send(404, stripeError('resource_missing', `Unrecognized request URL (${req.method}: ${url.pathname}).`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    sessions,
    complete(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no fake session ${sessionId}`);
      session.status = 'complete';
      session.payment_status = 'paid';
      session.payment_intent ??= `pi_${random()}`;
      return { ...session };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function metadataOf(form: Record<string, string>, prefix: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) {
    const match = new RegExp(`^${prefix}\\[([^\\]]+)\\]$`).exec(key);
    if (match) result[match[1]] = value;
  }
  return result;
}

function stripeError(code: string, message: string) {
  return { error: { type: 'invalid_request_error', code, message } };
}

const random = () => randomBytes(12).toString('hex');
