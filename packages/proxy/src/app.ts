// createProxyApp: the proxy as an h3 app, plus the lifecycle that keeps its flags and metrics
// in step with the upstream. It listens on nothing; `startProxy` (or a test) mounts it.
import { hostname } from 'node:os'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { type App, createApp, eventHandler, type H3Event, isError, type NodeListener, toNodeListener } from 'h3'
import { createEngine, type Engine } from '@vexil/engine'
import type { ProxyConfig } from './config/types.js'
import { createResponseCache } from './evaluation/response-cache.js'
import { createFlagStore } from './flag-store.js'
import { compileClientAddress } from './http/client-ip.js'
import { applyCors, applyPreflight, compileCorsHeaders, type CorsHeaders } from './http/cors.js'
import { ProxyError } from './http/errors.js'
import { CACHE_CONTROL, JSON_CONTENT_TYPE, sendBody, sendError, sendNotModified, sendText } from './http/respond.js'
import { matchesIfNoneMatch } from './http/etag.js'
import type { Logger } from './logger.js'
import { createMetricsAggregator } from './metrics/aggregator.js'
import { createMetricsReporter } from './metrics/reporter.js'
import { createDocsHandler, createOpenApiDocument } from './openapi/index.js'
import { handleClientMetrics, handleRegister } from './routes/client-metrics.js'
import { handleEvaluate } from './routes/evaluate.js'
import { createRuntime, type ProxyRuntime } from './runtime.js'
import { createStorageFromConfig } from './storage/index.js'
import type { StorageProvider } from './storage/types.js'
import { loadBackup, loadBootstrap } from './sync/fallbacks.js'
import { createPoller } from './sync/poller.js'
import { createHttpUpstream, SDK_VERSION, type Upstream } from './sync/upstream.js'
import { createTelemetry } from './telemetry.js'

export interface ProxyAppOptions {
  config: ProxyConfig
  /** Default: an engine with the configured custom strategies and this machine's hostname. */
  engine?: Engine
  /** Default: the upstream at `config.serviceUrl`. */
  upstream?: Upstream
  /** Default: the provider configured (file in the temp folder unless set otherwise); null for none. */
  storage?: StorageProvider | null
  logger?: Logger
}

export interface ProxyApp {
  /** The h3 app. */
  app: App
  /** For `http.createServer`. */
  listener: NodeListener
  runtime: ProxyRuntime
  readonly ready: boolean
  /** Starts syncing (first fetch, bootstrap, backup) and metrics; resolves after the first fetch. */
  start(): Promise<void>
  /** Stops syncing, sends pending metrics, releases storage. */
  close(): Promise<void>
}

const HTML = 'text/html; charset=utf-8'

/** Express matched routes case-insensitively with an optional trailing slash. */
function routePath(rawPath: string, base: string): string | undefined {
  let path = rawPath.toLowerCase()
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1)
  const prefix = base.toLowerCase()
  if (!path.startsWith(prefix)) return undefined
  const route = path.slice(prefix.length)
  return route === '' || route.startsWith('/') ? route : undefined
}

export function createProxyApp(options: ProxyAppOptions): ProxyApp {
  const { config } = options
  const logger = options.logger ?? config.logger
  const engine = options.engine ?? createEngine({ strategies: config.customStrategies, hostname: process.env.HOSTNAME ?? hostname() })
  const upstream = options.upstream ?? createHttpUpstream(config)
  const storage =
    options.storage === null
      ? undefined
      : (options.storage ??
        config.storage.provider ??
        createStorageFromConfig({
          provider: config.storage.kind === 'custom' ? undefined : config.storage.kind,
          fileDirectory: config.storage.fileDirectory,
          redisUrl: config.storage.redisUrl,
          redisKeyPrefix: config.storage.redisKeyPrefix,
        }))
  const store = createFlagStore(engine)
  const responseCache = config.responseCacheSize > 0 ? createResponseCache(config.responseCacheSize) : undefined
  store.onLoad(() => responseCache?.clear())
  const telemetry = createTelemetry(store)
  const aggregator = createMetricsAggregator()
  const runtime = createRuntime({ config, store, logger, aggregator, telemetry, responseCache })
  // The old proxy's backup file name used the app name, with "/" replaced.
  const storageKey = config.serviceAppName
  const poller = createPoller({ upstream, store, storage, storageKey, logger, refreshInterval: config.refreshInterval, onFetch: telemetry.upstreamFetch })
  const reporter = createMetricsReporter({ upstream, aggregator, logger, interval: config.metricsInterval, jitter: config.metricsJitter })
  const clientKeys = new Set(config.clientKeys)
  const serverTokens = new Set(config.serverSideTokens)
  const clientAddress = compileClientAddress(config.trustProxy)
  const corsHeaders = compileCorsHeaders(config.cors)
  const docs = config.enableOAS
    ? createDocsHandler({
        basePath: config.proxyBasePath,
        document: createOpenApiDocument({ basePath: config.proxyBasePath, clientKeysHeaderName: config.clientKeysHeaderName, version: SDK_VERSION, enableAllEndpoint: config.enableAllEndpoint }),
      })
    : undefined

  /** Handles a request; returns a value for h3 to send (docs), or nothing when it answered itself. */
  async function route(event: H3Event, req: IncomingMessage, res: ServerResponse, cors: CorsHeaders): Promise<unknown> {
    const method = req.method ?? 'GET'
    const url = req.url ?? '/'
    const queryAt = url.indexOf('?')
    const rawPath = queryAt === -1 ? url : url.slice(0, queryAt)
    const path = routePath(rawPath, config.proxyBasePath)
    const head = method === 'HEAD'
    const read = method === 'GET' || head
    const header = req.headers[config.clientKeysHeaderName]
    const key = typeof header === 'string' ? header : undefined

    // The evaluation routes write their CORS headers with the rest, in one writeHead.
    if (path !== '/proxy' && path !== '/proxy/all') applyCors(res, cors)
    if (docs && path?.startsWith('/docs')) {
      const answer = await docs(event)
      if (answer !== undefined || res.writableEnded) return answer
    }
    const notReady = () => new ProxyError('NOT_READY', 'not ready')
    switch (path) {
      case '/proxy':
      case '/proxy/all':
        if (!read && method !== 'POST') break
        return handleEvaluate(runtime, req, res, {
          method: method as 'GET' | 'HEAD' | 'POST',
          all: path === '/proxy/all',
          search: queryAt === -1 ? '' : url.slice(queryAt + 1),
          clientAddress: clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'] as string | undefined),
          authorized: key !== undefined && clientKeys.has(key),
          cors,
        })
      case '/proxy/client/metrics':
      case '/proxy/all/client/metrics':
        if (method !== 'POST') break
        return handleClientMetrics(runtime, req, res, key !== undefined && (clientKeys.has(key) || serverTokens.has(key)))
      case '/proxy/client/register':
        if (method !== 'POST') break
        return handleRegister(runtime, req, res, key !== undefined && (clientKeys.has(key) || serverTokens.has(key)))
      case '/proxy/client/features': {
        if (!read) break
        if (!store.ready) throw notReady()
        // Server-side SDK tokens only (client keys get 401, as in the old proxy).
        if (key === undefined || !serverTokens.has(key)) throw new ProxyError('UNAUTHORIZED', 'unauthorized')
        const payload = store.serverSidePayload()
        res.setHeader('content-type', JSON_CONTENT_TYPE)
        res.setHeader('cache-control', CACHE_CONTROL)
        res.setHeader('etag', payload.etag)
        if (matchesIfNoneMatch(req.headers['if-none-match'], payload.etag)) return sendNotModified(res)
        return sendBody(res, 200, { text: payload.body }, req.headers['accept-encoding'], head)
      }
      case '/proxy/health':
        if (!read) break
        if (!store.ready) throw notReady()
        return sendText(res, 200, HTML, 'ok', head)
      case '/proxy/internal-backstage/prometheus':
        if (!read) break
        if (!store.ready) throw notReady()
        return sendText(res, 200, telemetry.registry.contentType, await telemetry.registry.metrics(), head)
    }
    throw new ProxyError('NOT_FOUND', `Cannot ${method} ${rawPath}`)
  }

  /** One request: CORS, routing, and every error turned into its answer. */
  async function handle(req: IncomingMessage, res: ServerResponse, event: H3Event): Promise<unknown> {
    const origin = req.headers.origin
    const cors = corsHeaders(origin)
    if (req.method === 'OPTIONS') {
      // The old proxy answered every preflight, on any path, before routing.
      applyPreflight(config.cors, origin, req.headers['access-control-request-headers'], res)
      if (!config.cors.preflightContinue) {
        res.statusCode = config.cors.optionsSuccessStatus
        res.setHeader('content-length', '0')
        res.end()
        return
      }
    }
    try {
      return await route(event, req, res, cors)
    } catch (error) {
      if (res.headersSent) {
        logger.error('Error after the response started', error)
        res.destroy()
        return
      }
      applyCors(res, cors)
      if (error instanceof ProxyError) {
        if (error.code === 'INTERNAL') logger.error(`Request failed: ${error.message}`)
        sendError(res, error, req.method === 'HEAD')
      } else if (isError(error) && error.statusCode === 404) {
        // The docs handler's unknown paths.
        sendError(res, new ProxyError('NOT_FOUND', `Cannot ${req.method} ${(req.url ?? '/').split('?')[0]}`), req.method === 'HEAD')
      } else {
        logger.error('Unexpected error while handling a request', error)
        sendError(res, new ProxyError('INTERNAL', error instanceof Error ? error.message : String(error)), req.method === 'HEAD')
      }
    }
  }

  // Measured on the hot path (npm run bench -- proxy, 5 alternating rounds): dispatching
  // /proxy before h3's event layer was within the machine's noise of going through it, so
  // every request goes through h3.
  const app = createApp()
  app.use(eventHandler((event) => handle(event.node.req, event.node.res, event)))

  let started: Promise<void> | undefined
  const fallbackOptions = { store, logger, upstreamAnswered: () => poller.upstreamAnswered }

  return {
    app,
    listener: toNodeListener(app),
    runtime,
    get ready() {
      return store.ready
    },
    start() {
      started ??= (async () => {
        if (config.bootstrap?.data) await loadBootstrap(fallbackOptions, upstream, config.bootstrap)
        const first = poller.start()
        // Read in parallel with the first fetch; neither replaces flags the upstream already sent.
        const backup = storage ? loadBackup(fallbackOptions, storage, storageKey) : Promise.resolve(false)
        const bootstrap = config.bootstrap?.url ? backup.then(() => loadBootstrap(fallbackOptions, upstream, config.bootstrap!)) : Promise.resolve(false)
        reporter.start()
        await first
        void bootstrap
      })()
      return started
    },
    async close() {
      poller.stop()
      reporter.stop()
      await reporter.flush()
      await storage?.close?.()
    },
  }
}
