import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';

/**
 * JSON Schemas for the answers of the hottest routes, serialised by fast-json-stringify (Fastify's own
 * serialiser) instead of JSON.stringify: code generated once per shape writes the JSON, and fields that
 * are not declared (a password hash on a user row, say) are never sent. Use with `serializerCompiler:
 * jsonSerializerCompiler` on the route; other routes keep the zod serialiser of app.ts.
 *
 * `object<T>()` needs one schema for every key of T, so a field added to a response type fails the type
 * check here instead of silently disappearing from the answer.
 */
export type JsonSchema = Record<string, unknown>;

export const string: JsonSchema = { type: 'string' };
export const number: JsonSchema = { type: 'number' };
export const integer: JsonSchema = { type: 'integer' };
export const boolean: JsonSchema = { type: 'boolean' };
export const nullableString: JsonSchema = { type: ['string', 'null'] };
export const nullableNumber: JsonSchema = { type: ['number', 'null'] };
export const nullableInteger: JsonSchema = { type: ['integer', 'null'] };

export function object<T>(properties: { [K in keyof Required<T>]: JsonSchema }): JsonSchema {
  return { type: 'object', properties };
}

export const nullable = (schema: JsonSchema): JsonSchema => ({ ...schema, nullable: true });
export const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

/** `{ message }`: the answer of deletes and of actions that only confirm. */
export const messageResponse = object<{ message: string }>({ message: string });

/** The route-level serializerCompiler for the schemas above. */
export const jsonSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
  const stringify = fastJson(schema as Parameters<typeof fastJson>[0]);
  return (data) => stringify(data);
};
