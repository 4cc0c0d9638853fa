// createProxyApp: the proxy as an h3 app: its routes, each declared with who may call it, over
// the configured scope (scope/static-scope.ts keeps that scope's flags and usage counts in step
// with the upstream). It listens on nothing; `startProxy` (or a test) mounts it.
import { type RequestObserver, requestTrace, serverSpans } from '@vexil/server-kit'
import type { Tracing } from '@vexil/server-kit/tracing'
import { type App, createApp, type NodeListener, toNodeListener } from 'h3'
import { createEngine, type Engine } from '@vexil/engine'
import type { ProxyConfig } from './config/types.js'
import { createResponseCaches } from './cache/response-cache.js'
import { compileClientAddress } from './http/client-ip.js'
import { compileCorsHeaders, compileFrontendCors, compileOfrepCors } from './http/cors.js'
import type { Logger } from './logger.js'
import { createDocsHandler, createOpenApiDocument } from './openapi/index.js'
import { openSwaggerUiAssets } from './openapi/swagger-ui-assets.js'
import { createPrometheusExporter } from './prometheus.js'
import { requestObserversFor } from './request-observers.js'
import { clientApiRoutes } from './routes/client-api.js'
import { clientMetricsRoutes } from './routes/client-metrics.js'
import { clientStreamingRoutes } from './routes/client-streaming.js'
import { docsRoutes } from './routes/docs.js'
import { edgeOperationsRoutes } from './routes/edge-operations.js'
import { evaluateRoutes } from './routes/evaluate.js'
import { frontendRoutes } from './routes/frontend.js'
import { ofrepRoutes } from './routes/ofrep.js'
import { operationalRoutes } from './routes/operational.js'
import { serverSideFeaturesRoutes } from './routes/server-side-features.js'
import { compileAccessCheck } from './routing/access.js'
import type { RouteDeclaration, RouteInstrument } from './routing/route-declaration.js'
import { createRequestHandler } from './routing/request-handler.js'
import { createProxyRouter } from './routing/router.js'
import { offlineTokenGate } from './routing/offline-gate.js'
import { createTokenGate } from './routing/token-gate.js'
import type { CurrentFlags } from './scope/scope-flags.js'
import { createOfflineSync } from './scope/offline-sync.js'
import {
  createUpstreamSync,
  type MetricsSource,
  type ProxySync,
  type UpstreamSync,
  type UpstreamSyncOptions,
} from './scope/upstream-sync.js'
import type { StorageProvider } from './storage/types.js'
import { SDK_VERSION, type Upstream } from './upstream/upstream.js'
import { engineHostname } from './config/parse.js'

export interface ProxyAppOptions {
  config: ProxyConfig
  /** Makes the engine of each flag set. Default: one with the configured custom strategies and this machine's hostname. */
  newEngine?: () => Engine
  /** Default: the upstream at `config.serviceUrl` with SERVICE_API_TOKEN (the static scope's). */
  upstream?: Upstream
  /** The upstream client for a token scope's sync. Default: the upstream at `config.serviceUrl` with that token. */
  upstreamFor?: (token: string) => Upstream
  /** Default: the provider configured (file in ./.vexil/proxy unless set otherwise); null for none. */
  storage?: StorageProvider | null
  logger?: Logger
  /** Wraps each route's handler once, at creation (tests spy on handlers with it; tracing could too). */
  instrumentRoute?: RouteInstrument
  /** Told of every request once its response closes (@vexil/server-kit's request-observer.ts): metrics, the request log, traces. */
  requestObservers?: readonly RequestObserver[]
  /**
   * Traces (OTEL_*, @vexil/server-kit/tracing): a SERVER span per request, a CLIENT span per
   * upstream call with its traceparent sent upstream, a new token's validation its request's child.
   */
  tracing?: Tracing
  /**
   * What keeps the scopes in step (default: the upstream itself, scope/upstream-sync.ts; a cluster
   * worker passes the primary's stand-in). `upstream`, `upstreamFor` and `storage` are then unused.
   */
  sync?: ProxySync
  /**
   * With ENABLE_OAS, serve the Swagger UI page and its files from swagger-ui-dist as well as the
   * document (default true). The Worker has no swagger-ui-dist and serves the document alone.
   */
  swaggerUi?: boolean
  /** prom-client's process metrics on the scrape (default true); a Worker has no process to measure. */
  processMetrics?: boolean
}

export interface ProxyApp {
  /** The h3 app. */
  app: App
  /** For `http.createServer`. */
  listener: NodeListener
  readonly ready: boolean
  /** Open `/api/client/streaming` connections. */
  readonly streams: number
  /** Starts syncing (first fetch, bootstrap, backup) and metrics; resolves after the first fetch. */
  start(): Promise<void>
  /** Ends every open stream (a server waits for them before it can close); later ones are refused. */
  endStreams(): void
  /** Ends the streams, stops syncing, sends pending metrics, releases storage. */
  close(): Promise<void>
}

/**
 * The sync an app runs when it is given none: the upstream itself (scope/upstream-sync.ts), with
 * the options' engine, upstream and storage, and one response cache for the process.
 */
export function createAppSync(
  options: Omit<ProxyAppOptions, 'sync'>,
  onFetch?: UpstreamSyncOptions['onFetch'],
): UpstreamSync {
  const { config } = options
  const engineHost = engineHostname()
  const logger = options.logger ?? config.logger
  const newEngine =
    options.newEngine ?? (() => createEngine({ strategies: config.customStrategies, hostname: engineHost }))
  const responseCaches = createResponseCaches({
    maxEntries: config.responseCacheSize,
    maxBytes: config.responseCacheMaxBytes,
  })
  if (config.offline) return createOfflineSync({ config, offline: config.offline, logger, newEngine, responseCaches })
  return createUpstreamSync({
    config,
    logger,
    newEngine,
    responseCaches,
    upstream: options.upstream,
    upstreamFor: options.upstreamFor,
    tracing: options.tracing,
    storage: options.storage,
    onFetch,
  })
}

export function createProxyApp(options: ProxyAppOptions): ProxyApp {
  const { config } = options
  const logger = options.logger ?? config.logger
  const sync: ProxySync = options.sync ?? createAppSync(options, (result) => prometheus.upstreamFetch(result))
  const { scope, tokens, scopes } = sync
  const flags: CurrentFlags = scope?.flags ?? { current: undefined }
  const prometheus = createPrometheusExporter({
    config,
    sync,
    streams: () => streaming.streams.size,
    processMetrics: options.processMetrics !== false,
  })
  const metrics: MetricsSource = sync.metricsSource?.(prometheus.registry) ?? prometheus.registry
  const corsHeaders = compileCorsHeaders(config.cors)
  const frontendCorsHeaders = compileFrontendCors(config.cors.origin)
  const ofrepCorsHeaders = compileOfrepCors(config.cors.origin)
  const clientAddress = compileClientAddress(config.trustProxy)
  const ready = () => sync.ready
  const tokenGate = createTokenGate(tokens, scopes, clientAddress, options.tracing && requestTrace(options.tracing))
  const streaming = clientStreamingRoutes({
    enabled: config.streaming,
    keepAliveMs: config.streamingKeepAliveMs,
    maxConnections: config.streamingMaxConnections,
    tokens,
    logger,
  })
  const oldProxyRoutes: RouteDeclaration[] = scope
    ? [
        ...evaluateRoutes({ config, logger, usage: scope.usage, prometheus, clientAddress }),
        ...clientMetricsRoutes({ usage: scope.usage, logger }),
        ...serverSideFeaturesRoutes(),
        ...operationalRoutes(config.metricsEndpoint ? metrics : undefined, () => sync.staticReady),
      ]
    : []
  // Every route, with who may call it, next to its handler, each its own handler on h3's router;
  // a route without a valid access declaration is refused, so a proxy with one never starts.
  const router = createProxyRouter(
    [
      ...oldProxyRoutes,
      ...frontendRoutes({ config, logger, prometheus, clientAddress }),
      ...ofrepRoutes({ config, logger, prometheus, clientAddress, staticUsage: scope?.usage }),
      ...clientApiRoutes(),
      ...streaming.routes,
      ...edgeOperationsRoutes({
        registry: config.metricsEndpoint ? metrics : undefined,
        tokensEndpoint: config.tokensEndpoint,
        tokens,
        scopes,
        ready,
        clientAddress,
      }),
      ...(config.enableOAS ? docsRoutes(() => docs!) : []),
    ],
    {
      keyHeader: config.clientKeysHeaderName,
      permits: compileAccessCheck(config.clientKeys, config.serverSideTokens),
      currentFlags: () => flags.current,
      corsHeaders,
      frontendCorsHeaders,
      ofrepCorsHeaders,
      tokenGate: config.offline ? offlineTokenGate(tokenGate) : tokenGate,
      instrument: options.instrumentRoute,
    },
  )
  // The document lists exactly the routes the router has (each must have an operation).
  const docs = config.enableOAS
    ? createDocsHandler({
        basePath: config.proxyBasePath,
        document: createOpenApiDocument({
          basePath: config.proxyBasePath,
          clientKeysHeaderName: config.clientKeysHeaderName,
          version: SDK_VERSION,
          enableAllEndpoint: config.enableAllEndpoint,
          routes: router.routes,
        }),
        assets: options.swaggerUi === false ? undefined : openSwaggerUiAssets(),
      })
    : undefined
  const app = createApp()
  app.use(
    createRequestHandler({
      router: router.handler,
      basePath: config.proxyBasePath,
      cors: config.cors,
      corsHeaders,
      frontendCorsHeaders,
      ofrepCorsHeaders,
      policyAt: router.policyAt,
      logger,
      observers: [
        ...requestObserversFor(config, prometheus, router.routes),
        ...(options.tracing ? [serverSpans(options.tracing)] : []),
        ...(options.requestObservers ?? []),
      ],
    }),
  )

  return {
    app,
    listener: toNodeListener(app),
    get ready() {
      return ready()
    },
    get streams() {
      return streaming.streams.size
    },
    start: () => sync.start(),
    endStreams: () => streaming.streams.close(),
    close() {
      streaming.streams.close()
      return sync.close()
    },
  }
}
