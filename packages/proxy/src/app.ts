// createProxyApp: the proxy as an h3 app: its routes, each declared with who may call it, over
// the configured scope (scope/static-scope.ts keeps that scope's flags and usage counts in step
// with the upstream). It listens on nothing; `startProxy` (or a test) mounts it.
import { hostname } from 'node:os'
import { type App, createApp, type NodeListener, toNodeListener } from 'h3'
import { createEngine, type Engine } from '@vexil/engine'
import type { ProxyConfig } from './config/types.js'
import { compileClientAddress } from './http/client-ip.js'
import { compileCorsHeaders } from './http/cors.js'
import type { Logger } from './logger.js'
import { createDocsHandler, createOpenApiDocument } from './openapi/index.js'
import { createPrometheusExporter } from './prometheus.js'
import { clientMetricsRoutes } from './routes/client-metrics.js'
import { docsRoutes } from './routes/docs.js'
import { evaluateRoutes } from './routes/evaluate.js'
import { operationalRoutes } from './routes/operational.js'
import { serverSideFeaturesRoutes } from './routes/server-side-features.js'
import { compileAccessCheck } from './routing/access.js'
import type { RouteDescription, RouteInstrument } from './routing/route-declaration.js'
import { createRequestHandler } from './routing/request-handler.js'
import { createProxyRouter } from './routing/router.js'
import type { CurrentFlags } from './scope/scope-flags.js'
import { createStaticScope } from './scope/static-scope.js'
import type { StorageProvider } from './storage/types.js'
import { createHttpUpstream, SDK_VERSION, type Upstream } from './sync/upstream.js'

export interface ProxyAppOptions {
  config: ProxyConfig
  /** Makes the engine of each flag set. Default: one with the configured custom strategies and this machine's hostname. */
  newEngine?: () => Engine
  /** Default: the upstream at `config.serviceUrl`. */
  upstream?: Upstream
  /** Default: the provider configured (file in ./.vexil/proxy unless set otherwise); null for none. */
  storage?: StorageProvider | null
  logger?: Logger
  /** Wraps each route's handler once, at creation (tests spy on handlers with it; tracing could too). */
  instrumentRoute?: RouteInstrument
}

export interface ProxyApp {
  /** The h3 app. */
  app: App
  /** For `http.createServer`. */
  listener: NodeListener
  /** The current flag set (undefined until the first payload), for tests and tools. */
  readonly flags: CurrentFlags
  /** Every route (one entry per method) with who may call it, for tests and tools. */
  readonly routes: readonly RouteDescription[]
  readonly ready: boolean
  /** Starts syncing (first fetch, bootstrap, backup) and metrics; resolves after the first fetch. */
  start(): Promise<void>
  /** Stops syncing, sends pending metrics, releases storage. */
  close(): Promise<void>
}

export function createProxyApp(options: ProxyAppOptions): ProxyApp {
  const { config } = options
  const logger = options.logger ?? config.logger
  const engineHostname = process.env.HOSTNAME ?? hostname()
  const newEngine = options.newEngine ?? (() => createEngine({ strategies: config.customStrategies, hostname: engineHostname }))
  const upstream = options.upstream ?? createHttpUpstream(config)
  const scope = createStaticScope({ config, logger, upstream, storage: options.storage, newEngine, onFetch: (result) => prometheus.upstreamFetch(result) })
  const { flags, usage } = scope
  const prometheus = createPrometheusExporter({
    lastUpdate: () => flags.current?.loadedAt ?? 0,
    lastFetch: () => scope.lastFetch,
    flagCount: () => flags.current?.engine.size ?? 0,
  })
  const docs = config.enableOAS
    ? createDocsHandler({
        basePath: config.proxyBasePath,
        document: createOpenApiDocument({ basePath: config.proxyBasePath, clientKeysHeaderName: config.clientKeysHeaderName, version: SDK_VERSION, enableAllEndpoint: config.enableAllEndpoint }),
      })
    : undefined

  const corsHeaders = compileCorsHeaders(config.cors)
  // Every route, with who may call it, next to its handler, each its own handler on h3's router;
  // a route without a valid access declaration is refused, so a proxy with one never starts.
  const router = createProxyRouter(
    [
      ...evaluateRoutes({ config, logger, usage, prometheus }, compileClientAddress(config.trustProxy)),
      ...clientMetricsRoutes({ usage, logger }),
      ...serverSideFeaturesRoutes(),
      ...operationalRoutes(prometheus.registry),
      ...(docs ? docsRoutes(docs) : []),
    ],
    {
      keyHeader: config.clientKeysHeaderName,
      permits: compileAccessCheck(config.clientKeys, config.serverSideTokens),
      currentFlags: () => flags.current,
      corsHeaders,
      instrument: options.instrumentRoute,
    },
  )
  const app = createApp()
  app.use(createRequestHandler({ router: router.handler, basePath: config.proxyBasePath, cors: config.cors, corsHeaders, logger }))

  return {
    app,
    listener: toNodeListener(app),
    flags,
    routes: router.routes,
    get ready() {
      return flags.current !== undefined
    },
    start: () => scope.start(),
    close: () => scope.close(),
  }
}
