// The other ways to become ready while the upstream has not answered (section 5.4, 6.1, 6.3):
// a bootstrap (data in code, or a URL fetched once with retries) and the stored backup of the
// last good configuration. Each is offered to the scope's flags, which decide whether it is
// used (never over flags the upstream has sent) and log where the flags came from.
import type { Logger } from '../logger.js'
import type { ScopeFlags } from './scope-flags.js'
import { readBackup, type StorageProvider } from '../storage/index.js'
import type { Upstream } from '../upstream/upstream.js'
import { systemTimers } from '@vexil/sync'

const BOOTSTRAP_ATTEMPTS = 3

function hasFeatures(payload: unknown): payload is { features: unknown[] } {
  return (
    payload !== null &&
    typeof payload === 'object' &&
    Array.isArray((payload as { features?: unknown }).features) &&
    (payload as { features: unknown[] }).features.length > 0
  )
}

interface FallbackOptions {
  flags: ScopeFlags
  logger: Logger
}

const upstreamAnswered = (flags: ScopeFlags) => flags.current?.source === 'upstream'

export async function loadBackup(options: FallbackOptions, storage: StorageProvider, key: string): Promise<boolean> {
  const backup = await readBackup(storage, key)
  if (backup.status === 'unreadable') {
    options.logger.warn(
      `The stored backup of the flags is unreadable (${backup.reason}); the next fetch will replace it`,
    )
    return false
  }
  // As the old proxy: only a backup with at least one flag makes the proxy ready.
  if (backup.status === 'none' || !hasFeatures(backup.payload)) return false
  return options.flags.offer({ payload: backup.payload, source: 'backup' }) !== undefined
}

export async function loadBootstrap(
  options: FallbackOptions,
  upstream: Upstream,
  bootstrap: { url?: string; authorization?: string; data?: unknown[]; segments?: unknown[] },
): Promise<boolean> {
  if (bootstrap.data) {
    const payload = { version: 2, features: bootstrap.data, segments: bootstrap.segments ?? [] }
    if (!hasFeatures(payload)) return false
    return options.flags.offer({ payload, source: 'bootstrap' }) !== undefined
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
        return options.flags.offer({ payload, source: 'bootstrap' }) !== undefined
      }
      options.logger.warn(`The bootstrap URL answered ${res.status} (attempt ${attempt} of ${BOOTSTRAP_ATTEMPTS})`)
    } catch (error) {
      options.logger.warn(`Fetching the bootstrap failed (attempt ${attempt} of ${BOOTSTRAP_ATTEMPTS})`, error)
    }
    if (upstreamAnswered(options.flags)) return false
    await new Promise((resolve) => systemTimers.set(() => resolve(undefined), 1000 * attempt, false))
  }
  return false
}
