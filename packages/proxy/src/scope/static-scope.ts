// The configured scope (docs/architecture.md, "Proxy: many scopes"): SERVICE_API_TOKEN's flags behind
// /proxy, and the lifecycle that keeps them and their usage counts in step with the upstream:
// the first fetch with the bootstrap and the stored backup beside it, polling, usage reports,
// and on close the last report and the storage released. It serves nothing itself.
import { resolve } from 'node:path'
import type { Engine } from '@vexil/engine'
import type { ResponseCaches } from '../cache/response-cache.js'
import type { ProxyConfig } from '../config/types.js'
import type { Logger } from '../logger.js'
import { DEFAULT_BACKUP_DIRECTORY } from '../storage/file.js'
import { createStorageFromConfig } from '../storage/index.js'
import { legacyBackupPath } from '../storage/legacy-backup.js'
import type { StorageProvider } from '../storage/types.js'
import { loadBootstrap } from './fallbacks.js'
import type { PollerOptions, UsageAggregator } from '@vexil/sync'
import type { Upstream } from '../upstream/upstream.js'
import type { ScopeFlags } from './scope-flags.js'
import { createScopeSync } from './scope-sync.js'

interface StaticScopeOptions {
  config: ProxyConfig
  logger: Logger
  upstream: Upstream
  /** Default: the provider configured (file in ./.vexil/proxy unless set otherwise); null for none. */
  storage: StorageProvider | null | undefined
  newEngine: () => Engine
  responseCaches: ResponseCaches | undefined
  onFetch: PollerOptions['onFetch']
}

export interface StaticScope {
  readonly flags: ScopeFlags
  /** Counts of evaluations and of SDK metrics posted to the proxy, sent upstream. */
  readonly usage: UsageAggregator
  /** Where the backup is kept (the token scopes keep theirs there too); undefined for none. */
  readonly storage: StorageProvider | undefined
  /** Epoch ms of the last successful fetch from the upstream (200 or 304); 0 before the first. */
  readonly lastFetch: number
  /** Starts syncing (first fetch, bootstrap, backup) and usage reports; resolves after the first fetch, or when it failed, after the fallbacks are read. */
  start(): Promise<void>
  /** Calls `listener` when the upstream refuses the static scope's fetch (401/403); /proxy keeps serving its last flags, as the old proxy did. */
  onRefused(listener: () => void): void
  /** Stops syncing, sends pending usage counts, releases storage. */
  close(): Promise<void>
}

export function createStaticScope(options: StaticScopeOptions): StaticScope {
  const { config, logger, upstream } = options
  const storage =
    options.storage === null
      ? undefined
      : (options.storage ?? config.storage.provider ?? createStorageFromConfig(storageSettings(config)))
  // The default file storage no longer reads the shared temp folder: say so if a backup is there.
  const defaultFileStorage =
    options.storage === undefined &&
    !config.storage.provider &&
    config.storage.kind === 'file' &&
    !config.storage.fileDirectory
  // The old proxy's backup file name used the app name, with "/" replaced.
  const storageKey = config.serviceAppName
  let refusedListener: (() => void) | undefined
  const onRefused = () => {
    logger.error('/proxy keeps serving the last good configuration (docs/old-proxy-compatibility.md section 0)')
    refusedListener?.()
  }
  const sync = createScopeSync({
    config,
    logger,
    upstream,
    storage,
    storageKey,
    newEngine: options.newEngine,
    responseCaches: options.responseCaches,
    onFetch: options.onFetch,
    onRefused,
  })
  const { flags } = sync
  const fallbackOptions = { flags, logger }
  let started: Promise<void> | undefined

  return {
    flags,
    usage: sync.usage,
    storage,
    get lastFetch() {
      return sync.lastFetch
    },
    start() {
      started ??= (async () => {
        if (config.bootstrap?.data) await loadBootstrap(fallbackOptions, upstream, config.bootstrap)
        if (defaultFileStorage) void warnAboutLegacyBackup(logger, storageKey)
        // The backup, then the bootstrap URL, are read in parallel with the first fetch; neither
        // replaces flags the upstream already sent.
        const bootstrapUrl = config.bootstrap?.url
          ? () => loadBootstrap(fallbackOptions, upstream, config.bootstrap!)
          : undefined
        await sync.start(bootstrapUrl)
      })()
      return started
    },
    onRefused(listener) {
      refusedListener = listener
    },
    async close() {
      await sync.close()
      await storage?.close?.()
    },
  }
}

// --- Internal helpers ---

/** The storage configured (STORAGE_PROVIDER and its settings), as createStorageFromConfig reads it. */
export function storageSettings(config: ProxyConfig): Parameters<typeof createStorageFromConfig>[0] {
  return {
    provider: config.storage.kind === 'custom' ? undefined : config.storage.kind,
    fileDirectory: config.storage.fileDirectory,
    redisUrl: config.storage.redisUrl,
    redisKeyPrefix: config.storage.redisKeyPrefix,
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
