import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../lib/errors';

const CODE_BY_STATUS: Record<number, string> = {
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'BAD_REQUEST',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/**
 * One handler for every error: AppErrors keep their status and message; request validation
 * failures become 400 with each field's messages; Fastify's own client errors (bad JSON, body too
 * large, wrong content type) keep their 4xx; anything else is logged and answered as a plain 500.
 */
export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler<FastifyError>((error, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.status).send(error.toBody());
    }

    if (hasZodFastifySchemaValidationErrors(error)) {
      // A malformed id in the path names a record that cannot exist.
      if (error.validationContext === 'params') {
        return reply.status(404).send({ message: 'Not found', code: 'NOT_FOUND' });
      }
      const fieldErrors: Record<string, string[]> = {};
      const where = error.validationContext ?? 'body';
      for (const issue of error.validation) {
        const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || where;
        fieldErrors[key] = [...(fieldErrors[key] ?? []), issue.message ?? 'Invalid value'];
      }
      const messages = [...new Set(Object.values(fieldErrors).flat())];
      return reply.status(400).send({ message: messages.join('; '), code: 'VALIDATION', fieldErrors });
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

    request.log.error({ err: error }, 'unhandled error');
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
