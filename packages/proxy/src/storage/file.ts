import { chmod, mkdir, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { readPrivateFile, UNTRUSTED, writePrivateFile } from '@vexil/sync/files'
import { backupFileName } from './file-name.js'
import { parsePayload } from './payload.js'
import { StorageError } from './storage-error.js'
import type { StorageProvider } from './types.js'

/**
 * Relative to the working directory, beside the service's `./.vexil/data`. The old proxy used
 * the shared temp folder, where anyone on the machine can create the file first (its name is
 * predictable) and so choose the flags a restarted proxy serves.
 */
export const DEFAULT_BACKUP_DIRECTORY = join('.vexil', 'proxy')

export interface FileStorageOptions {
  /** Where backups are written; created (mode 0700) on the first write when missing. @default ./.vexil/proxy */
  directory?: string
}

export interface FileStorage extends Required<StorageProvider> {
  /** The absolute directory the backups are in. */
  readonly directory: string
  /** The backup file of `key`, for log lines. */
  path(key: string): string
}

/**
 * One JSON file per app name, `unleash-backup-<appName>.json`: the old proxy's file name and
 * format (its SDK's file provider), so either proxy reads the other's file when pointed at the
 * same directory. By default in the private folder `./.vexil/proxy`.
 *
 * - `get`: a missing file (or directory) or a blank file is `undefined`; a file owned by another
 *   user or writable by group or others rejects with `STORAGE_UNTRUSTED` (it may not be ours);
 *   bad JSON or a value that is not a payload rejects with `STORAGE_CORRUPT`; a read error
 *   rejects `STORAGE_UNAVAILABLE`.
 * - `set`: writes a temp file in the same directory, flushes it to disk, then renames it over the
 *   backup, so a crash never leaves a half-written backup and concurrent writers of one key end
 *   with one whole file (the last rename). Files are created with mode 0600 and missing folders
 *   with 0700: they hold the whole flag configuration. The default folder is tightened to 0700
 *   if it exists wider; a configured one that exists is left as it is. Failures reject
 *   `STORAGE_UNAVAILABLE`.
 */
export function createFileStorage(options: FileStorageOptions = {}): FileStorage {
  if (options.directory !== undefined && (typeof options.directory !== 'string' || options.directory === '')) {
    throw new StorageError('STORAGE_CONFIG_INVALID', 'file storage: directory must be a non-empty path')
  }
  const directory = resolve(options.directory ?? DEFAULT_BACKUP_DIRECTORY)
  const path = (key: string): string => join(directory, backupFileName(key))
  let checkedDefault = options.directory !== undefined
  return {
    directory,
    path,
    async get(key) {
      const file = path(key)
      let text: string
      try {
        text = await readOwnFile(file)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
        if (error instanceof StorageError) throw error
        throw new StorageError('STORAGE_UNAVAILABLE', `could not read backup ${file}: ${(error as Error).message}`, {
          cause: error,
        })
      }
      return parsePayload(text, file)
    },
    async set(key, payload) {
      const file = path(key)
      try {
        await mkdir(directory, { recursive: true, mode: 0o700 })
        if (!checkedDefault) {
          await makePrivate(directory)
          checkedDefault = true
        }
      } catch (error) {
        throw new StorageError('STORAGE_UNAVAILABLE', `could not write backup ${file}: ${(error as Error).message}`, {
          cause: error,
        })
      }
      await writeAtomically(file, JSON.stringify(payload))
    },
    async close() {},
  }
}

// --- Internal helpers ---

/** Mode bits and owners mean nothing there. */
const CHECKS_OWNERSHIP = process.platform !== 'win32'

/** The file's text, unless someone else could have written it (@vexil/sync's private-file rules). */
async function readOwnFile(file: string): Promise<string> {
  try {
    return await readPrivateFile(file)
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException
    if (code === UNTRUSTED)
      throw new StorageError(
        'STORAGE_UNTRUSTED',
        `backup ${file} was not read: ${message}, so it may not be this proxy's. The next fetch from the upstream replaces it.`,
      )
    throw error
  }
}

/** The default folder holds only the proxy's backups: no one else needs to list or enter it. */
async function makePrivate(directory: string): Promise<void> {
  if (!CHECKS_OWNERSHIP) return
  const { mode, uid } = await stat(directory)
  if ((mode & 0o077) !== 0 && (process.getuid === undefined || uid === process.getuid())) await chmod(directory, 0o700)
}

async function writeAtomically(file: string, text: string): Promise<void> {
  try {
    await writePrivateFile(file, text)
  } catch (error) {
    throw new StorageError('STORAGE_UNAVAILABLE', `could not write backup ${file}: ${(error as Error).message}`, {
      cause: error,
    })
  }
}
