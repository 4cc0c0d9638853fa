// One upstream sync for a token scope (docs/architecture.md, "Proxy: many scopes"): the flags a
// client token fetches, polled with its token, kept as a backup under the scope's key, and the
// usage counts of every caller served from them, sent upstream with that same token. Every
// token whose scope it covers is served from it: tokens never multiply upstream traffic.
import type { Engine } from '@vexil/engine'
import type { ResponseCaches } from '../cache/response-cache.js'
import type { ProxyConfig } from '../config/types.js'
import type { Logger } from '../logger.js'
import type { StorageProvider } from '../storage/types.js'
import type { PollerOptions, UsageAggregator } from '@vexil/sync'
import type { Upstream } from '../upstream/upstream.js'
import { type KnownToken, scopeKey, type TokenScope } from '../tokens/api-token.js'
import type { ScopeFlags } from './scope-flags.js'
import { scopeBackupKey } from './scope-backup.js'
import { createScopeSync } from './scope-sync.js'

interface TokenSyncOptions {
  config: ProxyConfig
  logger: Logger
  /** The client token the sync fetches with; its scope is the sync's. */
  token: KnownToken
  /** An upstream client that sends `token`, without the static scope's filters. */
  upstream: Upstream
  storage: StorageProvider | undefined
  newEngine: () => Engine
  responseCaches: ResponseCaches | undefined
  onFetch?: PollerOptions['onFetch']
  /** The upstream refused a fetch with the sync's token (401/403). */
  onRefused?: (sync: TokenSync) => void
  /** An upstream client for another token of the scope (`rehome`). */
  upstreamFor?: (token: KnownToken) => Upstream
}

export interface TokenSync {
  /** The client token it fetches with now. */
  readonly token: KnownToken
  readonly scope: TokenScope
  readonly key: string
  readonly flags: ScopeFlags
  readonly usage: UsageAggregator
  readonly lastFetch: number
  /** Reads the backup and starts polling; resolves after the first fetch, or when it failed, after the fallbacks are read. */
  start(): Promise<void>
  /** Fetches (and reports usage) with `token`, of the same scope, from now on. */
  rehome(token: KnownToken): void
  /** Stops polling, sends pending usage counts. */
  close(): Promise<void>
}

/** How log lines name a scope: `environment "production", projects a, b`. */
export function scopeName(scope: TokenScope): string {
  return `environment "${scope.environment}", projects ${scope.projects.join(', ')}`
}

export { scopeBackupKey } from './scope-backup.js'

export function createTokenSync(options: TokenSyncOptions): TokenSync {
  let token = options.token
  const scope: TokenScope = { environment: token.environment, projects: token.projects }
  const sync = createScopeSync({
    ...options,
    storageKey: scopeBackupKey(scope),
    backupScope: scope,
    name: scopeName(scope),
    onRefused: () => options.onRefused?.(self),
  })
  let started: Promise<void> | undefined

  const self: TokenSync = {
    get token() {
      return token
    },
    scope,
    key: scopeKey(scope),
    flags: sync.flags,
    usage: sync.usage,
    get lastFetch() {
      return sync.lastFetch
    },
    start() {
      started ??= sync.start()
      return started
    },
    rehome(next) {
      if (!options.upstreamFor || next.secret === token.secret) return
      token = next
      sync.rehome(options.upstreamFor(next))
    },
    close: () => sync.close(),
  }
  return self
}
