// The last good flags in a file (unleash-client's backup): written after every change, read at
// start when the upstream cannot be reached. The file is private (private-file.ts: 0600, written
// through a temp file renamed over it, never read when someone else could have written it);
// changes arriving during a write are coalesced into one more write of the latest state.
import { readPrivateFile, UNTRUSTED, writePrivateFile } from './private-file.js'

/** Where a backup's problems are told (a warning each, never thrown). */
export type WarnFunction = (message: string) => void

export interface Backup {
  /** The payload saved last, or undefined when there is none (or it does not parse). */
  read(): Promise<unknown>
  /** Saves the state `serialize` returns when the file is next written. */
  save(serialize: () => string): void
  /** Resolves when no write is pending. */
  flush(): Promise<void>
}

export function createFileBackup(path: string, warn: WarnFunction): Backup {
  let latest: (() => string) | undefined
  let writing: Promise<void> | undefined

  async function writeAll(): Promise<void> {
    while (latest) {
      const serialize = latest
      latest = undefined
      try {
        await writePrivateFile(path, serialize())
      } catch (error) {
        warn(`could not write the backup file ${path}: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
    writing = undefined
  }

  return {
    async read() {
      let text: string
      try {
        text = await readPrivateFile(path)
      } catch (error) {
        const { code, message } = error as NodeJS.ErrnoException
        if (code === UNTRUSTED)
          warn(
            `the backup file ${path} was not read: ${message}, so it may not be this app's. The next fetch from the upstream replaces it.`,
          )
        else if (code !== 'ENOENT') warn(`could not read the backup file ${path}: ${message}`)
        return undefined
      }
      try {
        return JSON.parse(text) as unknown
      } catch {
        warn(`the backup file ${path} is not JSON; ignored`)
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
