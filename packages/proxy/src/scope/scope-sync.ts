// What keeps one scope's flags and usage counts in step with the upstream, for the static scope
// and every token scope alike: the scope's flags (one owner, scope-flags.ts), polling with the
// scope's upstream client (its stream where it offers one, @vexil/sync's feed), the stored backup, and usage reports sent with the same client.
import type { Engine } from '@vexil/engine'
import type { ProxyConfig } from '../config/types.js'
import type { ResponseCaches } from '../cache/response-cache.js'
import type { Logger } from '../logger.js'
import type { StorageProvider } from '../storage/types.js'
import { loadBackup } from './fallbacks.js'
import { createFeed, createUsageReporter, type PollerOptions, type UsageAggregator } from '@vexil/sync'
import type { Upstream } from '../upstream/upstream.js'
import type { TokenScope } from '../tokens/api-token.js'
import { loadScopeBackup } from './scope-backup.js'
import { createScopeFlags, type ScopeFlags, usageAggregatorFor } from './scope-flags.js'

interface ScopeSyncOptions {
  config: ProxyConfig
  logger: Logger
  /** Sends the scope's token. */
  upstream: Upstream
  storage: StorageProvider | undefined
  /** The backup's name in storage. */
  storageKey: string
  /** A token scope's: written inside its backup, and a backup written for another scope is not restored. */
  backupScope?: TokenScope
  /** The scope's name in log lines; unset for the static scope (the old proxy's lines). */
  name?: string
  newEngine: () => Engine
  /** The process's response cache (each flag set takes its part); undefined for none. */
  responseCaches: ResponseCaches | undefined
  onFetch?: PollerOptions['onFetch']
  onRefused?: PollerOptions['onRefused']
}

interface ScopeSync {
  readonly flags: ScopeFlags
  /** Counts of evaluations and of SDK metrics posted to the proxy, sent upstream. */
  readonly usage: UsageAggregator
  /** Epoch ms of the last successful fetch from the upstream (200 or 304); 0 before the first. */
  readonly lastFetch: number
  /**
   * Starts polling and usage reports, and reads the stored backup beside the first fetch (offered
   * to the flags, never over flags the upstream sent), then `fallback` if given (a bootstrap).
   * Resolves after the first fetch, or when it failed, once the backup and `fallback` are read:
   * a caller answering right after then has the backup's flags. With `config.startWithBackup`
   * it also resolves as soon as the backup gave flags, the first fetch going on behind.
   */
  start(fallback?: () => Promise<unknown>): Promise<void>
  /** Fetches and reports with `upstream` from now on (another token of the scope); the flags and pending counts stay. */
  rehome(upstream: Upstream): void
  /** Stops polling, sends pending usage counts. */
  close(): Promise<void>
}

export function createScopeSync(options: ScopeSyncOptions): ScopeSync {
  const { config, logger, upstream, storage, storageKey } = options
  const flags = createScopeFlags({
    newEngine: options.newEngine,
    responseCaches: options.responseCaches,
    logger,
    storage,
    storageKey,
    name: options.name,
    backupScope: options.backupScope,
  })
  const usage = usageAggregatorFor(flags)
  const feed = (client: Upstream) =>
    createFeed({
      upstream: client,
      flags,
      logger,
      refreshInterval: config.refreshInterval,
      streaming: config.streaming,
      onFetch: options.onFetch,
      onRefused: options.onRefused,
      timers: config.timers,
    })
  const report = (client: Upstream) =>
    createUsageReporter({
      upstream: client,
      aggregator: usage,
      logger,
      credential: 'SERVICE_API_TOKEN',
      perApp: true,
      interval: config.metricsInterval,
      jitter: config.metricsJitter,
      timers: config.timers,
    })
  let poller = feed(upstream)
  let reporter = report(upstream)
  let started = false
  let closed = false

  return {
    flags,
    usage,
    get lastFetch() {
      return poller.lastFetch
    },
    async start(fallback) {
      started = true
      const first = poller.start()
      reporter.start()
      const { backupScope } = options
      const backup = !storage
        ? Promise.resolve(false)
        : backupScope
          ? loadScopeBackup(flags, logger, storage, backupScope)
          : loadBackup({ flags, logger }, storage, storageKey)
      const fallbacks = fallback ? backup.then(fallback) : backup
      const afterFirst = first.then(async () => {
        if (!flags.current) await fallbacks
      })
      if (!config.startWithBackup) return afterFirst
      await Promise.race([
        afterFirst,
        fallbacks.then(async () => {
          if (!flags.current) await afterFirst
        }),
      ])
    },
    rehome(next) {
      if (closed) return
      poller.stop()
      reporter.stop()
      poller = feed(next)
      reporter = report(next)
      if (!started) return
      // A fetch now: the scope's flags may have changed while the old token was refused.
      void poller.start()
      reporter.start()
    },
    async close() {
      closed = true
      poller.stop()
      reporter.stop()
      await reporter.flush()
    },
  }
}
