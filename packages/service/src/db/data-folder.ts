import { chmodSync, mkdirSync, statSync } from 'node:fs'
import type { Logger } from '../logger.js'

/** Mode bits and owners mean nothing there. */
const CHECKS_MODES = process.platform !== 'win32'

/**
 * Makes PGlite's data folder private before PGlite writes to it. PGlite creates its files 0666
 * whatever the umask, so the folder is what keeps other local users from reading the token
 * hashes or replacing a file (security review 2, finding 5).
 *
 * - Missing: created 0700, and any missing parent too.
 * - Ours and wider: tightened to 0700; a warning when others could write to it, since they may
 *   have put files there already.
 * - Someone else's (a mounted volume, say): left as it is, since it is not ours to change. Refused
 *   when anyone may write to it (another user could replace the database); a warning when its
 *   group may write to it (a volume's fsGroup) or others may read it.
 */
export function preparePrivateFolder(dataDir: string, logger: Pick<Logger, 'warn'>): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  if (!CHECKS_MODES) return
  const { mode, uid } = statSync(dataDir)
  const shown = (mode & 0o7777).toString(8)
  if (uid === process.getuid?.()) {
    if ((mode & 0o077) === 0) return
    chmodSync(dataDir, 0o700)
    if ((mode & 0o022) !== 0) {
      logger.warn(
        `DATA_DIR ${dataDir} was writable by ${writers(mode)} (mode ${shown}): tightened to 0700. Files put there before this start were kept; check them if others use this machine.`,
      )
    }
    return
  }
  if ((mode & 0o002) !== 0) {
    throw new Error(
      `DATA_DIR ${dataDir} is not used: it belongs to user ${uid} and anyone may write to it (mode ${shown}), so another user could replace the database. Use a folder of your own, or one inside it (it is created 0700).`,
    )
  }
  if ((mode & 0o024) !== 0) {
    logger.warn(
      `DATA_DIR ${dataDir} belongs to user ${uid} and is ${(mode & 0o020) !== 0 ? 'writable by its group' : 'readable by others'} (mode ${shown}); it was left as it is. A folder inside it would be created 0700.`,
    )
  }
}

// --- Internal helpers ---

function writers(mode: number): string {
  if ((mode & 0o020) !== 0 && (mode & 0o002) !== 0) return 'its group and other users'
  return (mode & 0o020) !== 0 ? 'its group' : 'other users'
}
