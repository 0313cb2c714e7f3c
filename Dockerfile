# AdCRM's container image (docs/deploy.md).
#
# Container engines cannot run on the development machines, nor on CI's, so this file is never built there:
# the operator's pipeline builds it. Its steps are therefore kept to the very commands CI runs on every
# commit, so that a commit CI has passed builds into the image the same way:
#   - `npm ci --no-audit --no-fund`  is .ci/run's install step (exactly the lock file, Node 20);
#   - `npm run build`                is what `npm test` runs in its test:e2e step before the browser tests
#                                    (vite build -> dist/client, scripts/build-server.mjs -> dist/server).
# Only the runtime stage adds `--omit=dev`: the compiled server imports only packages the production install
# brings (build-server.mjs bundles our own code and leaves npm packages as imports).

# Node 20, as on the development machines and CI (package.json: engines >=20.19).
ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: the client and the compiled server --------------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# The lock file first: the install layer is reused until package.json or package-lock.json change.
COPY package.json package-lock.json ./
# CI: .ci/run's `npm ci --no-audit --no-fund`.
RUN npm ci --no-audit --no-fund
# The sources (.dockerignore leaves out node_modules, dist, data, test output, .git).
COPY . .
# CI: `npm run build` (test:e2e): dist/client (with .br/.gz copies of the assets) and dist/server/main.js,
# with the migrations copied beside it into dist/server/migrations, where server/db/client.ts reads them.
RUN npm run build

# ---- runtime: production dependencies, the build output, a non-root user --------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# The same lock file without devDependencies (vite, typescript, the test tools): CI's install, `--omit=dev`.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
# Everything the server reads from disk at run time is in dist/: the client it serves (CLIENT_DIST,
# ./dist/client from the working directory) and the migrations beside main.js (dist/server/migrations).
COPY --from=build /app/dist ./dist
# The code stays owned by root and read-only to the server; the one writable place is DATA_DIR's folder
# (the embedded database and the uploads folder when DATABASE_URL / STORAGE_URL are not set; its lock file
# is written beside it, hence the parent folder).
RUN mkdir -p /var/lib/adcrm && chown node:node /var/lib/adcrm
ENV DATA_DIR=/var/lib/adcrm/data
# The unprivileged user the official Node images ship (uid 1000).
USER node
EXPOSE 3000
# GET /api/health answers 200 while the database answers (status ok or degraded) and 503 when it does not.
# Slim images have no curl: Node's own fetch asks; PORT is the container's own setting.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# What `npm start` runs after its build step (scripts/build-if-stale.mjs), without building: the image is
# built already. Node is PID 1 and handles SIGTERM itself (server/main.ts: stops jobs, finishes requests).
CMD ["node", "--enable-source-maps", "dist/server/main.js"]
