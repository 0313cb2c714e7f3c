import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors';

/**
 * PostgreSQL text cannot hold the NUL character: refuse it in any query or body value up front,
 * with a 400, rather than let it reach the database as a 500.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (request.url.includes('%00') || containsNul(request.body)) {
      throw new AppError('VALIDATION', 'Text cannot contain NUL characters');
    }
  });
}

function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 20 || value === null || typeof value !== 'object') return false;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000') || containsNul(item, depth + 1)) return true;
  }
  return false;
}
