import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors';

/**
 * PostgreSQL text cannot hold the NUL character. Schemas may refuse it with a field's own message or
 * strip it from search text; whatever still carries one after validation is refused here with a 400,
 * before a handler can pass it to the database.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    if (containsNul(request.query) || containsNul(request.body)) {
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
