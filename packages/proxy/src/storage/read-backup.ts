import type { ClientFeaturesPayload } from '@vexil/engine'
import { payloadProblem } from './payload.js'
import { StorageError } from './storage-error.js'
import type { StorageProvider } from './types.js'

export type BackupRead =
  | { status: 'found'; payload: ClientFeaturesPayload }
  | { status: 'none' }
  | { status: 'unreadable'; reason: string; error: unknown }

/**
 * Reads the backup of `key` from any provider, built-in or custom, and never throws, so the
 * proxy's startup can log one line per outcome. The old proxy did the same: it caught what
 * `storageProvider.get` threw and only warned (unleash-client-node `Repository.loadBackup`).
 */
export async function readBackup(storage: StorageProvider, key: string): Promise<BackupRead> {
  let value: unknown
  try {
    value = await storage.get(key)
  } catch (error) {
    return { status: 'unreadable', reason: error instanceof Error ? error.message : String(error), error }
  }
  // A custom provider for the old proxy may answer null for "nothing stored".
  if (value === undefined || value === null) return { status: 'none' }
  const problem = payloadProblem(value)
  if (problem) {
    const reason = `the storage provider returned something that is not a features payload: ${problem}`
    return { status: 'unreadable', reason, error: new StorageError('STORAGE_CORRUPT', reason) }
  }
  return { status: 'found', payload: value as ClientFeaturesPayload }
}
