# Vexil: the platform (flag service + evaluation proxy), or either part alone.
#   docker build -t vexil .                      (podman build works the same)
#   docker run -p 3000:3000 -p 4242:4242 -v vexil-data:/data vexil            # vexil start
#   docker run -p 3000:3000 -e UNLEASH_URL=... -e UNLEASH_API_TOKEN=... -e UNLEASH_PROXY_CLIENT_KEYS=... vexil proxy
#   docker run -p 4242:4242 -e DATABASE_URL=postgres://... vexil service
#   docker run -p 3063:3063 -e UPSTREAM_URL=... -e TOKENS=... vexil edge          # as Unleash Edge's image
# The base image is a build argument: an ordinary image of a supported Node LTS line (24 by
# default). No install script of any dependency runs: everything is installed with
# --ignore-scripts and built explicitly.
ARG NODE_IMAGE=node:24-slim

# --- build: every dependency, then the TypeScript and the admin UI ---
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# The manifests first, so the install layer is reused while only sources change.
COPY package.json package-lock.json ./
COPY packages/engine/package.json packages/engine/
COPY packages/sync/package.json packages/sync/
COPY packages/openfeature/package.json packages/openfeature/
COPY packages/server-kit/package.json packages/server-kit/
COPY packages/proxy/package.json packages/proxy/
COPY packages/service/package.json packages/service/
COPY packages/cli/package.json packages/cli/
COPY test-fixtures/package.json test-fixtures/
COPY bench/package.json bench/
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

# --- production dependencies of the vexil command only ---
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/packages/engine/package.json packages/engine/
COPY --from=build /app/packages/sync/package.json packages/sync/
COPY --from=build /app/packages/openfeature/package.json packages/openfeature/
COPY --from=build /app/packages/server-kit/package.json packages/server-kit/
COPY --from=build /app/packages/proxy/package.json packages/proxy/
COPY --from=build /app/packages/service/package.json packages/service/
COPY --from=build /app/packages/cli/package.json packages/cli/
COPY --from=build /app/test-fixtures/package.json test-fixtures/
COPY --from=build /app/bench/package.json bench/
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund --workspace @vexil/cli

# --- runtime: built code and production dependencies, run as the unprivileged `node` user ---
FROM ${NODE_IMAGE}
WORKDIR /app
# NODE_OPTIONS: V8's young generation capped at 2 MB semi-spaces (Node's default grows to 16 MB
# under load and stays resident): 25-40 MB less RSS at 0.79-1.0x the req/s (docs/operations.md, "Memory");
# WORKERS=N's workers inherit it. `-e NODE_OPTIONS=...` replaces it. The ENTRYPOINT adds V8's old
# generation growing factor (Node refuses that flag in NODE_OPTIONS): 15-20 MB less with 10k flags.
# HOST: `vexil start` listens on loopback alone unless told otherwise; in a container the
# published ports arrive on the container's own interface.
ENV NODE_ENV=production \
    NODE_OPTIONS=--max-semi-space-size=2 \
    HOST=0.0.0.0 \
    DATA_DIR=/data/service \
    STORAGE_FILE_DIRECTORY=/data/proxy
COPY --from=deps /app/node_modules node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/packages/engine/package.json packages/engine/
COPY --from=build /app/packages/engine/dist packages/engine/dist
COPY --from=build /app/packages/sync/package.json packages/sync/
COPY --from=build /app/packages/sync/dist packages/sync/dist
COPY --from=build /app/packages/server-kit/package.json packages/server-kit/
COPY --from=build /app/packages/server-kit/dist packages/server-kit/dist
COPY --from=build /app/packages/proxy/package.json packages/proxy/
COPY --from=build /app/packages/proxy/dist packages/proxy/dist
COPY --from=build /app/packages/service/package.json packages/service/
COPY --from=build /app/packages/service/dist packages/service/dist
COPY --from=build /app/packages/cli/package.json packages/cli/
COPY --from=build /app/packages/cli/dist packages/cli/dist
# The service's PGlite data and the proxy's backups: one volume, owned by the user that runs.
# /app/unleash-edge: where Edge's image has its binary, so Edge's chart's exec probes
# (`/app/unleash-edge health`) run unchanged.
RUN mkdir -p /data && chown node:node /data \
 && ln -s /app/packages/cli/dist/cli.js /usr/local/bin/vexil \
 && printf '#!/bin/sh\nexec node /app/packages/cli/dist/cli.js "$@"\n' > /app/unleash-edge \
 && chmod 755 /app/unleash-edge
VOLUME /data
USER node
# 3000: the proxy (/proxy, /api/frontend, /api/client, /ofrep); 3063: the same under `vexil edge`;
# 4242: the service (admin UI, APIs).
EXPOSE 3000 3063 4242
# Probes: GET /internal-backstage/health (proxy, also /ready; `vexil health`, `vexil ready`) and
# GET /health (service). The check asks the proxy on PORT (else Edge's 3063), then on 3000 (the
# platform, `vexil proxy`), then the service alone on PORT (else 4242): one image, every command.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
  CMD node /app/packages/cli/dist/cli.js health --edge-url "http://127.0.0.1:${PORT:-3063}" 2>/dev/null \
   || node /app/packages/cli/dist/cli.js health --edge-url http://127.0.0.1:3000 2>/dev/null \
   || node -e "fetch('http://127.0.0.1:${PORT:-4242}/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
ENTRYPOINT ["node", "--heap-growing-percent=30", "/app/packages/cli/dist/cli.js"]
CMD ["start"]
