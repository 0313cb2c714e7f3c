import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { JsonSchema } from '../lib/response-schema';

/**
 * What a handler returns, checked against the JSON Schema its route declares for the status (lib/response-schema.ts)
 * before fast-json-stringify writes it. The serialiser refuses a missing required field (a 500), but it quietly
 * turns a null into 0, "" or false where the schema allows no null, an object into a string, and drops the
 * fraction of an integer: the client would get an answer that its document does not describe. Every test app
 * (server/test/app.ts) runs this on every answer, so the whole suite checks that the schemas, and with them the
 * API document's `required` lists and types (server/test/response-schemas.test.ts), say what the handlers send.
 */

export type AnswerSchema = {
  type?: string | string[];
  nullable?: boolean;
  properties?: Record<string, AnswerSchema>;
  required?: string[];
  items?: AnswerSchema;
  additionalProperties?: boolean | AnswerSchema;
  anyOf?: AnswerSchema[];
};

const kinds = (schema: AnswerSchema): string[] => {
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  return schema.nullable ? [...types, 'null'] : types;
};

/** A number as the database drivers may hand it over: pg gives bigint and numeric columns as text. */
const numeric = (value: unknown): number | null =>
  typeof value === 'number'
    ? value
    : typeof value === 'bigint'
      ? Number(value)
      : typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)
        ? Number(value)
        : null;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** Where `value` does not fit `schema`, one line each ("lines[0].amount: null, but the schema allows number"). */
export function answerMismatches(schema: AnswerSchema, value: unknown, at = 'answer'): string[] {
  // A union (the API document writes zod's nullable objects so): the value fits one of its members.
  if (schema.anyOf) {
    const tries = schema.anyOf.map((member) => answerMismatches(member, value, at));
    return tries.some((found) => found.length === 0) ? [] : tries.flat();
  }
  const types = kinds(schema);
  // No type: any JSON value (an audit change's before and after).
  if (types.length === 0) return [];
  const fits = (kind: string): boolean => {
    switch (kind) {
      case 'null':
        return value === null;
      case 'string':
        return typeof value === 'string' || value instanceof Date;
      case 'number':
        return numeric(value) !== null && Number.isFinite(numeric(value));
      case 'integer':
        return numeric(value) !== null && Number.isInteger(numeric(value));
      case 'boolean':
        return typeof value === 'boolean';
      case 'array':
        return Array.isArray(value);
      case 'object':
        return isRecord(value);
      default:
        return false;
    }
  };
  const kind = types.find(fits);
  if (!kind) {
    const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : JSON.stringify(value)?.slice(0, 60);
    return [`${at}: ${got}, but the schema allows ${types.join(' or ')}`];
  }
  if (kind === 'array' && schema.items) {
    return (value as unknown[]).flatMap((item, i) => answerMismatches(schema.items!, item, `${at}[${i}]`));
  }
  if (kind !== 'object') return [];
  const record = value as Record<string, unknown>;
  const required = schema.required ?? [];
  const found: string[] = [];
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (record[key] === undefined) {
      if (required.includes(key)) found.push(`${at}.${key}: missing, but required`);
    } else found.push(...answerMismatches(property, record[key], `${at}.${key}`));
  }
  if (typeof schema.additionalProperties === 'object') {
    for (const [key, item] of Object.entries(record)) {
      if (!(key in (schema.properties ?? {})) && item !== undefined) {
        found.push(...answerMismatches(schema.additionalProperties, item, `${at}.${key}`));
      }
    }
  }
  return found;
}

/** The schema a route declares for a status ("201", else "2xx", else "default"), if it is a plain JSON Schema. */
export function declaredAnswer(request: FastifyRequest, status: number): JsonSchema | undefined {
  const response = (request.routeOptions.schema as { response?: Record<string, unknown> } | undefined)?.response;
  if (!response) return undefined;
  const schema = response[String(status)] ?? response[`${String(status)[0]}xx`] ?? response.default;
  // Zod answers are checked by the zod serialiser itself (it refuses what does not parse).
  if (!schema || typeof schema !== 'object' || schema instanceof z.core.$ZodType) return undefined;
  return schema as JsonSchema;
}

/** The in-progress answer of an idempotent route (plugins/idempotency.ts), which its `idempotent` declares. */
const IN_PROGRESS = 'A request with this Idempotency-Key is still in progress';

/**
 * Why a 409 answer is not in the API document, or null when it is: the route declares when it answers 409
 * (`config.conflict`), or the answer is an idempotent route's "still in progress".
 */
export function undeclaredConflict(request: FastifyRequest, payload: unknown): string | null {
  const config = request.routeOptions.config as { conflict?: string; idempotent?: boolean };
  if (config.conflict) return null;
  if (config.idempotent === true && (payload as { message?: unknown } | null)?.message === IN_PROGRESS) return null;
  const message = (payload as { message?: unknown } | null)?.message;
  return `${request.method} ${request.routeOptions.url} answered 409 ("${String(message)}") but declares no conflict: give its config a \`conflict\` sentence (plugins/openapi.ts)`;
}

/**
 * Every JSON answer of `app` is checked before it is written; one that does not fit fails with a 500 that says
 * why. So does a 409 from a route that does not declare one: the API document lists what each route answers.
 */
export function checkAnswers(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, reply, payload) => {
    if (reply.statusCode === 409 && request.routeOptions.url?.startsWith('/api/')) {
      const undeclared = undeclaredConflict(request, payload);
      if (undeclared) {
        console.error(undeclared);
        throw new Error(undeclared);
      }
    }
    const schema = declaredAnswer(request, reply.statusCode);
    if (!schema) return payload;
    const mismatches = answerMismatches(schema as AnswerSchema, payload);
    if (mismatches.length === 0) return payload;
    const message = `${request.method} ${request.routeOptions.url} ${reply.statusCode} sends what its schema does not describe:\n  ${mismatches.slice(0, 20).join('\n  ')}`;
    // The 500's message is hidden from the client: the test run shows it here.
    console.error(message);
    throw new Error(message);
  });
}
