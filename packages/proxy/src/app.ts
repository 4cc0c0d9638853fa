// createProxyApp: the proxy as an h3 app, plus the lifecycle that keeps its flags and metrics
// in step with the upstream. It listens on nothing; `startProxy` (or a test) mounts it.
import { hostname } from 'node:os'
import { resolve } from 'node:path'
import { type App, createApp, eventHandler, type NodeListener, toNodeListener } from 'h3'
import { createEngine, type Engine } from '@vexil/engine'
import type { ProxyConfig } from './config/types.js'
import { compileClientAddress } from './http/client-ip.js'
import { compileCorsHeaders } from './http/cors.js'
import type { Logger } from './logger.js'
import { createUsageAggregator } from './usage/aggregator.js'
import { createUsageReporter } from './usage/reporter.js'
import { createDocsHandler, createOpenApiDocument } from './openapi/index.js'
import { clientMetricsRoutes } from './routes/client-metrics.js'
import { docsRoutes } from './routes/docs.js'
import { evaluateRoutes } from './routes/evaluate.js'
import { operationalRoutes } from './routes/operational.js'
import { serverSideFeaturesRoutes } from './routes/server-side-features.js'
import { compileAccessCheck } from './routing/access.js'
import { createDispatcher } from './routing/dispatch.js'
import { createRouteTable, type RouteDescription, type RouteInstrument } from './routing/route-table.js'
import { createScopeFlags, type CurrentFlags } from './scope/scope-flags.js'
import { createStorageFromConfig } from './storage/index.js'
import { DEFAULT_BACKUP_DIRECTORY } from './storage/file.js'
import { legacyBackupPath } from './storage/legacy-backup.js'
import type { StorageProvider } from './storage/types.js'
import { loadBackup, loadBootstrap } from './sync/fallbacks.js'
import { createPoller } from './sync/poller.js'
import { createHttpUpstream, SDK_VERSION, type Upstream } from './sync/upstream.js'
import { createPrometheusExporter } from './prometheus.js'

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
  // The default file storage no longer reads the shared temp folder: say so if a backup is there.
  const defaultFileStorage = options.storage === undefined && !config.storage.provider && config.storage.kind === 'file' && !config.storage.fileDirectory
  // The old proxy's backup file name used the app name, with "/" replaced.
  const storageKey = config.serviceAppName
  const flags = createScopeFlags({ newEngine, responseCacheSize: config.responseCacheSize, logger, storage, storageKey })
  const usage = createUsageAggregator({ countedVariants: (name) => flags.current?.countedVariants.get(name) })
  const poller = createPoller({ upstream, flags, logger, refreshInterval: config.refreshInterval, onFetch: (result) => prometheus.upstreamFetch(result) })
  const prometheus = createPrometheusExporter({
    lastUpdate: () => flags.current?.loadedAt ?? 0,
    lastFetch: () => poller.lastFetch,
    flagCount: () => flags.current?.engine.size ?? 0,
  })
  const reporter = createUsageReporter({ upstream, aggregator: usage, logger, interval: config.metricsInterval, jitter: config.metricsJitter })
  const docs = config.enableOAS
    ? createDocsHandler({
        basePath: config.proxyBasePath,
        document: createOpenApiDocument({ basePath: config.proxyBasePath, clientKeysHeaderName: config.clientKeysHeaderName, version: SDK_VERSION, enableAllEndpoint: config.enableAllEndpoint }),
      })
    : undefined
  // Every route, with who may call it, next to its handler; the table refuses a route without a
  // valid access declaration, so a proxy with one never starts.
  const table = createRouteTable(
    [
      ...evaluateRoutes({ config, logger, usage, prometheus }, compileClientAddress(config.trustProxy)),
      ...clientMetricsRoutes({ usage, logger }),
      ...serverSideFeaturesRoutes(),
      ...operationalRoutes(prometheus.registry),
      ...(docs ? docsRoutes(docs) : []),
    ],
    options.instrumentRoute,
  )
  // Measured on the hot path (npm run bench -- proxy, 5 alternating rounds): dispatching
  // /proxy before h3's event layer was within the machine's noise of going through it, so
  // every request goes through h3.
  const app = createApp()
  app.use(
    eventHandler(
      createDispatcher({
        table,
        basePath: config.proxyBasePath,
        keyHeader: config.clientKeysHeaderName,
        permits: compileAccessCheck(config.clientKeys, config.serverSideTokens),
        currentFlags: () => flags.current,
        cors: config.cors,
        corsHeaders: compileCorsHeaders(config.cors),
        logger,
      }),
    ),
  )

  let started: Promise<void> | undefined
  const fallbackOptions = { flags, logger }

  return {
    app,
    listener: toNodeListener(app),
    flags,
    routes: table.routes,
    get ready() {
      return flags.current !== undefined
    },
    start() {
      started ??= (async () => {
        if (config.bootstrap?.data) await loadBootstrap(fallbackOptions, upstream, config.bootstrap)
        if (defaultFileStorage) void warnAboutLegacyBackup(logger, storageKey)
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

async function warnAboutLegacyBackup(logger: Logger, key: string): Promise<void> {
  const legacy = await legacyBackupPath(key)
  if (!legacy) return
  logger.warn(
    `A backup in the old default place, ${legacy}, was not read: anyone on this machine can write to the shared temp folder. ` +
      `Backups are now kept in ${resolve(DEFAULT_BACKUP_DIRECTORY)} (mode 0700). To start from that file once, check its content and move it there, or set STORAGE_FILE_DIRECTORY.`,
  )
}
