import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { appErrorFromDatabase, loggableError } from '../lib/db-errors';
import { AppError, addFieldError, type ErrorCode, type FieldErrors, invalidFields } from '../lib/errors';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'BAD_REQUEST',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE',
  429: 'RATE_LIMITED',
  431: 'HEADERS_TOO_LARGE',
};

const NOT_FOUND = { message: 'Not found', code: 'NOT_FOUND' } as const;

/**
 * One handler for every error, and one body shape for every error answer: `{ message, code }` (plus
 * `fieldErrors` for validation). AppErrors keep their status and message; request validation failures
 * become 400 with each field's messages (404 for a malformed id in the path); database failures become 503
 * (outage), 409 (unique violation, concurrent change) or 400 (data the database cannot store); Fastify's own
 * client errors (bad JSON, body too large, wrong content type) keep their 4xx; anything else is logged and
 * answered as a plain 500. Errors are logged through `loggableError` only, never with query parameters.
 */
export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler<FastifyError>((error, request, reply) => {
    if (error instanceof AppError) return sendAppError(reply, error);

    if (hasZodFastifySchemaValidationErrors(error)) {
      // A malformed id in the path names a record that cannot exist.
      if (error.validationContext === 'params') return reply.status(404).send(NOT_FOUND);
      const fieldErrors: FieldErrors = {};
      const where = error.validationContext ?? 'body';
      for (const issue of error.validation) {
        const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || where;
        addFieldError(fieldErrors, key, issue.message ?? 'Invalid value');
      }
      return sendAppError(reply, invalidFields(fieldErrors));
    }

    const fromDatabase = appErrorFromDatabase(error);
    if (fromDatabase) {
      if (fromDatabase.code === 'UNAVAILABLE') request.log.warn({ err: loggableError(error) }, 'database unavailable');
      // A race lost to a constraint is expected now and then; data the schemas let through but the database
      // refused points at a schema to tighten.
      else if (fromDatabase.code === 'CONFLICT')
        request.log.info({ err: loggableError(error) }, 'database refused the data');
      else request.log.warn({ err: loggableError(error) }, 'database refused data the schemas accepted');
      return sendAppError(reply, fromDatabase);
    }

    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message =
        error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'Unsupported content type: send JSON'
          : error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
            ? 'The request body is empty'
            : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
              ? 'The request body is too large'
              : error.code?.startsWith('FST_ERR_CTP_') || error instanceof SyntaxError
                ? 'The request body is not valid JSON'
                : error.message;
      const code = CODE_BY_STATUS[status] ?? 'BAD_REQUEST';
      return reply.status(status).send({ message, code });
    }

    request.log.error({ err: loggableError(error) }, 'unhandled error');
    return reply.status(500).send({ message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' });
  });

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.method !== 'GET') {
      return reply
        .status(404)
        .send({ message: `No such endpoint: ${request.method} ${request.url.split('?')[0]}`, code: 'NOT_FOUND' });
    }
    // Everything else is a client-side route: the single-page app decides what to show.
    return reply.sendIndex();
  });
}

function sendAppError(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  return reply.status(error.status).send(error.toBody());
}

/**
 * Fastify's router errors (Fastify option `frameworkErrors`), in the same body shape: a path parameter past
 * maxParamLength (an over-long id) is a record that cannot exist (404, as a malformed id is); a path with
 * broken percent-encoding is a 400.
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply.status(404).send(NOT_FOUND);
    return;
  }
  const message =
    error.code === 'FST_ERR_BAD_URL' ? 'The address is not valid: it has broken percent-encoding' : 'Bad request';
  reply.status(400).send({ message, code: 'BAD_REQUEST' });
}

/**
 * Errors Node's HTTP parser meets before Fastify sees a request (Fastify option `clientErrorHandler`): headers
 * too large (431), a request that took too long (408), anything malformed (400), in the same body shape.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, text, body] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'Request Header Fields Too Large',
          { message: 'The request headers are too large', code: 'HEADERS_TOO_LARGE' },
        ]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', { message: 'The request took too long to arrive', code: 'REQUEST_TIMEOUT' }]
        : [400, 'Bad Request', { message: 'The request is malformed', code: 'BAD_REQUEST' }];
  const json = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${text}\r\nContent-Length: ${Buffer.byteLength(json)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy(error);
}
