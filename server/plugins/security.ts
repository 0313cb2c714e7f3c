import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

const contentSecurityPolicy = (scriptHashes: readonly string[]) =>
  [
    "default-src 'self'",
    ["script-src 'self'", ...scriptHashes.map((hash) => `'${hash}'`)].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join(';');

/**
 * The CSP hashes ('sha256-...') of the inline scripts of the built client's index.html: the one that starts
 * a page's first requests before the module scripts arrive (client/src/first-load.ts, written in by
 * vite.config.ts). Read once at start-up from the file that is served, so the policy allows exactly that script
 * and no other inline one. None without a built client.
 */
export function inlineScriptHashes(clientDist: string): string[] {
  let html: string;
  try {
    html = fs.readFileSync(path.join(path.resolve(clientDist), 'index.html'), 'utf8');
  } catch {
    return [];
  }
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter(([, attributes, body]) => !/\bsrc\s*=/i.test(attributes) && body.length > 0)
    .map(([, , body]) => `sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}`);
}

/**
 * The security headers of every response: CSP (frame-ancestors 'none'), nosniff, a strict referrer policy,
 * the cross-origin isolation headers and, when the configured public URL is https, HSTS. They depend on
 * nothing but the configuration, so they are computed once at start-up (docs/decisions/017-performance.md).
 */
export function securityHeaders(
  config: Pick<Config, 'PUBLIC_URL'>,
  scriptHashes: readonly string[] = [],
): Record<string, string> {
  const headers: Record<string, string> = {
    'content-security-policy': contentSecurityPolicy(scriptHashes),
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };
  if (config.PUBLIC_URL?.startsWith('https:')) {
    headers['strict-transport-security'] = 'max-age=31536000; includeSubDomains';
  }
  return headers;
}

/** Sets the precomputed headers on every response, errors and the web client included. */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const headers = securityHeaders(app.config, inlineScriptHashes(app.config.CLIENT_DIST));
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
