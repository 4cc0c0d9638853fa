// createProxyApp: the proxy as an h3 app: its routes, each declared with who may call it, over
// the configured scope (scope/static-scope.ts keeps that scope's flags and usage counts in step
// with the upstream). It listens on nothing; `startProxy` (or a test) mounts it.
import { hostname } from 'node:os'
import { type App, createApp, type NodeListener, toNodeListener } from 'h3'
import { createEngine, type Engine } from '@vexil/engine'
import type { ProxyConfig } from './config/types.js'
import { compileClientAddress } from './http/client-ip.js'
import { compileCorsHeaders, compileFrontendCors } from './http/cors.js'
import type { Logger } from './logger.js'
import { createDocsHandler, createOpenApiDocument } from './openapi/index.js'
import { createPrometheusExporter } from './prometheus.js'
import { clientApiRoutes } from './routes/client-api.js'
import { clientMetricsRoutes } from './routes/client-metrics.js'
import { docsRoutes } from './routes/docs.js'
import { edgeOperationsRoutes } from './routes/edge-operations.js'
import { evaluateRoutes } from './routes/evaluate.js'
import { frontendRoutes } from './routes/frontend.js'
import { operationalRoutes } from './routes/operational.js'
import { serverSideFeaturesRoutes } from './routes/server-side-features.js'
import { compileAccessCheck } from './routing/access.js'
import type { RouteDeclaration, RouteDescription, RouteInstrument } from './routing/route-declaration.js'
import { createRequestHandler } from './routing/request-handler.js'
import { createProxyRouter } from './routing/router.js'
import { createTokenGate } from './routing/token-gate.js'
import type { CurrentFlags } from './scope/scope-flags.js'
import { createStaticScope, type StaticScope, storageSettings } from './scope/static-scope.js'
import { createTokenScopes, type TokenScopes } from './scope/token-scopes.js'
import { createTokenSync } from './scope/token-sync.js'
import { createStorageFromConfig } from './storage/index.js'
import type { StorageProvider } from './storage/types.js'
import { createHttpUpstream, SDK_VERSION, type Upstream } from './sync/upstream.js'
import { readTokenSecret, scopeKey } from './tokens/api-token.js'
import { loadKnownTokens, saveKnownTokens } from './tokens/token-backup.js'
import { createTokenRegistry, type TokenRegistry } from './tokens/token-registry.js'
import { readValidatedTokens } from './tokens/validate-upstream.js'

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
}

export interface ProxyApp {
  /** The h3 app. */
  app: App
  /** For `http.createServer`. */
  listener: NodeListener
  /** The static scope's current flag set (undefined until the first payload, or without SERVICE_API_TOKEN), for tests and tools. */
  readonly flags: CurrentFlags
  /** The API tokens known on the Unleash API routes, and the scopes they are served from. */
  readonly tokens: TokenRegistry
  readonly scopes: TokenScopes
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
  const upstreamFor = options.upstreamFor ?? ((token: string) => createHttpUpstream(config, { token, filters: false }))
  // The old proxy's configuration: one static scope behind /proxy (none with only TOKENS).
  const scope: StaticScope | undefined = config.serviceApiToken
    ? createStaticScope({ config, logger, upstream, storage: options.storage, newEngine, onFetch: (result) => prometheus.upstreamFetch(result) })
    : undefined
  const flags: CurrentFlags = scope?.flags ?? { current: undefined }
  // Token scopes keep their backups beside the static scope's, in the storage configured.
  const ownStorage = !scope && options.storage !== null
  const scopeStorage = scope ? scope.storage : options.storage === null ? undefined : (options.storage ?? config.storage.provider ?? createStorageFromConfig(storageSettings(config)))
  let started = false
  const scopes = createTokenScopes({
    logger,
    newEngine,
    responseCacheSize: config.responseCacheSize,
    createSync: (token) => {
      const sync = createTokenSync({ config, logger, token, upstream: upstreamFor(token.secret), storage: scopeStorage, newEngine, onFetch: (result) => prometheus.upstreamFetch(result) })
      if (started) void sync.start()
      return sync
    },
  })
  const staticSource = staticScopeSource(config)
  if (scope && staticSource) scopes.addSource({ key: scopeKey(staticSource), scope: staticSource, flags: scope.flags, usage: scope.usage })
  const tokens = createTokenRegistry({
    mode: config.tokenMode,
    validate: async (secrets) => readValidatedTokens(await upstream.validateTokens(secrets)),
    logger,
    configured: config.tokens,
    revalidateMs: config.tokenRevalidateMs,
    onChange: (_secret, token) => {
      if (token) scopes.learn(token)
      if (restoring) return
      // One write at a time; the last state wins.
      tokensChanged = true
      if (scopeStorage && !savingTokens) savingTokens = saveTokens(scopeStorage)
    },
  })
  let restoring = false
  let tokensChanged = false
  let savingTokens: Promise<void> | undefined
  async function saveTokens(storage: StorageProvider): Promise<void> {
    while (tokensChanged) {
      tokensChanged = false
      await saveKnownTokens(storage, tokens.tokens()).catch((error) => logger.warn('Could not write the backup of the known API tokens', error))
    }
    savingTokens = undefined
  }
  const prometheus = createPrometheusExporter({
    lastUpdate: () => Math.max(flags.current?.loadedAt ?? 0, ...scopes.syncs.map((sync) => sync.flags.current?.loadedAt ?? 0)),
    lastFetch: () => Math.max(scope?.lastFetch ?? 0, ...scopes.syncs.map((sync) => sync.lastFetch)),
    flagCount: () => (flags.current?.engine.size ?? 0) + scopes.syncs.reduce((sum, sync) => sum + (sync.flags.current?.engine.size ?? 0), 0),
  })
  const corsHeaders = compileCorsHeaders(config.cors)
  const frontendCorsHeaders = compileFrontendCors(config.cors.origin)
  const clientAddress = compileClientAddress(config.trustProxy)
  const ready = () => (scope ? flags.current !== undefined : true) && scopes.syncs.every((sync) => sync.flags.current !== undefined)
  const oldProxyRoutes: RouteDeclaration[] = scope
    ? [
        ...evaluateRoutes({ config, logger, usage: scope.usage, prometheus }, clientAddress),
        ...clientMetricsRoutes({ usage: scope.usage, logger }),
        ...serverSideFeaturesRoutes(),
        ...operationalRoutes(prometheus.registry),
      ]
    : []
  // Every route, with who may call it, next to its handler, each its own handler on h3's router;
  // a route without a valid access declaration is refused, so a proxy with one never starts.
  const router = createProxyRouter(
    [
      ...oldProxyRoutes,
      ...frontendRoutes({ config, logger, prometheus, clientAddress }),
      ...clientApiRoutes(),
      ...edgeOperationsRoutes({ registry: prometheus.registry, tokens, scopes, ready }),
      ...(config.enableOAS ? docsRoutes(() => docs!) : []),
    ],
    {
      keyHeader: config.clientKeysHeaderName,
      permits: compileAccessCheck(config.clientKeys, config.serverSideTokens),
      currentFlags: () => flags.current,
      corsHeaders,
      frontendCorsHeaders,
      tokenGate: createTokenGate(tokens, scopes),
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
      })
    : undefined
  const app = createApp()
  app.use(
    createRequestHandler({ router: router.handler, basePath: config.proxyBasePath, cors: config.cors, corsHeaders, frontendCorsHeaders, logger }),
  )

  return {
    app,
    listener: toNodeListener(app),
    flags,
    tokens,
    scopes,
    routes: router.routes,
    get ready() {
      return ready()
    },
    async start() {
      // Scopes known before: their syncs start from their own backups, even with the upstream down.
      if (scopeStorage) {
        restoring = true
        tokens.restore(await loadKnownTokens(scopeStorage, logger))
        restoring = false
      }
      started = true
      // Validates TOKENS and the restored tokens (no upstream call when there are none) and starts revalidation.
      const tokensKnown = tokens.start()
      await Promise.all([scope?.start(), tokensKnown.then(() => Promise.all(scopes.syncs.map((sync) => sync.start())))])
    },
    async close() {
      tokens.stop()
      await savingTokens
      // The token scopes first: the static scope's close releases the storage they share.
      await scopes.close()
      await scope?.close()
      if (ownStorage) await scopeStorage?.close?.()
    },
  }
}

// --- Internal helpers ---

/**
 * The scope SERVICE_API_TOKEN's flags can serve to token callers too: its environment and project
 * as the token's text names them, when no filter narrows the fetch. Undefined otherwise (a token
 * that does not name its scope, or PROJECT_NAME, NAME_PREFIX, TAGS or ENVIRONMENT set).
 */
function staticScopeSource(config: ProxyConfig): { environment: string; projects: string[] } | undefined {
  const secret = readTokenSecret(config.serviceApiToken)
  if (!secret || config.projectName || config.namePrefix || config.tags.length > 0 || config.environment) return undefined
  const colon = secret.indexOf(':')
  const project = secret.slice(0, colon)
  const environment = secret.slice(colon + 1, secret.indexOf('.', colon))
  if (project === '[]' || environment === '' || environment === '*') return undefined
  return { environment, projects: [project] }
}
