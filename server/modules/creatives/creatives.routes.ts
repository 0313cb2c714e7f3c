import multipart from '@fastify/multipart';
import { idParamSchema, listQuerySchema } from '@shared/contracts/common';
import { CREATIVE_MESSAGES, CREATIVE_UPLOAD_HINT, MAX_CREATIVE_BYTES } from '@shared/contracts/creatives';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors';
import { sendPage } from '../../lib/http';
import { jsonSerializerCompiler, messageResponse } from '../../lib/response-schema';
import { creativeListResponse, creativeResponse } from './creatives.response';
import {
  attachmentHeader,
  type CreativeDeps,
  deleteCreative,
  downloadName,
  listClientCreatives,
  listContractCreatives,
  openCreative,
  uploadCreative,
} from './creatives.service';

/**
 * Creatives: the client's upload, the lists (a contract's, for staff who may read it and its client; the
 * client's own), the download and delete. The multipart parser is registered in this scope only.
 */
/** The file's limit plus room for the multipart framing and the contract's id. */
const MAX_UPLOAD_REQUEST_BYTES = MAX_CREATIVE_BYTES + 64 * 1024;

/** The upload's form as the API reference shows it (the multipart parser reads it; no schema validates it). */
const uploadForm = {
  type: 'object',
  required: ['contractId', 'file'],
  properties: {
    contractId: { type: 'string', format: 'uuid', description: "One of the client's own contracts." },
    file: {
      type: 'string',
      format: 'binary',
      description: `${CREATIVE_UPLOAD_HINT} (the type is read from the content).`,
    },
  },
};

export async function creativesRoutes(app: FastifyInstance): Promise<void> {
  const caps = { perHour: app.config.CREATIVE_UPLOADS_PER_HOUR, storageMegabytes: app.config.CREATIVE_STORAGE_MB };
  const deps = (request: FastifyRequest): CreativeDeps => ({
    db: app.db,
    storage: app.storage,
    log: request.log,
    caps,
  });
  await app.register(multipart, {
    // One file of at most 10 MiB and the contract's id; anything more is refused by the parser.
    limits: { fileSize: MAX_CREATIVE_BYTES, files: 1, fields: 4, parts: 6, fieldSize: 1024, headerPairs: 50 },
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const see = ['contract:read:any', 'contract:read:own', 'portal:access'] as const;
  // Every JSON answer is declared (lib/response-schema.ts): only these fields are ever sent. The download is a file.
  const answers = { serializerCompiler: jsonSerializerCompiler };
  const list = { 200: creativeListResponse };

  r.post(
    '/api/client/creatives',
    {
      config: {
        access: ['creative:upload'],
        conflict: 'The contract is canceled or completed, so it takes no creatives.',
      },
      schema: {
        summary: 'Upload a creative',
        documentedBody: { 'multipart/form-data': uploadForm },
        response: { 201: creativeResponse },
      },
      ...answers,
    },
    async (request, reply) => {
      try {
        // A body that announces more than one file of the limit can hold is refused before it is read.
        if (Number(request.headers['content-length']) > MAX_UPLOAD_REQUEST_BYTES) {
          throw new AppError('PAYLOAD_TOO_LARGE', CREATIVE_MESSAGES.tooLarge);
        }
        if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', CREATIVE_MESSAGES.notMultipart);
        return reply.status(201).send(await uploadCreative(deps(request), request.user!, request.parts()));
      } catch (error) {
        // What is left of a refused upload is not read (Node would drain it to keep the connection): the
        // connection closes after the answer, so the sender stops at once.
        reply.header('connection', 'close');
        throw error;
      }
    },
  );

  r.get(
    '/api/client/creatives',
    {
      config: { access: ['portal:access'] },
      schema: { summary: "List the client's creatives", querystring: listQuerySchema, response: list },
      ...answers,
    },
    async (request, reply) => sendPage(reply, await listClientCreatives(app.db, request.user!, request.query)),
  );

  r.get(
    '/api/contracts/:id/creatives',
    {
      config: { access: see },
      schema: {
        summary: "List a contract's creatives",
        params: idParamSchema,
        querystring: listQuerySchema,
        response: list,
      },
      ...answers,
    },
    async (request, reply) =>
      sendPage(reply, await listContractCreatives(app.db, request.user!, request.params.id, request.query)),
  );

  r.get(
    '/api/creatives/:id/download',
    {
      config: { access: see },
      // The stored file as it was uploaded, with its own type (an image, a video, a PDF or a Word document).
      schema: { summary: 'Download a creative', params: idParamSchema, produces: ['application/octet-stream'] },
      compress: false,
    },
    async (request, reply) => {
      const { creative, stream } = await openCreative(deps(request), request.user!, request.params.id);
      return reply
        .header('Content-Type', creative.mimeType)
        .header('Content-Length', String(creative.sizeBytes))
        .header('Content-Disposition', attachmentHeader(downloadName(creative)))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header('Cache-Control', 'private, no-store')
        .send(stream);
    },
  );

  r.delete(
    '/api/creatives/:id',
    {
      config: { access: ['contract:write:any', 'contract:write:own', 'creative:upload'] },
      schema: { summary: 'Delete a creative', params: idParamSchema, response: { 200: messageResponse } },
      ...answers,
    },
    async (request) => {
      await deleteCreative(deps(request), request.user!, request.params.id);
      return { message: 'Creative deleted' };
    },
  );
}
