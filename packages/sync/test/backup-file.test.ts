// The backup file holds the app's whole flag configuration and is served at a start with the
// upstream down, so it follows the proxy's file rules (README, "Backup"; security review 2,
// finding 15): written 0600 through a fresh O_EXCL temp file, a folder it creates 0700, no
// symbolic link followed, and never read when someone else could have written it.
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'
import { createFileBackup } from '../src/files/index.js'

const mode = (path: string) => statSync(path).mode & 0o777
const isRoot = process.getuid?.() === 0
const FLAGS = { version: 2, features: [{ name: 'a', enabled: true, strategies: [] }] }

/** A warning function that keeps its lines. */
function recordingLogger(): ((message: string) => void) & { lines: string[] } {
  const lines: string[] = []
  return Object.assign((message: string) => void lines.push(`warn: ${message}`), { lines })
}

let dir: ReturnType<typeof tempDir>
let umask: number
beforeEach(() => {
  dir = tempDir('sync-backup-file')
  umask = process.umask(0o022)
})
afterEach(() => {
  process.umask(umask)
  dir.remove()
})

async function write(path: string, logger = recordingLogger()) {
  const backup = createFileBackup(path, logger)
  backup.save(() => JSON.stringify(FLAGS))
  await backup.flush()
  return logger
}

describe('the backup file: writing', () => {
  it('writes the file 0600 under umask 022, and leaves no temp file behind', async () => {
    const path = join(dir.path, 'flags.json')
    const logger = await write(path)
    expect(mode(path)).toBe(0o600)
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(FLAGS)
    expect(readdirSync(dir.path)).toEqual(['flags.json'])
    expect(logger.lines).toEqual([])
  })

  it('creates a missing folder (and its parents) 0700, and leaves an existing one as it is', async () => {
    await write(join(dir.path, 'a', 'b', 'flags.json'))
    expect(mode(join(dir.path, 'a'))).toBe(0o700)
    expect(mode(join(dir.path, 'a', 'b'))).toBe(0o700)
    mkdirSync(join(dir.path, 'shared'))
    chmodSync(join(dir.path, 'shared'), 0o755)
    await write(join(dir.path, 'shared', 'flags.json'))
    expect(mode(join(dir.path, 'shared'))).toBe(0o755)
  })

  it('does not follow a symbolic link placed at the old predictable temp name (<path>.<pid>.tmp)', async () => {
    const path = join(dir.path, 'flags.json')
    const victim = join(dir.path, 'victim')
    writeFileSync(victim, 'untouched')
    symlinkSync(victim, `${path}.${process.pid}.tmp`)
    await write(path)
    expect(readFileSync(victim, 'utf8')).toBe('untouched')
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(FLAGS)
  })

  it('replaces a symbolic link placed at the backup path instead of writing through it', async () => {
    const path = join(dir.path, 'flags.json')
    const victim = join(dir.path, 'victim')
    writeFileSync(victim, 'untouched')
    chmodSync(victim, 0o644)
    symlinkSync(victim, path)
    await write(path)
    expect(readFileSync(victim, 'utf8')).toBe('untouched')
    expect(mode(victim)).toBe(0o644)
    expect(lstatSync(path).isSymbolicLink()).toBe(false)
    expect(mode(path)).toBe(0o600)
  })
})

describe('the backup file: reading', () => {
  it('reads back what it wrote', async () => {
    const path = join(dir.path, 'flags.json')
    await write(path)
    expect(await createFileBackup(path, recordingLogger()).read()).toEqual(FLAGS)
  })

  it('reads a file an older version wrote (0644, same owner)', async () => {
    const path = join(dir.path, 'flags.json')
    writeFileSync(path, JSON.stringify(FLAGS), { mode: 0o644 })
    chmodSync(path, 0o644)
    expect(await createFileBackup(path, recordingLogger()).read()).toEqual(FLAGS)
  })

  it.each(['666', '620', '602'])(
    'refuses a file with mode %s (writable by others), with a warning naming it',
    async (wide) => {
      const path = join(dir.path, 'flags.json')
      await write(path)
      chmodSync(path, Number.parseInt(wide, 8))
      const logger = recordingLogger()
      expect(await createFileBackup(path, logger).read()).toBeUndefined()
      expect(logger.lines.join('\n')).toMatch(
        new RegExp(`^warn: .*${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*mode ${wide}`, 'm'),
      )
    },
  )

  it.runIf(isRoot)('refuses a file owned by another user, with a warning', async () => {
    const path = join(dir.path, 'flags.json')
    await write(path)
    chownSync(path, 4321, 4321)
    const logger = recordingLogger()
    expect(await createFileBackup(path, logger).read()).toBeUndefined()
    expect(logger.lines.join('\n')).toMatch(/^warn: .*belongs to user 4321/m)
  })

  it('refuses a symbolic link at the backup path, with a warning', async () => {
    const path = join(dir.path, 'flags.json')
    const elsewhere = join(dir.path, 'elsewhere.json')
    writeFileSync(elsewhere, JSON.stringify(FLAGS), { mode: 0o600 })
    symlinkSync(elsewhere, path)
    const logger = recordingLogger()
    expect(await createFileBackup(path, logger).read()).toBeUndefined()
    expect(logger.lines.join('\n')).toMatch(/^warn: .*symbolic link/m)
  })

  it.runIf(process.platform !== 'win32')('refuses a FIFO at the backup path without waiting for a writer', async () => {
    const path = join(dir.path, 'flags.json')
    expect(spawnSync('mkfifo', [path]).status).toBe(0)
    const logger = recordingLogger()
    expect(await createFileBackup(path, logger).read()).toBeUndefined()
    expect(logger.lines.join('\n')).toMatch(/^warn: .*not a regular file/m)
  })

  it('a missing file is no backup, without a warning', async () => {
    const logger = recordingLogger()
    expect(await createFileBackup(join(dir.path, 'none.json'), logger).read()).toBeUndefined()
    expect(logger.lines).toEqual([])
  })
})
