import { randomBytes } from 'node:crypto'
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { backupFileName } from './file-name.js'
import { parsePayload } from './payload.js'
import { StorageError } from './storage-error.js'
import type { StorageProvider } from './types.js'

export interface FileStorageOptions {
  /** Where backups are written; created on the first write when missing. @default os.tmpdir() */
  directory?: string
}

export interface FileStorage extends Required<StorageProvider> {
  /** The absolute directory the backups are in. */
  readonly directory: string
  /** The backup file of `key`, for log lines. */
  path(key: string): string
}

/**
 * One JSON file per app name, `unleash-backup-<appName>.json` in `os.tmpdir()`: the old proxy's
 * default backup (its SDK's file provider), so either proxy reads the other's file.
 *
 * - `get`: a missing file (or directory) or a blank file is `undefined`; bad JSON or a value that
 *   is not a payload rejects with `STORAGE_CORRUPT`; a read error rejects `STORAGE_UNAVAILABLE`.
 * - `set`: writes a temp file in the same directory, flushes it to disk, then renames it over the
 *   backup, so a crash never leaves a half-written backup and concurrent writers of one key end
 *   with one whole file (the last rename). Files are created with mode 0600: they hold the whole
 *   flag configuration. Failures reject `STORAGE_UNAVAILABLE`.
 */
export function createFileStorage(options: FileStorageOptions = {}): FileStorage {
  if (options.directory !== undefined && (typeof options.directory !== 'string' || options.directory === '')) {
    throw new StorageError('STORAGE_CONFIG_INVALID', 'file storage: directory must be a non-empty path')
  }
  const directory = resolve(options.directory ?? tmpdir())
  const path = (key: string): string => join(directory, backupFileName(key))
  return {
    directory,
    path,
    async get(key) {
      const file = path(key)
      let text: string
      try {
        text = await readFile(file, 'utf8')
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
        throw new StorageError('STORAGE_UNAVAILABLE', `could not read backup ${file}: ${(error as Error).message}`, { cause: error })
      }
      return parsePayload(text, file)
    },
    async set(key, payload) {
      await writeAtomically(path(key), JSON.stringify(payload))
    },
    async close() {},
  }
}

// --- Internal helpers ---

async function writeAtomically(file: string, text: string): Promise<void> {
  // A name of its own per write, so concurrent writers never share a temp file.
  const temp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`)
  try {
    await mkdir(dirname(file), { recursive: true })
    const handle = await open(temp, 'wx', 0o600)
    try {
      await handle.writeFile(text)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, file)
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined)
    throw new StorageError('STORAGE_UNAVAILABLE', `could not write backup ${file}: ${(error as Error).message}`, { cause: error })
  }
}
