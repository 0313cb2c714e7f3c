import swagger, { type SwaggerTransform } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { createJsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import type { JsonSchema } from '../lib/response-schema';
import { type RouteAccess, withAccess } from './authorize';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_WINDOW_HOURS } from './idempotency-key';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * For the API reference only: the request body of a route whose body Fastify does not validate (a CSV, a
     * multipart form, a signed webhook's raw bytes), by content type. Fastify itself reads nothing from it.
     * A route that sends a file instead of JSON names its content types in `produces` (@fastify/swagger's).
     */
    documentedBody?: Record<string, JsonSchema>;
  }
  interface FastifyContextConfig {
    /**
     * When the route answers 409 (CONFLICT), as one sentence for the API reference: the state of a record
     * that refuses the request ("The contract is not a draft or sent, or it has invoices."). A route that can
     * answer 409 declares it; the test apps refuse a 409 from a route that does not (server/test/answer-check.ts).
     */
    conflict?: string;
    /** When the route answers 410 (GONE): a capability link that expired or was used, as one sentence. */
    gone?: string;
  }
}

/** Where the browsable reference is served; the document itself is at OPENAPI_PATH. */
export const DOCS_PREFIX = '/api/docs';
export const OPENAPI_PATH = '/api/openapi.json';

const DESCRIPTION = `The API of AdCRM: the routes the web client itself uses, each with its parameters, body and answers.

**Authentication.** Send \`Authorization: Bearer <token>\` with a session token (from \`POST /api/auth/login\`) or an
API key (\`adcrm_...\`, made by an admin), or the session cookie \`sid\` that signing in sets in a browser. A change
sent with the cookie must come from this site (Origin, Sec-Fetch-Site or Referer), or it is refused with 403. Each
operation names what it needs in its description and in \`x-permissions\`: the permissions of which the caller
needs one, \`"public"\` (no sign-in) or \`"signed-in"\` (any signed-in user). Without a sign-in the answer is 401,
without the permission 403.

**Errors.** Every error answers \`{ "message", "code" }\`, and invalid input also \`fieldErrors\` (the messages of
each invalid field, by its path). A request the record's state refuses (a contract already canceled, an invoice
already paid) gets 409 \`CONFLICT\` with the reason in \`message\`; each operation that can answer it says when.

**Amounts.** Money is in dollars in requests and answers: an answer gives a JSON number with at most two decimals
(\`1480.5\` is $1,480.50), and a body takes a number or numeric text with at most two decimals (\`1480.50\` or
\`"1480.50"\`). Webhook deliveries differ: the \`data\` of an event carries integer cents, in fields named
\`...Cents\` (\`"totalCents": 148050\`).

**Idempotency.** A POST that creates or moves money takes an optional \`${IDEMPOTENCY_HEADER}\` header (at most ${IDEMPOTENCY_KEY_MAX}
characters, scoped to the API key or session that sends it): a repeat with the same key and body within ${IDEMPOTENCY_WINDOW_HOURS} hours
gets the first answer again, status and body; the same key with a different body gets 422; a repeat while the first
request is still in progress gets 409.

**Rate limits.** Requests made with an API key are limited per key, across every server: answers carry
\`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`, and a request over the limit gets 429 with
\`Retry-After\` (seconds). The public routes that say so are limited per client address, also 429 with \`Retry-After\`.

**Lists.** Lists take \`limit\`, \`offset\` and their filters in the query; the body is the page as a JSON array and
the total is in \`X-Total-Count\` (\`X-Total-Count-Lower-Bound: true\` when it counts at least that many).`;

/** The body of every error answer (lib/errors.ts, ApiErrorBody). */
const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['message', 'code'],
  properties: {
    message: { type: 'string' },
    code: { type: 'string', examples: ['VALIDATION'] },
    fieldErrors: {
      type: 'object',
      description: 'For invalid input: the messages of each invalid field, keyed by its path ("lines.0.quantity").',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
  },
};

/** The statuses every route may answer besides its own, and what they mean. */
const ERROR_TEXT: Record<string, string> = {
  400: 'The request is invalid (VALIDATION: the fields are in fieldErrors).',
  401: 'Not signed in (UNAUTHENTICATED).',
  403: 'The caller lacks the permission (FORBIDDEN).',
  404: 'No such record, or not one the caller may see, or a malformed id (NOT_FOUND).',
  409: `A request with this ${IDEMPOTENCY_HEADER} is still in progress.`,
  422: `This ${IDEMPOTENCY_HEADER} was already used with a different body.`,
  429: 'Too many requests (RATE_LIMITED); Retry-After says how many seconds to wait.',
};

/** What a success answer is called when its schema does not say. */
const SUCCESS_TEXT: Record<string, string> = { 200: 'OK.', 201: 'Created.', 202: 'Accepted.' };

const isZod = (schema: unknown): boolean => schema instanceof z.core.$ZodType;
const zodTransform = createJsonSchemaTransform({ skipList: [] });

/** What the description says a route needs. */
export function accessSentence(access: RouteAccess): string {
  if (access === 'public') return 'Public.';
  if (access === 'signed-in') return 'Any signed-in user.';
  return access.length === 1 ? `Requires ${access[0]}.` : `Requires one of: ${access.join(', ')}.`;
}

/** The module an operation is listed under: the first segment of its path after /api. */
export const tagOf = (url: string): string => url.split('/')[2] ?? 'api';

/** A stable operation id from the method and path: GET /api/contracts/:id/schedule -> getContractsIdSchedule. */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '')
    .split(/[/\-_:.]+/)
    .filter(Boolean);
  return method.toLowerCase() + words.map((word) => word[0].toUpperCase() + word.slice(1)).join('');
}

/** Only the API is documented: the web client's routes and the reference's own page and assets are not. */
const isDocumented = (url: string) =>
  url.startsWith('/api/') && url !== DOCS_PREFIX && !url.startsWith(`${DOCS_PREFIX}/`);

const binary = (description: string): JsonSchema => ({ type: 'string', format: 'binary', description });
const fileDescription = (type: string) =>
  type === 'application/pdf' ? 'The PDF.' : type.startsWith('text/csv') ? 'The CSV file.' : 'The file.';
const errorAnswer = (status: string) => ({
  description: ERROR_TEXT[status],
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

type Schema = FastifySchema & Record<string, unknown>;

/**
 * The route's own schemas in the document: zod schemas through fastify-type-provider-zod's transform, plain
 * JSON Schemas (the fast-json-stringify answers of lib/response-schema.ts) as they are; then what the route's
 * config says: the permission it needs, public or not, idempotency and rate limits, and the errors those bring.
 */
export const openApiTransform: SwaggerTransform = (document) => {
  const { url, route } = document;
  if (!isDocumented(url)) return { schema: { hide: true }, url };
  const source = (document.schema ?? {}) as Schema;
  const { response, documentedBody, produces, ...rest } = source;

  // Zod schemas go through the zod transform; plain JSON Schemas are kept for @fastify/swagger as they are.
  const zodPart: Schema = {};
  const plainPart: Schema = {};
  for (const [key, value] of Object.entries(rest)) {
    if (['body', 'querystring', 'params', 'headers'].includes(key)) (isZod(value) ? zodPart : plainPart)[key] = value;
    else zodPart[key] = value;
  }
  const zodAnswers: Record<string, unknown> = {};
  const answers: Record<string, unknown> = {};
  for (const [status, value] of Object.entries((response ?? {}) as Record<string, unknown>)) {
    if (isZod(value)) zodAnswers[status] = value;
    else answers[status] = value;
  }
  if (Object.keys(zodAnswers).length > 0) zodPart.response = zodAnswers;
  const converted = zodTransform({ ...document, schema: zodPart }).schema as Schema;
  const schema: Schema = { ...converted, ...plainPart };
  Object.assign(answers, converted.response);

  if (documentedBody) {
    schema.body = {
      content: Object.fromEntries(Object.entries(documentedBody).map(([type, body]) => [type, { schema: body }])),
    };
  }
  // A file answer: its content types, as a binary string (the route declares no JSON answer for it).
  if (produces && !answers[200]) {
    answers[200] = {
      description: fileDescription(produces[0]),
      content: Object.fromEntries(produces.map((type) => [type, { schema: binary(fileDescription(type)) }])),
    };
  }
  addListHeaders(schema, answers);

  const config = (route.config ?? {}) as {
    access?: RouteAccess;
    idempotent?: boolean;
    conflict?: string;
    gone?: string;
    rateLimit?: unknown;
  };
  // plugins/authorize.ts refuses to start with an /api route that declares none.
  const access = config.access;
  if (!access) throw new Error(`${route.method} ${url} declares no access rule`);
  if (config.idempotent === true) addIdempotencyKey(schema);

  const errors = new Set<string>();
  // Invalid input is 400; a malformed id in the path is 404, like a record that does not exist.
  if (schema.body || schema.querystring || schema.headers) errors.add('400');
  if (access !== 'public') errors.add('401');
  if (Array.isArray(access)) errors.add('403');
  if (url.includes(':')) errors.add('404');
  if (config.idempotent === true) {
    errors.add('409');
    errors.add('422');
  }
  for (const status of errors) if (!answers[status]) answers[status] = errorAnswer(status);
  if (config.conflict) {
    const inProgress = config.idempotent === true ? ` Also: ${ERROR_TEXT[409]}` : '';
    answers[409] = {
      ...errorAnswer('409'),
      description: `${config.conflict.replace(/\.$/, '')} (CONFLICT).${inProgress}`,
    };
  }
  if (config.gone) answers[410] = { ...errorAnswer('410'), description: `${config.gone.replace(/\.$/, '')} (GONE).` };
  if (config.rateLimit) {
    answers[429] = {
      ...errorAnswer('429'),
      headers: { 'Retry-After': { type: 'integer', description: 'Seconds until the next request is taken.' } },
    };
  }

  for (const [status, answer] of Object.entries(answers)) {
    const text = SUCCESS_TEXT[status];
    const described = answer as { description?: string };
    // A copy: a plain JSON Schema answer is the route's own serializer schema.
    if (text && !described.description) answers[status] = { ...described, 'x-response-description': text };
  }
  schema.response = answers;
  schema.tags = [tagOf(url)];
  schema.operationId = operationIdOf(String(route.method), url);
  schema.description = [source.description, accessSentence(access)].filter(Boolean).join('\n\n');
  schema['x-permissions'] = access;
  if (access === 'public') schema.security = [];
  return { schema, url };
};

/** A list's page total, on the answers of routes that take `limit` and answer a JSON array (lib/http.ts sendPage). */
function addListHeaders(schema: Schema, answers: Record<string, unknown>): void {
  const query = schema.querystring as { properties?: Record<string, unknown> } | undefined;
  const ok = answers[200] as { type?: unknown } | undefined;
  if (!query?.properties?.limit || ok?.type !== 'array') return;
  // A copy: a plain JSON Schema answer is the route's own serializer schema.
  answers[200] = { ...ok, headers: listHeaders };
}

const listHeaders = {
  'X-Total-Count': { type: 'integer', description: 'How many rows the whole list has.' },
  'X-Total-Count-Lower-Bound': {
    type: 'string',
    enum: ['true'],
    description: 'Present when the list has at least X-Total-Count rows (the count stopped there).',
  },
};

/** The optional Idempotency-Key header, beside any headers the route declares. */
function addIdempotencyKey(schema: Schema): void {
  const headers = (schema.headers ?? { type: 'object', properties: {} }) as { properties?: Record<string, unknown> };
  schema.headers = {
    ...headers,
    properties: {
      ...headers.properties,
      [IDEMPOTENCY_HEADER]: {
        type: 'string',
        minLength: 1,
        maxLength: IDEMPOTENCY_KEY_MAX,
        description: `Makes a retry safe: the same key and body within ${IDEMPOTENCY_WINDOW_HOURS} hours replays the first answer; a different body gets 422; while the first is in progress, 409.`,
      },
    },
  };
}

/** The document itself, as far as it is checked on the way out: an OpenAPI 3.1 object. */
const documentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/**
 * The OpenAPI 3.1 document of every /api route, generated from the routes' own schemas when first asked for
 * (@fastify/swagger collects every route registered after this), at /api/openapi.json, and the browsable
 * reference (Swagger UI, served from its own package, outside the web client's bundles) at /api/docs. Both are
 * public. Register before the routes.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'AdCRM API', version: packageJson.version, description: DESCRIPTION },
      // The paths are absolute (/api/...) on the origin that serves this document.
      servers: [{ url: '/', description: 'The server that serves this document.' }],
      components: {
        schemas: { Error: ERROR_SCHEMA },
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'A session token from POST /api/auth/login, or an API key (adcrm_...).',
          },
          cookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'sid',
            description: 'The session cookie a browser gets when signing in.',
          },
        },
      },
      security: [{ bearer: [] }, { cookie: [] }],
    },
    transform: openApiTransform,
  });

  app.withTypeProvider<ZodTypeProvider>().get(
    OPENAPI_PATH,
    {
      config: { access: 'public' },
      schema: { summary: 'Get the OpenAPI document', description: 'This document.', response: { 200: documentSchema } },
    },
    async () => app.swagger() as z.infer<typeof documentSchema>,
  );

  // Swagger UI's routes cannot carry our config: withAccess marks them public (plugins/authorize.ts).
  await app.register(
    withAccess('public', swaggerUi, {
      routePrefix: DOCS_PREFIX,
      theme: { title: 'AdCRM API reference' },
      // BaseLayout: the reference without Swagger UI's top bar (its logo and a box to load other documents).
      uiConfig: { layout: 'BaseLayout', deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0 },
    }),
  );
}
