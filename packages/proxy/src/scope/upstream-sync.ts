// Everything that keeps the proxy in step with its upstream, apart from serving HTTP: the static
// scope, the token scopes with their syncs, the token registry (learned from /edge/validate and
// kept as a backup), and the usage reports. `createProxyApp` serves routes over a `ProxySync`;
// this is the one that talks to the upstream. With WORKERS=N the cluster's primary runs it alone
// and each worker serves over a stand-in fed by the primary (runtime/cluster/worker-sync.ts), so routes
// never know which process they run in.
import type { Tracing } from '@vexil/server-kit/tracing'
import type { Engine } from '@vexil/engine'
import type { Registry } from 'prom-client'
import type { ResponseCaches } from '../cache/response-cache.js'
import type { ProxyConfig } from '../config/types.js'
import type { Logger } from '../logger.js'
import { createStorageFromConfig } from '../storage/index.js'
import type { StorageProvider } from '../storage/types.js'
import type { PollerOptions, UsageAggregator } from '@vexil/sync'
import { createUpstreamCalls, type UpstreamCalls } from '../metrics/upstream-calls.js'
import { createHttpUpstream, type Upstream } from '../upstream/upstream.js'
import { type KnownToken, scopeKey, type TokenScope } from '../tokens/api-token.js'
import { loadKnownTokens, saveKnownTokens } from '../tokens/token-backup.js'
import { checkTokenUpstream } from '../tokens/check-token-upstream.js'
import { createTokenRegistry, type TokenRegistry } from '../tokens/token-registry.js'
import { readValidatedTokens } from '../tokens/validate-upstream.js'
import type { CurrentFlags, ScopeFlags } from './scope-flags.js'
import { createStaticScope, type StaticScope, storageSettings } from './static-scope.js'
import { createStaticScopeSource } from './static-scope-source.js'
import { createTokenScopes, type TokenScopes } from './token-scopes.js'
import { createTokenSync, type TokenSync } from './token-sync.js'

/** What the Prometheus routes answer from: a registry, or (in a cluster worker) the whole cluster's figures. */
export interface MetricsSource {
  readonly contentType: string
  metrics(): Promise<string>
}

export interface ProxySync {
  /** The static scope's flags and usage counts; undefined without SERVICE_API_TOKEN. */
  readonly scope: { readonly flags: ScopeFlags; readonly usage: UsageAggregator } | undefined
  /** The API tokens known on the Unleash API routes. */
  readonly tokens: TokenRegistry
  /** The scopes they are served from. */
  readonly scopes: TokenScopes
  /** Epoch ms of the last successful upstream fetch of any scope; 0 for never. */
  readonly lastFetch: number
  /** Every scope served has flags (in a cluster: in every worker): Edge's /internal-backstage/ready. */
  readonly ready: boolean
  /** The static scope has flags (in a cluster: in every worker): /proxy/health. */
  readonly staticReady: boolean
  /** The upstream calls this process made, by kind and outcome; undefined where it makes none of its own. */
  readonly upstreamCalls?: UpstreamCalls
  /** Where the Prometheus routes read from, given this process's own registry (default: that registry). */
  metricsSource?(local: Registry): MetricsSource
  /** Starts syncing (first fetch, bootstrap, backup), token validation and usage reports; resolves after the first fetch, or when it failed, after the fallbacks are read. */
  start(): Promise<void>
  /** Stops syncing, sends pending usage counts, releases storage. */
  close(): Promise<void>
}

export interface UpstreamSyncOptions {
  config: ProxyConfig
  logger: Logger
  newEngine: () => Engine
  /** The process's response cache, shared by every scope's flag sets; undefined for none (the cluster's primary serves no evaluation). */
  responseCaches?: ResponseCaches
  /** Default: the upstream at `config.serviceUrl` with SERVICE_API_TOKEN (the static scope's). */
  upstream?: Upstream
  /** The upstream client for a token scope's sync. Default: the upstream at `config.serviceUrl` with that token. */
  upstreamFor?: (token: string) => Upstream
  /** The default upstream clients' spans (OTEL_*). */
  tracing?: Tracing
  /** Default: the provider configured (file in ./.vexil/proxy unless set otherwise); null for none. */
  storage?: StorageProvider | null
  /** After every poll of any scope, for Prometheus. */
  onFetch?: PollerOptions['onFetch']
  /** A token scope got its own sync, made for `token` (the cluster's primary tells its workers). */
  onTokenSync?: (token: KnownToken, sync: TokenSync) => void
  /** A token became known, or (undefined) was revoked upstream. */
  onTokenChange?: (secret: string, token: KnownToken | undefined) => void
  /** A token scope's sync ended (no valid token left to fetch with): the cluster's primary tells its workers. */
  onTokenSyncEnd?: (sync: TokenSync) => void
  /** The token callers the static scope's flags serve changed (undefined: none), from the upstream's answer about SERVICE_API_TOKEN. */
  onStaticScope?: (scope: TokenScope | undefined) => void
}

export interface UpstreamSync extends ProxySync {
  /** The static scope itself (undefined without SERVICE_API_TOKEN). */
  readonly scope: StaticScope | undefined
}

export function createUpstreamSync(options: UpstreamSyncOptions): UpstreamSync {
  const { config, logger, newEngine, responseCaches } = options
  const upstreamCalls = createUpstreamCalls()
  const { observe } = upstreamCalls
  const { tracing } = options
  const upstream = options.upstream ?? createHttpUpstream(config, { observe, tracing })
  const upstreamFor =
    options.upstreamFor ?? ((token: string) => createHttpUpstream(config, { token, filters: false, observe, tracing }))
  // The old proxy's configuration: one static scope behind /proxy (none with only TOKENS).
  const scope: StaticScope | undefined = config.serviceApiToken
    ? createStaticScope({
        config,
        logger,
        upstream,
        storage: options.storage,
        newEngine,
        responseCaches,
        onFetch: options.onFetch,
      })
    : undefined
  // Token scopes keep their backups beside the static scope's, in the storage configured.
  const ownStorage = !scope && options.storage !== null
  const scopeStorage = scope
    ? scope.storage
    : options.storage === null
      ? undefined
      : (options.storage ?? config.storage.provider ?? createStorageFromConfig(storageSettings(config)))
  let started = false
  const scopes = createTokenScopes({
    logger,
    newEngine,
    responseCaches,
    known: () => tokens.tokens(),
    refusedMs: config.tokenRevalidateMs,
    onSyncEnd: options.onTokenSyncEnd,
    createSync: (token) => {
      const sync = createTokenSync({
        config,
        logger,
        token,
        upstream: upstreamFor(token.secret),
        upstreamFor: (next) => upstreamFor(next.secret),
        storage: scopeStorage,
        newEngine,
        responseCaches,
        onFetch: options.onFetch,
        onRefused: (refused) => scopes.refused(refused),
      })
      options.onTokenSync?.(token, sync)
      if (started) void sync.start()
      return sync
    },
  })
  // The static scope serves token callers only in the scope the upstream gives its token.
  const staticSource = scope
    ? createStaticScopeSource({
        config,
        logger,
        upstream,
        onChange: (validated) => {
          scopes.setStaticSource(
            validated && { key: scopeKey(validated), scope: validated, flags: scope.flags, usage: scope.usage },
          )
          options.onStaticScope?.(validated)
        },
      })
    : undefined
  scope?.onRefused(() => staticSource?.refused())
  const tokens = createTokenRegistry({
    mode: config.tokenMode,
    validate: async (secrets, causes) => readValidatedTokens(await upstream.validateTokens(secrets, causes)),
    check: checkTokenUpstream(upstream, config.serviceUrl),
    logger,
    configured: config.tokens,
    revalidateMs: config.tokenRevalidateMs,
    timers: config.timers,
    onChange: (secret, token) => {
      // A token that went or changed: the syncs fetching with it move to another token, or end.
      scopes.forget(secret)
      if (token) scopes.learn(token)
      options.onTokenChange?.(secret, token)
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
      await saveKnownTokens(storage, tokens.tokens()).catch((error) =>
        logger.warn('Could not write the backup of the known API tokens', error),
      )
    }
    savingTokens = undefined
  }
  const staticReady = () => (scope ? scope.flags.current !== undefined : true)

  return {
    scope,
    tokens,
    scopes,
    upstreamCalls,
    get lastFetch() {
      return Math.max(scope?.lastFetch ?? 0, ...scopes.syncs.map((sync) => sync.lastFetch))
    },
    get ready() {
      return (
        staticReady() && scopes.syncs.every((sync) => sync.flags.current !== undefined) && scopes.unserved.length === 0
      )
    },
    get staticReady() {
      return staticReady()
    },
    async start() {
      // Scopes known before: their syncs start from their own backups, even with the upstream down.
      if (scopeStorage) {
        restoring = true
        tokens.restore(await loadKnownTokens(scopeStorage, logger))
        restoring = false
      }
      started = true
      // SERVICE_API_TOKEN's scope first: when it covers TOKENS' scopes, they need no sync of their own.
      // Then TOKENS and the restored tokens (no upstream call when there are none), and revalidation.
      const tokensKnown = (staticSource?.start() ?? Promise.resolve()).then(() => tokens.start())
      await Promise.all([scope?.start(), tokensKnown.then(() => Promise.all(scopes.syncs.map((sync) => sync.start())))])
    },
    async close() {
      staticSource?.stop()
      tokens.stop()
      await savingTokens
      // The token scopes first: the static scope's close releases the storage they share.
      await scopes.close()
      await scope?.close()
      if (ownStorage) await scopeStorage?.close?.()
    },
  }
}

/** Every flag set a sync serves, for readings over all scopes (Prometheus). */
export function servedFlags(sync: Pick<ProxySync, 'scope' | 'scopes'>): CurrentFlags[] {
  return [...(sync.scope ? [sync.scope.flags] : []), ...sync.scopes.syncs.map((tokenSync) => tokenSync.flags)]
}
