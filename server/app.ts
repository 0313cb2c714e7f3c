import fs from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Db } from './db/client';
import { setBusinessTimeZone } from './lib/business-day';
import { setDefaultLegalName } from './lib/company-profile';
import { loggerOptions } from './lib/logger';
import { createMailer, type Mailer } from './lib/mailer';
import { createStorage, type Storage } from './lib/storage';
import { registerRoutes } from './modules';
import { authPlugin } from './plugins/auth';
import { authorizePlugin } from './plugins/authorize';
import { registerCompression } from './plugins/compression';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandlers } from './plugins/error-handler';
import { idempotencyPlugin } from './plugins/idempotency';
import { registerInputGuard } from './plugins/input-guard';
import { registerOpenApi } from './plugins/openapi';
import { registerRateLimit } from './plugins/rate-limit';
import { registerSecurityHeaders } from './plugins/security';
import { trustProxyOption } from './trust-proxy';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    mailer: Mailer;
    /** The configured storage (STORAGE_URL's bucket, else the uploads folder under DATA_DIR), made once. */
    storage: Storage;
  }
  interface FastifyReply {
    sendIndex(): FastifyReply;
  }
}

export type AppDeps = { config: Config; db: Db; logger?: boolean | object; mailer?: Mailer };

/** Builds the whole application: plugins, then routes, then error and not-found handlers. Tests build it too. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(deps.config),
    // Forwarded client addresses and protocols only from the configured proxies (TRUST_PROXY), never from anyone.
    trustProxy: trustProxyOption(deps.config.TRUST_PROXY),
    bodyLimit: 1024 * 1024,
    // Router and HTTP-parser errors answer in the API's one error shape too.
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // No "incoming request" / "request completed" lines per request in production (errors are still logged).
    logController: new LogController({ disableRequestLogging: deps.config.NODE_ENV === 'production' }),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('db', deps.db);
  app.decorate('config', deps.config);
  app.decorate('storage', createStorage(deps.config));
  setBusinessTimeZone(deps.config.BUSINESS_TIMEZONE);
  // The legal name documents print until an admin saves the company profile.
  setDefaultLegalName(deps.config.BUSINESS_NAME);
  app.decorate('mailer', deps.mailer ?? createMailer(deps.config));
  app.addHook('onClose', async () => {
    await app.mailer.close();
  });

  await registerSecurityHeaders(app);
  await registerCompression(app);
  await app.register(cookie);
  await app.register(authPlugin, { db: deps.db, config: deps.config });
  await app.register(authorizePlugin);
  // After auth and authorize: a caller without access is refused before any Idempotency-Key is claimed.
  await app.register(idempotencyPlugin, { db: deps.db });
  await registerRateLimit(app);

  registerErrorHandlers(app);
  registerInputGuard(app);
  // Before the routes: the document is generated from every route registered after it.
  await registerOpenApi(app);
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
      // Built assets come with .br and .gz siblings (vite.config.ts); the one the browser accepts is sent.
      preCompressed: true,
      setHeaders: (response, filePath) => {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        response.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        // A .br or .gz copy may be chosen by Accept-Encoding: caches must keep them apart.
        response.setHeader('Vary', 'Accept-Encoding');
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
