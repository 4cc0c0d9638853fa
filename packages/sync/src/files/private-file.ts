// A file only this process's user may have written: how the proxy's file storage and the
// OpenFeature provider's backup file keep the flags, which decide what a restarted process serves.
import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { type FileHandle, mkdir, open, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/** Mode bits and owners mean nothing there. */
const CHECKS_OWNERSHIP = process.platform !== 'win32'

/**
 * We never make a link at the path (a write renames a file over it), so one found there is
 * someone else's. Non-blocking so a FIFO put there cannot stall the open; regular files ignore it.
 */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)

/** The `code` of the error `readPrivateFile` rejects with when the file may not be ours. */
export const UNTRUSTED = 'UNTRUSTED'

/**
 * The file's text, unless someone else could have written it: a symbolic link, not a regular
 * file, owned by another user, or writable by group or others. Checked on the open handle, so the
 * file checked is the file read. Rejects with code `UNTRUSTED` and a message saying why, or with
 * the system's error (`ENOENT`: missing).
 */
export async function readPrivateFile(path: string): Promise<string> {
  let handle: FileHandle
  try {
    handle = await open(path, READ_FLAGS)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP')
      throw untrusted('it is a symbolic link, which this app never makes')
    throw error
  }
  try {
    const stats = await handle.stat()
    // A folder is a path that cannot be read, as a plain read says; any other non-file was put there.
    if (stats.isDirectory())
      throw Object.assign(new Error('EISDIR: illegal operation on a directory, read'), { code: 'EISDIR' })
    if (!stats.isFile()) throw untrusted('it is not a regular file')
    if (CHECKS_OWNERSHIP) {
      const { mode, uid } = stats
      if (process.getuid !== undefined && uid !== process.getuid())
        throw untrusted(`it belongs to user ${uid}, not to this process's user ${process.getuid()}`)
      if ((mode & 0o022) !== 0)
        throw untrusted(
          `it is writable by ${(mode & 0o020) !== 0 ? 'its group' : 'other users'} (mode ${(mode & 0o777).toString(8)})`,
        )
    }
    return await handle.readFile('utf8')
  } finally {
    await handle.close()
  }
}

/**
 * Writes `text` to a temp file of its own (random name, created 0600 with O_EXCL, so a link put
 * at that name is never followed), flushes it, then renames it over `path`: a crash never leaves
 * half a file, and a link at `path` is replaced rather than written through. A missing folder is
 * created 0700; an existing one is the caller's choice and left as it is.
 */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 })
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`)
  let created = false
  try {
    const handle = await open(temp, 'wx', 0o600)
    created = true
    try {
      await handle.writeFile(text)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, path)
  } catch (error) {
    if (created) await rm(temp, { force: true }).catch(() => undefined)
    throw error
  }
}

// --- Internal helpers ---

function untrusted(reason: string): Error {
  return Object.assign(new Error(reason), { code: UNTRUSTED })
}
