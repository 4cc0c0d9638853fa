// The last good flags in a file (unleash-client's backup): written after every change, read at
// start when the upstream cannot be reached. Writes go to a temporary file renamed over the
// backup, so a crash mid-write never leaves half a payload; changes arriving during a write are
// coalesced into one more write of the latest state.
import { readFile, rename, writeFile } from 'node:fs/promises'
import type { Logger } from '@openfeature/server-sdk'

export interface Backup {
  /** The payload saved last, or undefined when there is none (or it does not parse). */
  read(): Promise<unknown>
  /** Saves the state `serialize` returns when the file is next written. */
  save(serialize: () => string): void
  /** Resolves when no write is pending. */
  flush(): Promise<void>
}

export function createFileBackup(path: string, logger: Logger): Backup {
  let latest: (() => string) | undefined
  let writing: Promise<void> | undefined

  async function writeAll(): Promise<void> {
    while (latest) {
      const serialize = latest
      latest = undefined
      const temporary = `${path}.${process.pid}.tmp`
      try {
        await writeFile(temporary, serialize(), 'utf8')
        await rename(temporary, path)
      } catch (error) {
        logger.warn(`VexilProvider: could not write the backup file ${path}: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
    writing = undefined
  }

  return {
    async read() {
      let text: string
      try {
        text = await readFile(path, 'utf8')
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') logger.warn(`VexilProvider: could not read the backup file ${path}: ${(error as Error).message}`)
        return undefined
      }
      try {
        return JSON.parse(text) as unknown
      } catch {
        logger.warn(`VexilProvider: the backup file ${path} is not JSON; ignored`)
        return undefined
      }
    },
    save(serialize) {
      latest = serialize
      writing ??= writeAll()
    },
    flush: async () => {
      await writing
    },
  }
}
