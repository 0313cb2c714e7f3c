import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/**
 * The origin every link the product sends or shows is built from (pay links, invitations, receipts,
 * checkout pages): PUBLIC_URL when configured, otherwise the server's own listen address. Never the
 * request's Host or X-Forwarded-* headers, which a client can forge.
 */
export function publicOrigin(app: FastifyInstance): string {
  if (app.config.PUBLIC_URL) return app.config.PUBLIC_URL.replace(/\/+$/, '');
  const address = app.server.address();
  if (address && typeof address === 'object') {
    // An unspecified address (listening everywhere) is not one to link to; a specific one is the address
    // people open, and a link to another name for it would be another origin (no session, no storage).
    const host = ['0.0.0.0', '::'].includes(address.address) ? 'localhost' : address.address;
    return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  }
  return `http://localhost:${app.config.PORT}`;
}

/**
 * Whether the product is served over https, from the configuration alone (PUBLIC_URL): decides the cookie's
 * Secure flag. Never from the request's protocol or X-Forwarded-Proto, which a client can set.
 */
export function servedOverHttps(config: Pick<Config, 'PUBLIC_URL'>): boolean {
  return config.PUBLIC_URL?.startsWith('https:') ?? false;
}
