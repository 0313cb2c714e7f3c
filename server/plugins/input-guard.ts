import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors';

/** A high surrogate not followed by a low one, or a low one not preceded by a high one (UTF-16 code units). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const INVALID_UNICODE = 'Text must be valid Unicode (it contains a lone surrogate character)';

/**
 * Text the database cannot store is refused with a 400 at the edge, for every route, in the query string,
 * the path parameters and the body (keys included):
 * - a lone UTF-16 surrogate ("\ud800" in JSON) is not Unicode; PostgreSQL refuses it ("invalid input syntax
 *   for type json" / "unsupported Unicode escape sequence"). Refused before validation, so no schema or
 *   handler ever sees one.
 * - the NUL character: schemas may refuse it with a field's own message or strip it from search text, so it
 *   is checked after validation; whatever still carries one is refused before a handler can store it.
 */
export function registerInputGuard(app: FastifyInstance): void {
  // Callback hooks, and nothing to walk for a request without input (most reads): every request passes here.
  app.addHook('preValidation', (request, _reply, done) => {
    if (!carriesInput(request)) return done();
    for (const [where, value] of [
      ['query', request.query],
      ['params', request.params],
      ['body', request.body],
    ] as const) {
      const path = findText(value, (text) => LONE_SURROGATE.test(text));
      if (path !== undefined) {
        return done(
          new AppError('VALIDATION', INVALID_UNICODE, { fieldErrors: { [path || where]: [INVALID_UNICODE] } }),
        );
      }
    }
    done();
  });

  app.addHook('preHandler', (request, _reply, done) => {
    if (!carriesInput(request)) return done();
    for (const value of [request.query, request.params, request.body]) {
      if (findText(value, (text) => text.includes('\u0000')) !== undefined) {
        return done(new AppError('VALIDATION', 'Text cannot contain NUL characters'));
      }
    }
    done();
  });
}

/** Whether the request has a body, or a query string or path parameter with anything in it. */
function carriesInput(request: FastifyRequest): boolean {
  return request.body !== undefined || !isEmpty(request.query) || !isEmpty(request.params);
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  for (const _ in value as object) return false;
  return true;
}

/**
 * The path ("lineItems.0.description", '' for the value itself) of the first string, or object key, in
 * `value` for which `bad` holds; undefined when there is none. Iterative: a deeply nested body cannot
 * exhaust the stack.
 */
function findText(value: unknown, bad: (text: string) => boolean): string | undefined {
  const pending: [unknown, string][] = [[value, '']];
  while (pending.length) {
    const [item, path] = pending.pop()!;
    if (typeof item === 'string') {
      if (bad(item)) return path;
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        const at = path ? `${path}.${key}` : key;
        if (bad(key)) return at;
        pending.push([child, at]);
      }
    }
  }
  return undefined;
}
