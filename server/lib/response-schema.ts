import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';

/**
 * JSON Schemas for the answers of the hottest routes, serialised by fast-json-stringify (Fastify's own
 * serialiser) instead of JSON.stringify: code generated once per shape writes the JSON, and fields that
 * are not declared (a password hash on a user row, say) are never sent. Use with `serializerCompiler:
 * jsonSerializerCompiler` on the route; other routes keep the zod serialiser of app.ts.
 *
 * `object<T>()` needs one schema for every key of T, so a field added to a response type fails the type
 * check here instead of silently disappearing from the answer. Every field is `required` (always in the
 * answer, null where its schema allows it), but for those wrapped in `optional()`, which are exactly T's
 * optional keys (`key?: ...`): the type check refuses either one the other way round. The answers' types and
 * the API document's `required` lists are the same (decision 053); fast-json-stringify refuses to write an
 * answer that lacks a required field, so a handler cannot answer less than the document promises.
 */
export type JsonSchema = Record<string, unknown>;

export const string: JsonSchema = { type: 'string' };
export const number: JsonSchema = { type: 'number' };
export const integer: JsonSchema = { type: 'integer' };
export const boolean: JsonSchema = { type: 'boolean' };
export const nullableString: JsonSchema = { type: ['string', 'null'] };
export const nullableNumber: JsonSchema = { type: ['number', 'null'] };
export const nullableInteger: JsonSchema = { type: ['integer', 'null'] };

const OPTIONAL: unique symbol = Symbol('optional');

/** A field that the answer leaves out at times (not merely null): not in its object's `required`. */
export type OptionalField = { readonly [OPTIONAL]: JsonSchema };
export const optional = (schema: JsonSchema): OptionalField => ({ [OPTIONAL]: schema });

/** A field of T that may be missing from the object (`key?: ...`), as opposed to one that may be undefined. */
type OptionalKey<T, K extends keyof T> = Record<never, never> extends Pick<T, K> ? true : false;

/** One schema per key of T: `optional(...)` for T's optional keys, a plain schema for the others. */
export type Properties<T> = {
  [K in keyof Required<T>]: OptionalKey<T, K> extends true ? OptionalField : JsonSchema & { [OPTIONAL]?: never };
};

export function object<T>(properties: Properties<T>): JsonSchema {
  const schemas: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [key, value] of Object.entries(properties as Record<string, JsonSchema | OptionalField>)) {
    if (OPTIONAL in value) schemas[key] = value[OPTIONAL];
    else {
      schemas[key] = value;
      required.push(key);
    }
  }
  return { type: 'object', properties: schemas, required };
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
