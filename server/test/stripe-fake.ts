import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small local stand-in for the Stripe API endpoints the product calls (Checkout Sessions create in payment and
 * setup mode, retrieve and expire; Refunds create; Billing Portal Sessions create; Customers create; SetupIntents
 * and PaymentMethods retrieve; PaymentIntents create, off-session, with outcomes scripted per payment method, and
 * retrieve, with `expand: ['payment_method']`), so the official SDK can be tested without network. It answers in
 * Stripe's shapes and records every request (path, form fields, idempotency key) for assertions; a route can be
 * made to fail with Stripe's 500.
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
  customer: string | null;
  setup_intent: string | null;
  amount_total: number | null;
  currency: string | null;
  client_reference_id: string | null;
  customer_email: string | null;
  saved_payment_method_options: { payment_method_save: string | null } | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  success_url: string;
  cancel_url: string;
  expires_at: number;
};

/** A PaymentMethod as Stripe answers it: a card or a US bank account. */
export type FakePaymentMethod = {
  id: string;
  object: 'payment_method';
  type: 'card' | 'us_bank_account';
  customer: string | null;
  card?: { brand: string; last4: string; exp_month: number; exp_year: number; fingerprint: string };
  us_bank_account?: { bank_name: string; last4: string; fingerprint: string; account_type: string };
  billing_details: { name: string | null; email: string | null };
  /** Whether Stripe may show the method again: `always` once the customer ticked Checkout's save box. */
  allow_redisplay?: 'always' | 'limited' | 'unspecified';
  livemode: false;
};

/** A method as a test describes it (the fake adds its object, customer and mode). */
export type FakePaymentMethodInput = Omit<FakePaymentMethod, 'object' | 'customer' | 'livemode' | 'allow_redisplay'>;

/**
 * How an off-session PaymentIntent of a payment method ends: succeeded; declined (Stripe's 402 card_error with
 * its code and decline code); authentication_required (a 402 asking for the customer); processing (ACH).
 */
export type FakeChargeOutcome =
  | 'succeeded'
  | 'processing'
  | 'authentication_required'
  | { code?: string; declineCode?: string; message: string };

export type FakeStripe = {
  baseUrl: string;
  requests: FakeStripeRequest[];
  sessions: Map<string, FakeSession>;
  paymentMethods: Map<string, FakePaymentMethod>;
  /**
   * Marks a session paid (as Stripe does when the customer pays) and returns the completed object. Its
   * PaymentIntent (retrievable) succeeded with a card (`paymentMethod`, or a Visa 4242). With `saveCard` the
   * customer ticked the "Save payment details" box of a session that offered it: the card is attached to the
   * session's customer with `allow_redisplay: 'always'`; otherwise it stays unattached, `limited`.
   */
  complete(sessionId: string, options?: { saveCard?: boolean; paymentMethod?: FakePaymentMethodInput }): FakeSession;
  /**
   * Completes a setup-mode session with a payment method (as Stripe does when the customer saves one): its
   * SetupIntent succeeds with the method attached to the session's customer. Returns the completed session.
   */
  completeSetup(sessionId: string, method: FakePaymentMethodInput): FakeSession;
  /** Scripts how the off-session charges of a payment method end (succeeded when not scripted). */
  scriptCharges(paymentMethodId: string, outcome: FakeChargeOutcome): void;
  /**
   * Runs `hook` with each PaymentIntent of a payment method before the fake answers its request (a webhook
   * Stripe delivers before the charge's own answer arrives, say).
   */
  beforeAnswering(
    paymentMethodId: string,
    hook: (intent: { id: string; metadata: Record<string, string> }) => Promise<void>,
  ): void;
  /** Makes every request of a route (`'POST /v1/customers'`) answer Stripe's 500 until the returned undo is called. */
  failRequests(route: string): () => void;
  close(): Promise<void>;
};

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: FakeStripeRequest[] = [];
  const sessions = new Map<string, FakeSession>();
  const idempotent = new Map<string, { status: number; body: string }>();
  const paymentMethods = new Map<string, FakePaymentMethod>();
  const setupIntents = new Map<string, object>();
  const paymentIntents = new Map<string, { payment_method: string | null } & Record<string, unknown>>();
  const failing = new Set<string>();
  const outcomes = new Map<string, FakeChargeOutcome>();
  const hooks = new Map<string, (intent: { id: string; metadata: Record<string, string> }) => Promise<void>>();

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
      if (failing.has(`${req.method} ${url.pathname}`)) {
        return send(500, { error: { type: 'api_error', message: 'An unknown error occurred (the test failed it).' } });
      }
      const replayKey = idempotencyKey ? `${req.method} ${url.pathname} ${idempotencyKey}` : null;
      const replayed = replayKey ? idempotent.get(replayKey) : undefined;
      if (replayed) {
        res.writeHead(replayed.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
        res.end(replayed.body);
        return;
      }
      const remember = (payload: unknown, status = 200) => {
        if (replayKey) idempotent.set(replayKey, { status, body: JSON.stringify(payload) });
        send(status, payload);
      };

      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        if (form.customer && form.customer_email) {
          return send(
            400,
            stripeError('parameter_invalid', 'You may only specify one of these parameters: customer, customer_email.'),
          );
        }
        const id = `cs_test_${random()}`;
        const session: FakeSession = {
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.test/c/pay/${id}`,
          status: 'open',
          mode: form.mode,
          customer: form.customer ?? null,
          setup_intent: null,
          amount_total:
            form.mode === 'setup'
              ? null
              : Number(form['line_items[0][quantity]'] ?? 1) * Number(form['line_items[0][price_data][unit_amount]']),
          currency: form['line_items[0][price_data][currency]'] ?? form.currency ?? null,
          client_reference_id: form.client_reference_id ?? null,
          customer_email: form.customer_email ?? null,
          saved_payment_method_options: form['saved_payment_method_options[payment_method_save]']
            ? { payment_method_save: form['saved_payment_method_options[payment_method_save]'] }
            : null,
          metadata: metadataOf(form, 'metadata'),
          payment_intent: null,
          payment_status: form.mode === 'setup' ? 'no_payment_required' : 'unpaid',
          success_url: form.success_url,
          cancel_url: form.cancel_url,
          expires_at: Number(form.expires_at ?? Math.floor(Date.now() / 1000) + 24 * 3600),
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
      if (req.method === 'POST' && url.pathname === '/v1/customers') {
        return remember({
          id: `cus_${random()}`,
          object: 'customer',
          name: form.name ?? null,
          email: form.email ?? null,
          metadata: metadataOf(form, 'metadata'),
          livemode: false,
        });
      }
      const setupIntentMatch = /^\/v1\/setup_intents\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && setupIntentMatch) {
        const intent = setupIntents.get(setupIntentMatch[1]);
        if (!intent) return send(404, stripeError('resource_missing', `No such setupintent: '${setupIntentMatch[1]}'`));
        return send(200, intent);
      }
      const methodMatch = /^\/v1\/payment_methods\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && methodMatch) {
        const method = paymentMethods.get(methodMatch[1]);
        if (!method) return send(404, stripeError('resource_missing', `No such PaymentMethod: '${methodMatch[1]}'`));
        return send(200, method);
      }
      const intentMatch = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && intentMatch) {
        const intent = paymentIntents.get(intentMatch[1]);
        if (!intent) return send(404, stripeError('resource_missing', `No such payment_intent: '${intentMatch[1]}'`));
        const expand = [...url.searchParams].filter(([key]) => key.startsWith('expand')).map(([, value]) => value);
        const method = intent.payment_method ? paymentMethods.get(intent.payment_method) : undefined;
        return send(200, expand.includes('payment_method') && method ? { ...intent, payment_method: method } : intent);
      }
      if (req.method === 'POST' && url.pathname === '/v1/payment_intents') {
        const method = paymentMethods.get(form.payment_method ?? '');
        if (!method) {
          return send(400, stripeError('resource_missing', `No such PaymentMethod: '${form.payment_method ?? ''}'`));
        }
        const outcome = outcomes.get(method.id) ?? 'succeeded';
        const intent = {
          id: `pi_${random()}`,
          object: 'payment_intent',
          amount: Number(form.amount),
          currency: form.currency,
          customer: form.customer ?? null,
          payment_method: method.id,
          description: form.description ?? null,
          metadata: metadataOf(form, 'metadata'),
          status:
            outcome === 'succeeded' ? 'succeeded' : outcome === 'processing' ? 'processing' : 'requires_payment_method',
          latest_charge: outcome === 'succeeded' || outcome === 'processing' ? `ch_${random()}` : null,
          livemode: false,
        };
        paymentIntents.set(intent.id, intent);
        const hook = hooks.get(method.id);
        if (hook && (outcome === 'succeeded' || outcome === 'processing')) {
          hook(intent).then(
            () => remember(intent),
            () => send(500, stripeError('api_error', 'The test hook failed')),
          );
          return;
        }
        if (outcome === 'succeeded' || outcome === 'processing') return remember(intent);
        const declined =
          outcome === 'authentication_required'
            ? {
                code: 'authentication_required',
                decline_code: 'authentication_required',
                message: 'Your card was declined. This transaction requires authentication.',
              }
            : { code: outcome.code ?? 'card_declined', decline_code: outcome.declineCode, message: outcome.message };
        return remember(
          {
            error: {
              type: 'card_error',
              ...declined,
              payment_intent: { ...intent, last_payment_error: { type: 'card_error', ...declined } },
            },
          },
          402,
        );
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
    paymentMethods,
    completeSetup(sessionId, method) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no fake session ${sessionId}`);
      paymentMethods.set(method.id, {
        ...method,
        object: 'payment_method',
        customer: session.customer,
        livemode: false,
      });
      const intentId = session.setup_intent ?? `seti_${random()}`;
      setupIntents.set(intentId, {
        id: intentId,
        object: 'setup_intent',
        customer: session.customer,
        payment_method: method.id,
        status: 'succeeded',
        usage: 'off_session',
        metadata: session.metadata,
        livemode: false,
      });
      session.status = 'complete';
      session.setup_intent = intentId;
      return { ...session };
    },
    beforeAnswering(paymentMethodId, hook) {
      hooks.set(paymentMethodId, hook);
    },
    scriptCharges(paymentMethodId, outcome) {
      outcomes.set(paymentMethodId, outcome);
    },
    complete(sessionId, options = {}) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no fake session ${sessionId}`);
      session.status = 'complete';
      session.payment_status = 'paid';
      session.payment_intent ??= `pi_${random()}`;
      const methodId = `pm_${random()}`;
      const method: FakePaymentMethodInput = options.paymentMethod ?? {
        id: methodId,
        type: 'card',
        card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, fingerprint: `fp_${methodId}` },
        billing_details: { name: null, email: null },
      };
      const saved = Boolean(options.saveCard && session.customer);
      paymentMethods.set(method.id, {
        ...method,
        object: 'payment_method',
        customer: saved ? session.customer : null,
        allow_redisplay: saved ? 'always' : 'limited',
        livemode: false,
      });
      paymentIntents.set(session.payment_intent, {
        id: session.payment_intent,
        object: 'payment_intent',
        amount: session.amount_total,
        currency: session.currency,
        customer: session.customer,
        payment_method: method.id,
        status: 'succeeded',
        metadata: session.metadata,
        livemode: false,
      });
      return { ...session };
    },
    failRequests(route) {
      failing.add(route);
      return () => {
        failing.delete(route);
      };
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
