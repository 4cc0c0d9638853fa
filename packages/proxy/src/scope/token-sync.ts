// One upstream sync for a token scope (docs/architecture.md, "Proxy: many scopes"): the flags a
// client token fetches, polled with its token, kept as a backup under the scope's key, and the
// usage counts of every caller served from them, sent upstream with that same token. Every
// token whose scope it covers is served from it: tokens never multiply upstream traffic.
import type { Engine } from '@vexil/engine'
import type { ProxyConfig } from '../config/types.js'
import type { Logger } from '../logger.js'
import type { StorageProvider } from '../storage/types.js'
import { loadBackup } from '../sync/fallbacks.js'
import { createPoller, type PollerOptions } from '../sync/poller.js'
import type { Upstream } from '../sync/upstream.js'
import { type KnownToken, scopeKey, type TokenScope } from '../tokens/api-token.js'
import { createUsageAggregator, type UsageAggregator } from '../usage/aggregator.js'
import { createUsageReporter } from '../usage/reporter.js'
import { createScopeFlags, type ScopeFlags } from './scope-flags.js'

export interface TokenSyncOptions {
  config: ProxyConfig
  logger: Logger
  /** The client token the sync fetches with; its scope is the sync's. */
  token: KnownToken
  /** An upstream client that sends `token`, without the static scope's filters. */
  upstream: Upstream
  storage: StorageProvider | undefined
  newEngine: () => Engine
  onFetch?: PollerOptions['onFetch']
}

export interface TokenSync {
  readonly scope: TokenScope
  readonly key: string
  readonly flags: ScopeFlags
  readonly usage: UsageAggregator
  readonly lastFetch: number
  /** Reads the backup and starts polling; resolves after the first fetch. */
  start(): Promise<void>
  /** Stops polling, sends pending usage counts. */
  close(): Promise<void>
}

/** How log lines name a scope: `environment "production", projects a, b`. */
export function scopeName(scope: TokenScope): string {
  return `environment "${scope.environment}", projects ${scope.projects.join(', ')}`
}

/** The backup's name in storage: one per scope, apart from the static scope's (the app name). */
export function scopeBackupKey(scope: TokenScope): string {
  return `scope-${scope.environment}-${scope.projects.join('+')}`
}

export function createTokenSync(options: TokenSyncOptions): TokenSync {
  const { config, logger, token, upstream, storage } = options
  const scope: TokenScope = { environment: token.environment, projects: token.projects }
  const storageKey = scopeBackupKey(scope)
  const flags = createScopeFlags({ newEngine: options.newEngine, responseCacheSize: config.responseCacheSize, logger, storage, storageKey, name: scopeName(scope) })
  const usage = createUsageAggregator({ countedVariants: (name) => flags.current?.countedVariants.get(name) })
  const poller = createPoller({ upstream, flags, logger, refreshInterval: config.refreshInterval, onFetch: options.onFetch })
  const reporter = createUsageReporter({ upstream, aggregator: usage, logger, interval: config.metricsInterval, jitter: config.metricsJitter })
  let started: Promise<void> | undefined

  return {
    scope,
    key: scopeKey(scope),
    flags,
    usage,
    get lastFetch() {
      return poller.lastFetch
    },
    start() {
      started ??= (async () => {
        const first = poller.start()
        if (storage) void loadBackup({ flags, logger }, storage, storageKey)
        reporter.start()
        await first
      })()
      return started
    },
    async close() {
      poller.stop()
      reporter.stop()
      await reporter.flush()
    },
  }
}
