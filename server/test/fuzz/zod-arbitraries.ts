import fc from 'fast-check';

/**
 * fast-check arbitraries derived from a route's zod (v4) schemas, for the route fuzz test: values that
 * follow the schema ("valid-ish": right types, lengths and bounds, so requests get past validation and reach
 * the services), and hostile values that do not (wrong types, empty and huge strings, NUL, lone surrogates,
 * numbers at and past every bound the schemas declare, extra and missing fields).
 *
 * Only the parts of zod's definitions the product uses are read; anything unknown becomes any JSON value.
 */

// biome-ignore lint/suspicious/noExplicitAny: zod's internal definitions are untyped here on purpose.
type Def = any;
// biome-ignore lint/suspicious/noExplicitAny: a zod schema of any kind.
export type ZodLike = { _zod: { def: Def } } | any;

const def = (schema: ZodLike): Def => schema?._zod?.def ?? { type: 'unknown' };

type Bounds = { min?: number; max?: number; minInclusive: boolean; maxInclusive: boolean; int: boolean };

function numberBounds(d: Def): Bounds {
  const bounds: Bounds = { minInclusive: true, maxInclusive: true, int: false };
  for (const check of d.checks ?? []) {
    const c = check._zod?.def ?? {};
    if (c.check === 'greater_than') Object.assign(bounds, { min: Number(c.value), minInclusive: c.inclusive });
    if (c.check === 'less_than') Object.assign(bounds, { max: Number(c.value), maxInclusive: c.inclusive });
    if (c.check === 'number_format' && /int/.test(c.format)) bounds.int = true;
    if (c.check === 'multiple_of' && Number(c.value) === 1) bounds.int = true;
  }
  return bounds;
}

function stringChecks(d: Def): { min: number; max?: number; format?: string; pattern?: RegExp } {
  const out: { min: number; max?: number; format?: string; pattern?: RegExp } = { min: 0 };
  if (d.format) out.format = d.format;
  if (d.pattern instanceof RegExp) out.pattern = d.pattern;
  for (const check of d.checks ?? []) {
    const c = check._zod?.def ?? {};
    if (c.check === 'min_length') out.min = Math.max(out.min, c.minimum);
    if (c.check === 'max_length') out.max = Math.min(out.max ?? Number.POSITIVE_INFINITY, c.maximum);
    if (c.check === 'length_equals') Object.assign(out, { min: c.length, max: c.length });
    if (c.check === 'string_format') {
      out.format = c.format;
      if (c.pattern instanceof RegExp) out.pattern = c.pattern;
    }
  }
  return out;
}

const isoDate = fc
  .date({ min: new Date('2020-01-01'), max: new Date('2032-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

function validString(d: Def): fc.Arbitrary<string> {
  const { min, max, format, pattern } = stringChecks(d);
  const cap = Math.min(max ?? 60, Math.max(min, 60));
  if (format === 'uuid' || format === 'guid') return fc.uuid();
  if (format === 'email') return fc.emailAddress();
  if (format === 'date') return isoDate;
  if (format === 'datetime') return fc.date({ noInvalidDate: true }).map((x) => x.toISOString());
  if (format === 'url') return fc.webUrl();
  if (pattern) {
    if (/@/.test(pattern.source)) return fc.emailAddress();
    if (/\\d\{4\}-\\d\{2\}-\\d\{2\}/.test(pattern.source)) return isoDate;
    return fc.stringMatching(pattern).filter((s) => s.length >= min && s.length <= (max ?? 10_000));
  }
  return fc.string({ minLength: min, maxLength: cap });
}

function validNumber(d: Def): fc.Arbitrary<number> {
  const b = numberBounds(d);
  const min = b.min ?? -1_000_000;
  const max = b.max ?? 1_000_000;
  if (b.int)
    return fc.integer({
      min: Math.ceil(min + (b.minInclusive ? 0 : 1)),
      max: Math.floor(max - (b.maxInclusive ? 0 : 1)),
    });
  // Two decimals, as money and rates are entered.
  return fc
    .integer({ min: Math.ceil(min * 100), max: Math.floor(max * 100) })
    .map((n) => n / 100)
    .filter((n) => (b.minInclusive ? n >= min : n > min) && (b.maxInclusive ? n <= max : n < max));
}

/** Values the schema accepts, or nearly (refinements across fields are not known here). */
export function valid(schema: ZodLike, depth = 0): fc.Arbitrary<unknown> {
  const d = def(schema);
  if (depth > 8) return fc.constant(null);
  switch (d.type) {
    case 'string':
      return validString(d);
    case 'number':
      return validNumber(d);
    case 'bigint':
      return fc.integer().map(String);
    case 'boolean':
      return fc.boolean();
    case 'date':
      return isoDate;
    case 'enum':
      return fc.constantFrom(...Object.values(d.entries ?? { a: 'a' }));
    case 'literal':
      return fc.constantFrom(...(d.values ?? [null]));
    case 'null':
      return fc.constant(null);
    case 'undefined':
    case 'void':
      return fc.constant(undefined);
    case 'array': {
      const { min, max } = stringChecks(d);
      return fc.array(valid(d.element, depth + 1), { minLength: min, maxLength: Math.min(max ?? 4, Math.max(min, 4)) });
    }
    case 'tuple':
      return fc.tuple(...(d.items ?? []).map((item: ZodLike) => valid(item, depth + 1)));
    case 'object': {
      const shape: Record<string, ZodLike> = d.shape ?? {};
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      const requiredKeys: string[] = [];
      for (const [key, value] of Object.entries(shape)) {
        record[key] = valid(value, depth + 1);
        if (!['optional', 'default', 'prefault'].includes(def(value).type)) requiredKeys.push(key);
      }
      return fc.record(record, { requiredKeys });
    }
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 12 }), valid(d.valueType, depth + 1), { maxKeys: 4 });
    case 'optional':
    case 'default':
    case 'prefault':
      return fc.option(valid(d.innerType, depth + 1), { nil: undefined, freq: 4 });
    case 'nullable':
      return fc.option(valid(d.innerType, depth + 1), { nil: null, freq: 4 });
    case 'nonoptional':
    case 'readonly':
    case 'catch':
    case 'success':
      return valid(d.innerType, depth + 1);
    case 'lazy':
      return valid(d.getter?.(), depth + 1);
    case 'pipe':
      // z.preprocess(fn, schema) is pipe(transform, schema); x.transform(fn) is pipe(x, transform).
      return def(d.in).type === 'transform' ? valid(d.out, depth + 1) : valid(d.in, depth + 1);
    case 'union':
      return fc.oneof(...(d.options ?? []).map((option: ZodLike) => valid(option, depth + 1)));
    case 'intersection':
      return fc
        .tuple(valid(d.left, depth + 1), valid(d.right, depth + 1))
        .map(([a, b]) => (isPlainObject(a) && isPlainObject(b) ? { ...a, ...b } : b));
    default:
      return fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<unknown>;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Every numeric bound and string length limit anywhere in the schemas: the values at and just past them. */
export function boundaryValues(schemas: ZodLike[]): unknown[] {
  const numbers = new Set<number>();
  const lengths = new Set<number>();
  const seen = new Set<unknown>();
  const walk = (schema: ZodLike, depth: number) => {
    if (!schema || seen.has(schema) || depth > 10) return;
    seen.add(schema);
    const d = def(schema);
    if (d.type === 'number') {
      const b = numberBounds(d);
      for (const edge of [b.min, b.max]) {
        if (edge === undefined) continue;
        for (const delta of [-1, -0.01, 0, 0.01, 1]) numbers.add(Number((edge + delta).toFixed(4)));
      }
      if (b.int) numbers.add(1.5);
    }
    if (d.type === 'string' || d.type === 'array') {
      const { min, max } = stringChecks(d);
      for (const n of [min - 1, min, max, max === undefined ? undefined : max + 1]) {
        if (n !== undefined && n >= 0 && n < 200_000) lengths.add(n);
      }
    }
    for (const child of [d.innerType, d.element, d.in, d.out, d.left, d.right, d.valueType, ...(d.options ?? [])]) {
      walk(child, depth + 1);
    }
    for (const child of Object.values(d.shape ?? {})) walk(child, depth + 1);
  };
  for (const schema of schemas) walk(schema, 0);
  return [
    ...numbers,
    ...[...lengths].flatMap((n) => (n <= 5_000 ? ['x'.repeat(n), Array(n).fill(1)] : ['x'.repeat(n)])),
  ];
}

/** Text no field wants: empty, blank, NUL, lone surrogates, huge, control and direction characters, injections. */
export const HOSTILE_STRINGS: string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\ude00\ud83d',
  'x'.repeat(100_000),
  '\u202e\u200b\ufeff',
  '\u0007\b\f\v',
  "' OR 1=1 --",
  '%',
  '%00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '😀'.repeat(300),
];

/** Numbers no field wants. */
export const HOSTILE_NUMBERS: number[] = [-1, -0, 0.001, 1e-9, 1e21, 2 ** 31, 2 ** 53, -(2 ** 53), Number.MAX_VALUE];

/** The value with every string (or every number) in it replaced by `replacement`. */
export function replaceLeaves(value: unknown, kind: 'string' | 'number', replacement: unknown): unknown {
  if (typeof value === kind) return replacement;
  if (Array.isArray(value)) return value.map((item) => replaceLeaves(item, kind, replacement));
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceLeaves(v, kind, replacement)]));
  }
  return value;
}

/** Values no field wants: wrong types, empty and huge strings, NUL, lone surrogates, extremes. */
export const HOSTILE_CONSTANTS: unknown[] = [
  null,
  true,
  false,
  0,
  -0,
  -1,
  0.1,
  1e-9,
  1e21,
  2 ** 31,
  2 ** 53,
  -(2 ** 53),
  Number.MAX_VALUE,
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\ude00\ud83d',
  '😀',
  '\u202e\u200b',
  'x'.repeat(100_000),
  "' OR 1=1 --",
  '%',
  '%00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '1e309',
  '-1',
  'NaN',
  'Infinity',
  'true',
  'null',
  '2026-02-30',
  '0000-00-00',
  '00000000-0000-0000-0000-000000000000',
  [],
  [null],
  ['\u0000'],
  {},
  { $gt: '' },
  Array(2_000).fill('x'),
];

export function hostile(extra: unknown[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_CONSTANTS, ...extra) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<unknown> },
    { weight: 1, arbitrary: fc.double() },
  );
}

type Path = (string | number)[];

/** Every path into a JSON value (objects and arrays), the root included as []. */
export function paths(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) paths(item, [...prefix, i], out);
  } else if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out);
  return out;
}

export type Mutation = { kind: 'replace' | 'delete' | 'extra'; at: number; value: unknown; key: string };

/** One hostile change to a value: a node replaced, a key removed, or an extra key added. */
export function mutate(value: unknown, m: Mutation): unknown {
  const copy = structuredClone(value);
  const all = paths(copy);
  const path = all[m.at % all.length];
  if (m.kind === 'replace') {
    if (path.length === 0) return m.value;
    const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], copy);
    (parent as Record<string | number, unknown>)[path[path.length - 1]] = m.value;
    return copy;
  }
  const target = path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], copy);
  if (isPlainObject(target)) {
    const keys = Object.keys(target);
    if (m.kind === 'delete' && keys.length) delete target[keys[m.at % keys.length]];
    else target[m.key || 'extra'] = m.value;
  } else if (Array.isArray(target)) {
    if (m.kind === 'delete' && target.length) target.splice(m.at % target.length, 1);
    else target.push(m.value);
  }
  return copy;
}

export function mutation(extra: unknown[]): fc.Arbitrary<Mutation> {
  return fc.record({
    kind: fc.constantFrom('replace', 'replace', 'delete', 'extra'),
    at: fc.nat(),
    value: hostile(extra),
    key: fc.constantFrom('extra', '__proto__', 'constructor', 'id', 'status', '', '\u0000', 'x'.repeat(300)),
  }) as fc.Arbitrary<Mutation>;
}
