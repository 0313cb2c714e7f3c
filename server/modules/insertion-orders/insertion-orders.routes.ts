import multipart from '@fastify/multipart';
import { idParamSchema } from '@shared/contracts/common';
import { ioAcceptSchema, ioDeclineSchema } from '@shared/contracts/insertion-orders';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type SingleFileUpload, withSingleFile } from '../../lib/multipart';
import { publicOrigin } from '../../lib/public-url';
import { jsonSerializerCompiler } from '../../lib/response-schema';
import {
  contractInsertionOrdersResponse,
  ioGoneResponse,
  ioVerifyResponse,
  publicInsertionOrderResponse,
} from './insertion-orders.response';
import {
  acceptInsertionOrder,
  contractInsertionOrders,
  declineInsertionOrder,
  getPublicInsertionOrder,
  type IoDeps,
  type IoFile,
  type IoGone,
  type IoRequestMeta,
  publicInsertionOrderPdf,
  publicSignedPdf,
  staffInsertionOrderPdf,
  verifyInsertionOrderPdf,
} from './insertion-orders.service';

/** The largest file the verify route reads. */
export const MAX_VERIFY_BYTES = 20 * 1024 * 1024;

/** Limits of the public IO routes per client address and route, as the pay link's (payments/rate-limit.ts). */
const IO_PUBLIC_LIMITS = {
  read: { max: 60, timeWindow: 60_000 },
  answer: { max: 20, timeWindow: 60_000 },
} as const;

const ioTokenParamSchema = z.object({ token: z.string().max(200) });
const versionParamSchema = idParamSchema.extend({
  version: z.coerce
    .number({ message: 'Not a version' })
    .int('Not a version')
    .min(1, 'Not a version')
    .max(100_000, 'Not a version'),
});

const verifyForm = {
  type: 'object',
  required: ['file'],
  properties: { file: { type: 'string', format: 'binary', description: 'The PDF to check (up to 20 MB).' } },
};

/** The one PDF the verify route reads, and its refusals. */
const VERIFY_UPLOAD: SingleFileUpload = {
  maxBytes: MAX_VERIFY_BYTES,
  field: 'file',
  messages: {
    tooLarge: 'The file is over 20 MB.',
    notMultipart: 'Send the PDF as multipart/form-data.',
    oneFile: 'Send one PDF.',
    missing: 'Choose a PDF to check.',
  },
};

const isGone = (value: unknown): value is IoGone => typeof value === 'object' && value !== null && 'gone' in value;

/**
 * The PDF shown inline may be framed by our own pages only (the review step shows it beside the Accept form);
 * every other response keeps frame-ancestors 'none'. A PDF runs no script of ours, so it needs nothing else.
 */
const INLINE_PDF_POLICY = "default-src 'none'; frame-ancestors 'self'";

function sendPdf(reply: FastifyReply, file: IoFile, disposition: 'inline' | 'attachment') {
  if (disposition === 'inline') reply.header('Content-Security-Policy', INLINE_PDF_POLICY);
  return reply
    .header('Content-Type', 'application/pdf')
    .header('Content-Disposition', `${disposition}; filename="${file.filename}"`)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'private, no-store')
    .send(file.bytes);
}

/**
 * Insertion orders (product.md section 15): the customer's side, reached by the version's capability link
 * (rate limited per client address; unknown tokens 404, an older version's link 410 naming the newest), and
 * staff's: the versions of a contract (no token), their files and the check of a file's SHA-256.
 */
export async function insertionOrdersRoutes(app: FastifyInstance): Promise<void> {
  const deps = (): IoDeps => ({
    db: app.db,
    mailer: app.mailer,
    storage: app.storage,
    baseUrl: publicOrigin(app),
  });
  const meta = (request: FastifyRequest): IoRequestMeta => ({
    ip: request.ip ?? null,
    userAgent: (request.headers['user-agent'] ?? '').slice(0, 500) || null,
  });
  await app.register(multipart, {
    limits: { fileSize: MAX_VERIFY_BYTES, files: 1, fields: 2, parts: 3, fieldSize: 1024, headerPairs: 50 },
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const answers = { serializerCompiler: jsonSerializerCompiler };

  r.get(
    '/api/io/:token',
    {
      config: { access: 'public', rateLimit: IO_PUBLIC_LIMITS.read },
      schema: {
        summary: 'Get an insertion order by its link',
        params: ioTokenParamSchema,
        response: { 200: publicInsertionOrderResponse, 410: ioGoneResponse },
      },
      ...answers,
    },
    async (request, reply) => {
      const answer = await getPublicInsertionOrder(deps(), request.params.token, meta(request));
      if (isGone(answer)) return reply.status(410).send(answer.gone);
      return answer;
    },
  );

  r.get(
    '/api/io/:token/pdf',
    {
      config: { access: 'public', rateLimit: IO_PUBLIC_LIMITS.read },
      schema: {
        summary: "Download an insertion order's PDF by its link",
        params: ioTokenParamSchema,
        produces: ['application/pdf'],
      },
    },
    async (request, reply) => {
      const answer = await publicInsertionOrderPdf(deps(), request.params.token);
      if (isGone(answer)) return reply.status(410).type('application/json').send(JSON.stringify(answer.gone));
      return sendPdf(reply, answer, 'inline');
    },
  );

  r.get(
    '/api/io/:token/signed-pdf',
    {
      config: { access: 'public', rateLimit: IO_PUBLIC_LIMITS.read },
      schema: {
        summary: "Download a signed insertion order's PDF by its link",
        params: ioTokenParamSchema,
        produces: ['application/pdf'],
      },
    },
    async (request, reply) => sendPdf(reply, await publicSignedPdf(deps(), request.params.token), 'attachment'),
  );

  r.post(
    '/api/io/:token/accept',
    {
      config: {
        access: 'public',
        rateLimit: IO_PUBLIC_LIMITS.answer,
        conflict: 'The insertion order is no longer open: accepted, declined, or replaced by a newer version.',
      },
      schema: {
        summary: 'Accept and sign an insertion order',
        params: ioTokenParamSchema,
        body: ioAcceptSchema,
        response: { 200: publicInsertionOrderResponse },
      },
      ...answers,
    },
    async (request) => acceptInsertionOrder(deps(), request.params.token, request.body, meta(request)),
  );

  r.post(
    '/api/io/:token/decline',
    {
      config: {
        access: 'public',
        rateLimit: IO_PUBLIC_LIMITS.answer,
        conflict: 'The insertion order is no longer open: accepted, declined, or replaced by a newer version.',
      },
      schema: {
        summary: 'Decline an insertion order',
        params: ioTokenParamSchema,
        body: ioDeclineSchema,
        response: { 200: publicInsertionOrderResponse },
      },
      ...answers,
    },
    async (request) => declineInsertionOrder(deps(), request.params.token, request.body, meta(request)),
  );

  // Staff: whoever may read the contract.
  const read = ['contract:read:any', 'contract:read:own'] as const;

  r.get(
    '/api/contracts/:id/io',
    {
      config: { access: read },
      schema: {
        summary: "List a contract's insertion order versions",
        params: idParamSchema,
        response: { 200: contractInsertionOrdersResponse },
      },
      ...answers,
    },
    async (request) => contractInsertionOrders(app.db, request.user!, request.params.id),
  );

  r.get(
    '/api/contracts/:id/io/:version/pdf',
    {
      config: { access: read },
      schema: {
        summary: "Download an insertion order version's PDF",
        params: versionParamSchema,
        produces: ['application/pdf'],
      },
    },
    async (request, reply) =>
      sendPdf(
        reply,
        await staffInsertionOrderPdf(deps(), request.user!, request.params.id, request.params.version, 'sent'),
        'attachment',
      ),
  );

  r.get(
    '/api/contracts/:id/io/:version/signed-pdf',
    {
      config: { access: read },
      schema: {
        summary: "Download an insertion order version's signed PDF",
        params: versionParamSchema,
        produces: ['application/pdf'],
      },
    },
    async (request, reply) =>
      sendPdf(
        reply,
        await staffInsertionOrderPdf(deps(), request.user!, request.params.id, request.params.version, 'signed'),
        'attachment',
      ),
  );

  r.post(
    '/api/contracts/:id/io/verify',
    {
      config: { access: read },
      schema: {
        summary: "Check a PDF against a contract's insertion orders",
        params: idParamSchema,
        documentedBody: { 'multipart/form-data': verifyForm },
        response: { 200: ioVerifyResponse },
      },
      ...answers,
    },
    async (request, reply) =>
      withSingleFile(request, reply, VERIFY_UPLOAD, (bytes) =>
        verifyInsertionOrderPdf(app.db, request.user!, request.params.id, bytes),
      ),
  );
}
