// The one owner of a scope's flags. Upstream sync, bootstrap and backup only offer payloads;
// this decides which one becomes the current flag set (upstream over bootstrap over backup),
// logs "Ready" once with the source, stores each upstream payload as the backup, and publishes
// the new set. Readers take `current` once and use only that set.
import { createUsageAggregator, type SyncTarget, type UsageAggregator } from '@vexil/sync'
import type { Logger } from '../logger.js'
import type { StorageProvider } from '../storage/types.js'
import type { TokenScope } from '../tokens/api-token.js'
import { BACKUP_SCOPE_PROPERTY } from './scope-backup.js'
import { createFlagSet, type FlagSet, type FlagSetOptions, type PayloadSource, warningLine } from './flag-set.js'

interface PayloadCandidate {
  payload: unknown
  source: PayloadSource
  /** The upstream's ETag, for an upstream payload. */
  etag?: string
}

/** What routes and tools may see: the set published last, undefined until the first. */
export interface CurrentFlags {
  readonly current: FlagSet | undefined
}

/** The current set, and every set published after it (streams follow these). */
export interface PublishedFlags extends CurrentFlags {
  /** Calls `listener` with every set published from now on; returns the function that stops it. */
  subscribe(listener: (set: FlagSet) => void): () => void
}

/** The target @vexil/sync's poller and stream feed offer the upstream's payloads to. */
export interface ScopeFlags extends PublishedFlags, SyncTarget {
  readonly current: FlagSet | undefined
  /** Publishes the candidate unless the current set came from a source that outranks it; returns the set published, or undefined when refused. */
  offer(candidate: PayloadCandidate): FlagSet | undefined
}

interface ScopeFlagsOptions extends FlagSetOptions {
  logger: Logger
  /** Where upstream payloads are kept for the next start (none: not kept). */
  storage: StorageProvider | undefined
  /** The backup's name in storage (the old proxy used the app name). */
  storageKey: string
  /** A token scope's name for its log lines; unset for the static scope (the old proxy's lines). */
  name?: string
  /** A token scope's, written inside its backup (scope-backup.ts). */
  backupScope?: TokenScope
  /**
   * False: no "Ready" line and no payload warnings, for a copy of a payload whose owner logs them
   * (a view filtered from a source; a cluster worker's copy of the primary's). Default true.
   */
  announce?: boolean
  now?: () => number
}

/**
 * The precedence rule, upstream over bootstrap over backup: whether a payload from `candidate`
 * replaces a set from `current`. The upstream's always does; a bootstrap replaces a backup or an
 * earlier bootstrap, never flags the upstream sent; a backup replaces nothing (it only shortens
 * the wait for a first payload).
 */
function replaces(candidate: PayloadSource, current: PayloadSource): boolean {
  return candidate === 'upstream' || (candidate === 'bootstrap' && current !== 'upstream')
}

export function createScopeFlags(options: ScopeFlagsOptions): ScopeFlags {
  const { logger, storage, storageKey, now = Date.now } = options
  let current: FlagSet | undefined
  const listeners = new Set<(set: FlagSet) => void>()

  function publish(candidate: PayloadCandidate): FlagSet {
    const previous = current
    const set = createFlagSet(
      { ...candidate, revision: (previous?.revision ?? 0) + 1, loadedAt: now(), base: previous },
      options,
    )
    current = set
    // Requests still answering from the previous set find its cache empty and cache nothing more.
    previous?.responseCache?.retire()
    const { source } = candidate
    if (options.announce !== false)
      for (const warning of set.warnings)
        logger.warn(
          source === 'upstream'
            ? `Flag payload: ${warningLine(warning)}`
            : `Flag payload (${source}): ${warningLine(warning)}`,
        )
    if (!previous && options.announce !== false && options.name !== undefined) {
      logger.info(`Ready: ${set.engine.size} flags loaded from the ${source} for ${options.name}.`)
    } else if (!previous && options.announce !== false) {
      logger.info(
        source === 'upstream'
          ? `Ready: ${set.engine.size} flags loaded from the upstream. The proxy now serves traffic.`
          : `Ready: ${set.engine.size} flags loaded from the ${source} while the upstream has not answered yet.`,
      )
    }
    if (source === 'upstream' && storage) {
      const state = set.engine.getState()
      const stored = options.backupScope ? { ...state, [BACKUP_SCOPE_PROPERTY]: options.backupScope } : state
      storage.set(storageKey, stored).catch((error) => logger.warn('Could not write the backup of the flags', error))
    }
    for (const listener of listeners) listener(set)
    return set
  }

  return {
    get current() {
      return current
    },
    offer(candidate) {
      if (current && !replaces(candidate.source, current.source)) return undefined
      return publish(candidate)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

/** The usage counts of a scope, which count variants only for the flags its current set has. */
export function usageAggregatorFor(flags: CurrentFlags): UsageAggregator {
  return createUsageAggregator({ countedVariants: (name) => flags.current?.countedVariants.get(name) })
}
