// A token scope's backup: its name in storage, one per scope and never another's, and the scope
// written inside it, so a backup is only ever restored by the scope it was written for (a renamed,
// copied or tampered file would otherwise serve one environment's flags to another's tokens).
// Backups written before the scope was kept inside them, under the old names, are not read: the
// first fetch after the upgrade writes the new one.
import type { Logger } from '../logger.js'
import { readBackup } from '../storage/read-backup.js'
import type { StorageProvider } from '../storage/types.js'
import { scopeKey, type TokenScope } from '../tokens/api-token.js'
import type { ScopeFlags } from './scope-flags.js'

/** The property of a stored payload naming the scope it was written for. */
export const BACKUP_SCOPE_PROPERTY = 'vexilScope'

/**
 * The backup's name: `scope-<environment>+<project>,<project>`, each part percent-encoded (and
 * `*` too, which file names replace), so no two scopes share a name.
 */
export function scopeBackupKey(scope: TokenScope): string {
  return `scope-${encode(scope.environment)}+${scope.projects.map(encode).join(',')}`
}

/** Offers the backup to `flags` when it was written for `scope`; whether it was. */
export async function loadScopeBackup(
  flags: ScopeFlags,
  logger: Logger,
  storage: StorageProvider,
  scope: TokenScope,
): Promise<boolean> {
  const key = scopeBackupKey(scope)
  const backup = await readBackup(storage, key)
  if (backup.status === 'unreadable') {
    logger.warn(
      `The stored backup of the flags of ${key} is unreadable (${backup.reason}); the next fetch will replace it`,
    )
    return false
  }
  if (backup.status === 'none') return false
  const { [BACKUP_SCOPE_PROPERTY]: written, ...payload } = backup.payload as typeof backup.payload &
    Record<string, unknown>
  if (!isScope(written) || scopeKey(written) !== scopeKey(scope)) {
    logger.warn(
      `The stored backup ${key} was written for another scope (or none); it is not used, and the next fetch will replace it`,
    )
    return false
  }
  // As the old proxy: only a backup with at least one flag makes the scope ready.
  if (payload.features.length === 0) return false
  return flags.offer({ payload, source: 'backup' }) !== undefined
}

// --- Internal helpers ---

const encode = (part: string) => encodeURIComponent(part).replaceAll('*', '%2A')

function isScope(value: unknown): value is TokenScope {
  const scope = value as TokenScope | null
  return (
    scope !== null &&
    typeof scope === 'object' &&
    typeof scope.environment === 'string' &&
    Array.isArray(scope.projects) &&
    scope.projects.every((p) => typeof p === 'string')
  )
}
