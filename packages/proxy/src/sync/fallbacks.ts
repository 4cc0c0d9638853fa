// The other ways to become ready while the upstream has not answered (section 5.4, 6.1, 6.3):
// a bootstrap (data in code, or a URL fetched once with retries) and the stored backup of the
// last good configuration. Neither replaces flags the upstream has already sent; a bootstrap
// replaces a backup. The log says where the flags came from.
import { type FlagStore, type ReadySource, warningLine } from '../flag-store.js'
import type { Logger } from '../logger.js'
import { readBackup, type StorageProvider } from '../storage/index.js'
import type { Upstream } from './upstream.js'

const BOOTSTRAP_ATTEMPTS = 3

function hasFeatures(payload: unknown): payload is { features: unknown[] } {
  return payload !== null && typeof payload === 'object' && Array.isArray((payload as { features?: unknown }).features) && (payload as { features: unknown[] }).features.length > 0
}

export interface FallbackOptions {
  store: FlagStore
  logger: Logger
  /** True once the upstream has delivered flags: fallbacks must not overwrite them. */
  upstreamAnswered: () => boolean
}

function apply(options: FallbackOptions, payload: unknown, source: ReadySource): void {
  if (options.upstreamAnswered()) return
  const firstReady = !options.store.ready
  for (const warning of options.store.load(payload, source)) options.logger.warn(`Flag payload (${source}): ${warningLine(warning)}`)
  if (firstReady) options.logger.info(`Ready: ${options.store.engine.size} flags loaded from the ${source} while the upstream has not answered yet.`)
}

export async function loadBackup(options: FallbackOptions, storage: StorageProvider, key: string): Promise<boolean> {
  const backup = await readBackup(storage, key)
  if (backup.status === 'unreadable') {
    options.logger.warn(`The stored backup of the flags is unreadable (${backup.reason}); the next fetch will replace it`)
    return false
  }
  // As the old proxy: only a backup with at least one flag makes the proxy ready.
  if (backup.status === 'none' || !hasFeatures(backup.payload) || options.store.ready) return false
  apply(options, backup.payload, 'backup')
  return true
}

export async function loadBootstrap(options: FallbackOptions, upstream: Upstream, bootstrap: { url?: string; authorization?: string; data?: unknown[]; segments?: unknown[] }): Promise<boolean> {
  if (bootstrap.data) {
    const payload = { version: 2, features: bootstrap.data, segments: bootstrap.segments ?? [] }
    if (!hasFeatures(payload)) return false
    apply(options, payload, 'bootstrap')
    return true
  }
  if (!bootstrap.url) return false
  for (let attempt = 1; attempt <= BOOTSTRAP_ATTEMPTS; attempt++) {
    try {
      const res = await upstream.fetchBootstrap(bootstrap.url, bootstrap.authorization)
      if (res.status >= 200 && res.status < 300) {
        const payload: unknown = JSON.parse(res.body)
        if (!hasFeatures(payload)) {
          options.logger.warn(`The bootstrap URL answered without features; ignoring it`)
          return false
        }
        apply(options, payload, 'bootstrap')
        return true
      }
      options.logger.warn(`The bootstrap URL answered ${res.status} (attempt ${attempt} of ${BOOTSTRAP_ATTEMPTS})`)
    } catch (error) {
      options.logger.warn(`Fetching the bootstrap failed (attempt ${attempt} of ${BOOTSTRAP_ATTEMPTS})`, error)
    }
    if (options.upstreamAnswered()) return false
    await new Promise((resolve) => setTimeout(resolve, 1000 * attempt).unref())
  }
  return false
}
