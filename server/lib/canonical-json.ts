/**
 * JSON with every object's keys sorted (by UTF-16 code unit, as `Array.prototype.sort` orders strings), so that
 * the same content always gives the same text whatever order its keys were written in. Arrays keep their order.
 * Nothing is indented and no value's `toJSON` is called: a Date, like any object without own keys, is `{}`.
 *
 * Two callers, which differ only in what an `undefined` (or a function) becomes, each kept as it was:
 * - `stableJson`, the request hash of an Idempotency-Key (plugins/idempotency.ts): every such value is `null`,
 *   wherever it is (`{"a":null}`, `[1,null]`, and `null` for the value itself).
 * - `canonicalJson`, the fingerprint of an insertion order's snapshot (insertion-orders.service.ts): an object
 *   key whose value is `undefined` is left out, as `JSON.stringify` does, so an optional field left unset and
 *   one absent give the same fingerprint. Anywhere else nothing is written for it: an array item leaves an
 *   empty place (`[1,,2]`) and a function-valued key reads `"f":undefined` (no snapshot holds either), and the
 *   value itself gives `undefined`. A stored fingerprint stays the same as long as this text does.
 */

type Undefined = 'null' | 'omit';

function write(value: unknown, undefinedAs: Undefined): string | undefined {
  if (Array.isArray(value)) return `[${value.map((item) => write(item, undefinedAs)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    const kept = undefinedAs === 'omit' ? keys.filter((key) => record[key] !== undefined) : keys;
    return `{${kept.map((key) => `${JSON.stringify(key)}:${write(record[key], undefinedAs)}`).join(',')}}`;
  }
  const text = JSON.stringify(value);
  return text === undefined && undefinedAs === 'null' ? 'null' : text;
}

/** Sorted-key JSON in which `undefined` is `null`: what makes two idempotent requests the same. */
export const stableJson = (value: unknown): string => write(value, 'null') as string;

/** Sorted-key JSON in which an `undefined` key is left out: what an insertion order's fingerprint is taken of. */
export const canonicalJson = (value: unknown): string => write(value, 'omit') as string;
