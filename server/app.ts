import fs from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Db } from './db/client';
import { createMailer, type Mailer } from './lib/mailer';
import { registerRoutes } from './modules';
import { authPlugin } from './plugins/auth';
import { authorizePlugin } from './plugins/authorize';
import { registerErrorHandlers } from './plugins/error-handler';
import { registerInputGuard } from './plugins/input-guard';
import { registerSecurityHeaders } from './plugins/security';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    mailer: Mailer;
  }
  interface FastifyReply {
    sendIndex(): FastifyReply;
  }
}

export type AppDeps = { config: Config; db: Db; logger?: boolean | object; mailer?: Mailer };

/** Builds the whole application: plugins, then routes, then error and not-found handlers. Tests build it too. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? {
      level: deps.config.LOG_LEVEL,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
    trustProxy: true,
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('db', deps.db);
  app.decorate('config', deps.config);
  app.decorate('mailer', deps.mailer ?? createMailer(deps.config));

  await registerSecurityHeaders(app);
  await app.register(cookie);
  await app.register(authPlugin, { db: deps.db, config: deps.config });
  await app.register(authorizePlugin);

  registerErrorHandlers(app);
  registerInputGuard(app);
  await registerRoutes(app);
  await registerClient(app, deps.config);

  return app;
}

/** Serves the built client; every non-API GET falls back to index.html so client routes load directly. */
async function registerClient(app: FastifyInstance, config: Config): Promise<void> {
  const root = path.resolve(config.CLIENT_DIST);
  const hasClient = fs.existsSync(path.join(root, 'index.html'));
  if (hasClient) {
    // Unknown paths fall through to the not-found handler, which serves index.html for client routes.
    await app.register(fastifyStatic, {
      root,
      index: false,
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.get('/', (_request, reply) => reply.sendIndex());
  app.decorateReply('sendIndex', function (this: import('fastify').FastifyReply) {
    if (!hasClient) {
      return this.status(404).type('text/plain').send('The web client is not built. Run `npm run build`.');
    }
    return this.header('Cache-Control', 'no-cache').sendFile('index.html');
  });
}
