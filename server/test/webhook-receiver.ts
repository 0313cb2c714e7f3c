import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * A real HTTP receiver for webhook tests, on 127.0.0.1 and a free port. Every request is kept with its
 * headers and body, and checked with the `standardwebhooks` package's own Webhook.verify against each secret
 * the test names (the package is the oracle, not the product's signing code). The answer is the test's:
 * `respond` sees the request and how many times its webhook-id came before.
 */
export type ReceivedWebhook = {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  json: { type: string; timestamp: string; data: Record<string, unknown> };
  /** The secrets (by index in `secrets()`) whose signature the package verified. */
  verifiedWith: number[];
  /** How many times this webhook-id had arrived before (0: the first attempt). */
  seenBefore: number;
};

export type Answer = { status: number; headers?: Record<string, string> };

export type WebhookReceiver = {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** The secrets requests are verified with. */
  secrets: string[];
  respond: (request: ReceivedWebhook) => Answer;
  close(): Promise<void>;
};

/**
 * Webhook.verify refuses a timestamp more than 5 minutes from its own clock; tests drive the worker's clock
 * days ahead, so each request is verified as of the time it says it was signed (the signature still covers
 * that timestamp, so a wrong one fails).
 */
function verifyAsSigned(secret: string, body: string, headers: Record<string, string>): boolean {
  const realNow = Date.now;
  Date.now = () => Number(headers['webhook-timestamp']) * 1000;
  try {
    new Webhook(secret).verify(body, headers);
    return true;
  } catch {
    return false;
  } finally {
    Date.now = realNow;
  }
}

export async function startWebhookReceiver(secrets: string[] = []): Promise<WebhookReceiver> {
  const counts = new Map<string, number>();
  const receiver: WebhookReceiver = {
    url: '',
    port: 0,
    received: [],
    secrets,
    respond: () => ({ status: 200 }),
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
      };
      const seenBefore = counts.get(headers['webhook-id']) ?? 0;
      counts.set(headers['webhook-id'], seenBefore + 1);
      let json: ReceivedWebhook['json'];
      try {
        json = JSON.parse(body);
      } catch {
        json = { type: '(not JSON)', timestamp: '', data: {} };
      }
      const request: ReceivedWebhook = {
        id: headers['webhook-id'],
        timestamp: headers['webhook-timestamp'],
        signature: headers['webhook-signature'],
        body,
        json,
        verifiedWith: receiver.secrets.flatMap((secret, i) => (verifyAsSigned(secret, body, headers) ? [i] : [])),
        seenBefore,
      };
      receiver.received.push(request);
      const answer = receiver.respond(request);
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  receiver.port = port;
  receiver.url = `http://localhost:${port}/hooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
