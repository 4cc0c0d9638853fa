// The known API tokens, kept beside the flag backups so a restart with the upstream down serves
// every known scope (each sync then reads its own backup). Stored as a payload-shaped document
// (`{ version, features: [], tokens }`) so every storage provider holds it, custom ones written
// for the old proxy too. It holds secrets, like the flag backups hold the whole configuration:
// the file provider writes it with mode 0600 in a 0700 folder.
import type { Logger } from '../logger.js'
import { readBackup } from '../storage/read-backup.js'
import type { StorageProvider } from '../storage/types.js'
import type { KnownToken } from './api-token.js'

/** The storage key (file `unleash-backup-vexil-known-tokens.json`). */
const TOKEN_BACKUP_KEY = 'vexil-known-tokens'

export async function loadKnownTokens(storage: StorageProvider, logger: Logger): Promise<KnownToken[]> {
  const read = await readBackup(storage, TOKEN_BACKUP_KEY)
  if (read.status === 'unreadable') logger.warn(`Could not read the known API tokens: ${read.reason}`)
  if (read.status !== 'found') return []
  const list = (read.payload as { tokens?: unknown }).tokens
  if (!Array.isArray(list)) return []
  return list.filter(isKnownToken)
}

export async function saveKnownTokens(storage: StorageProvider, tokens: readonly KnownToken[]): Promise<void> {
  const document = {
    version: 2,
    features: [],
    tokens: tokens.map(({ secret, type, environment, projects }) => ({ secret, type, environment, projects })),
  }
  await storage.set(TOKEN_BACKUP_KEY, document as never)
}

function isKnownToken(value: unknown): value is KnownToken {
  if (value === null || typeof value !== 'object') return false
  const { secret, type, environment, projects } = value as Record<string, unknown>
  return (
    typeof secret === 'string' &&
    (type === 'client' || type === 'frontend') &&
    typeof environment === 'string' &&
    Array.isArray(projects) &&
    projects.length > 0 &&
    projects.every((p) => typeof p === 'string')
  )
}
