import { access } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { backupFileName } from './file-name.js'

/**
 * The old default place of the backup of `key` (the Unleash proxy's, and earlier Vexil builds'):
 * `unleash-backup-<appName>.json` in the shared temp folder, if a file is there. The proxy no
 * longer reads it: anyone on the machine could have written it. Only its path is returned, for
 * a log line that says what to do with it.
 */
export async function legacyBackupPath(key: string): Promise<string | undefined> {
  const file = join(tmpdir(), backupFileName(key))
  try {
    await access(file)
    return file
  } catch {
    return undefined
  }
}
