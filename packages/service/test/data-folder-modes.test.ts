// PGlite's data folder holds every token hash, user and segment value, and PGlite creates its
// files 0666 whatever the umask: the folder is what keeps other local users out (README,
// "Data folder"). Created 0700, tightened to 0700 when it is ours and wider, refused when it is
// someone else's and anyone may write to it.
import { spawnSync } from 'node:child_process'
import { chmodSync, chownSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { preparePrivateFolder } from '../src/db/data-folder.js'
import { createPgliteDatabase } from '../src/db/pglite.js'
import type { Logger } from '../src/logger.js'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'

const mode = (path: string) => statSync(path).mode & 0o777
const isRoot = process.getuid?.() === 0
const NOBODY = 65534

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = []
  return {
    warnings,
    debug() {},
    info() {},
    warn: (message: unknown) => void warnings.push(String(message)),
    error() {},
    fatal() {},
  }
}

/** Opens PGlite in `dataDir` (it creates its database files there) and closes it. */
async function openAndClose(dataDir: string, logger = recordingLogger()) {
  const db = await createPgliteDatabase({ dataDir, logger })
  await db.close()
  return logger
}

/** Whether user `nobody` can read `file` (a real second user, not a mode calculation). */
function nobodyCanRead(file: string): boolean {
  return (
    spawnSync(process.execPath, ['-e', `require('node:fs').readFileSync(${JSON.stringify(file)})`], {
      uid: NOBODY,
      gid: NOBODY,
    }).status === 0
  )
}

let dir: ReturnType<typeof tempDir>
let umask: number
beforeEach(() => {
  dir = tempDir('data-folder')
  umask = process.umask(0o022)
})
afterEach(() => {
  process.umask(umask)
  dir.remove()
})

// PGlite's first start in a folder takes seconds, more on a busy machine.
describe('PGlite data folder: private to the service user', { timeout: 90_000 }, () => {
  it('a missing data folder is created 0700, and its missing parents too, under umask 022', async () => {
    const dataDir = join(dir.path, '.vexil', 'data')
    const logger = await openAndClose(dataDir)
    expect(mode(join(dir.path, '.vexil'))).toBe(0o700)
    expect(mode(dataDir)).toBe(0o700)
    expect(readdirSync(dataDir)).toContain('PG_VERSION')
    expect(logger.warnings).toEqual([])
  })

  it.runIf(isRoot)('another local user cannot read the database files', async () => {
    chmodSync(dir.path, 0o755)
    const dataDir = join(dir.path, 'data')
    await openAndClose(dataDir)
    // The control: PGlite's own file modes would let them.
    expect(mode(join(dataDir, 'PG_VERSION')) & 0o004).not.toBe(0)
    expect(nobodyCanRead(join(dataDir, 'PG_VERSION'))).toBe(false)
  })

  it('an existing folder of ours with mode 0755 is tightened to 0700', async () => {
    const dataDir = join(dir.path, 'data')
    mkdirSync(dataDir)
    chmodSync(dataDir, 0o755)
    const logger = await openAndClose(dataDir)
    expect(mode(dataDir)).toBe(0o700)
    expect(logger.warnings).toEqual([])
  })

  it('an existing folder of ours with mode 777 is tightened to 0700, with a warning naming it', async () => {
    const dataDir = join(dir.path, 'data')
    mkdirSync(dataDir)
    chmodSync(dataDir, 0o777)
    const logger = await openAndClose(dataDir)
    expect(mode(dataDir)).toBe(0o700)
    expect(logger.warnings.join('\n')).toContain(
      `DATA_DIR ${dataDir} was writable by its group and other users (mode 777)`,
    )
  })

  it.each(['775', '757'])(
    'mode %s (group or others may write) is tightened the same way before PGlite opens it',
    (wide) => {
      const dataDir = join(dir.path, wide)
      mkdirSync(dataDir)
      chmodSync(dataDir, Number.parseInt(wide, 8))
      const logger = recordingLogger()
      preparePrivateFolder(dataDir, logger)
      expect(mode(dataDir)).toBe(0o700)
      expect(logger.warnings.join('\n')).toContain(`(mode ${wide})`)
    },
  )

  it.runIf(isRoot)("someone else's folder that anyone may write to is refused, naming DATA_DIR", async () => {
    const dataDir = join(dir.path, 'shared')
    mkdirSync(dataDir)
    chownSync(dataDir, 4321, 4321)
    chmodSync(dataDir, 0o1777)
    const error = await createPgliteDatabase({ dataDir, logger: recordingLogger() }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toContain(dataDir)
    expect((error as Error).message).toContain('DATA_DIR')
    expect(readdirSync(dataDir)).toEqual([])
    expect(mode(dataDir)).toBe(0o777)
  })

  it.runIf(isRoot)(
    "someone else's folder writable by its group (a volume's fsGroup) is used, with a warning, and left as it is",
    async () => {
      const dataDir = join(dir.path, 'volume')
      mkdirSync(dataDir)
      chownSync(dataDir, 4321, 4321)
      chmodSync(dataDir, 0o2775)
      const logger = await openAndClose(dataDir)
      expect(readdirSync(dataDir)).toContain('PG_VERSION')
      expect(statSync(dataDir).mode & 0o7777).toBe(0o2775)
      expect(logger.warnings.join('\n')).toContain(dataDir)
    },
  )
})
