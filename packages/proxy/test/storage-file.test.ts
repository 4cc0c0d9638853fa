import { spawn } from 'node:child_process'
import { type FSWatcher, mkdirSync, readdirSync, readFileSync, rmSync, statSync, watch, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { backupFileName, createFileStorage, isStorageError, StorageError } from '../src/storage/index.js'
import { crashPayloads, samplePayload } from './helpers/payloads.js'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'

const WRITER = fileURLToPath(new URL('./helpers/crashing-writer.ts', import.meta.url))

let dir: ReturnType<typeof tempDir>
beforeEach(() => {
  dir = tempDir('file-storage')
})
afterEach(() => dir.remove())

describe('file storage: compatibility with the old proxy', () => {
  // Vexil: the old proxy's default was the shared temp folder; see storage-file-modes.test.ts.
  it('defaults to ./.vexil/proxy and names the file unleash-backup-<appName, "/" as "_">.json', () => {
    expect(createFileStorage().path('my/team/app')).toBe(
      join(process.cwd(), '.vexil', 'proxy', 'unleash-backup-my_team_app.json'),
    )
  })

  it('reads a backup the old proxy wrote', async () => {
    const old = { version: 2, features: samplePayload().features, segments: samplePayload().segments }
    writeFileSync(join(dir.path, 'unleash-backup-team_app.json'), JSON.stringify(old))
    expect(await createFileStorage({ directory: dir.path }).get('team/app')).toEqual(old)
  })

  it('writes a backup the old proxy reads: the same file name and JSON', async () => {
    await createFileStorage({ directory: dir.path }).set('team/app', samplePayload())
    const text = readFileSync(join(dir.path, 'unleash-backup-team_app.json'), 'utf8')
    expect(text.startsWith('{"version":2,"features":[')).toBe(true)
    expect(JSON.parse(text)).toEqual(samplePayload())
  })

  it('an empty file is nothing stored, as in the old proxy', async () => {
    const storage = createFileStorage({ directory: dir.path })
    writeFileSync(storage.path('blank'), ' \n')
    expect(await storage.get('blank')).toBeUndefined()
  })

  it('keys that differ only by "/" and "_" share one file, as in the old proxy', async () => {
    const storage = createFileStorage({ directory: dir.path })
    await storage.set('a/b', samplePayload())
    expect(await storage.get('a_b')).toEqual(samplePayload())
  })
})

describe('file storage: file names', () => {
  it.each([
    ['unleash-proxy', 'unleash-backup-unleash-proxy.json'],
    ['team/app', 'unleash-backup-team_app.json'],
    ['../../etc/passwd', 'unleash-backup-.._.._etc_passwd.json'],
    ['win\\dows', 'unleash-backup-win_dows.json'],
    ['c:d*e?f"g<h>i|j', 'unleash-backup-c_d_e_f_g_h_i_j.json'],
    ['tab\there\nnul\u0000del\u007f', 'unleash-backup-tab_here_nul_del_.json'],
    ['app 🚀 ü', 'unleash-backup-app 🚀 ü.json'],
  ])('%j is stored as %s', async (key, name) => {
    expect(backupFileName(key)).toBe(name)
    const storage = createFileStorage({ directory: dir.path })
    await storage.set(key, samplePayload())
    expect(readdirSync(dir.path)).toEqual([name])
    expect(await storage.get(key)).toEqual(samplePayload())
  })

  it('a long key gets a name within 255 bytes that stays unique', async () => {
    const keys = ['x'.repeat(1000), `${'x'.repeat(999)}y`, '🚀'.repeat(300)]
    const names = keys.map(backupFileName)
    for (const name of names) expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255)
    expect(new Set(names).size).toBe(3)
    const storage = createFileStorage({ directory: dir.path })
    for (const [i, key] of keys.entries())
      await storage.set(key, { version: 2, features: [], segments: [{ id: i, constraints: [] }] })
    for (const [i, key] of keys.entries())
      expect((await storage.get(key))?.segments).toEqual([{ id: i, constraints: [] }])
  })

  it('every name is a plain file name inside the directory', () => {
    for (const key of ['/', '..', '../x', 'a/../../b', '\\..\\x', '']) {
      expect(basename(join(dir.path, backupFileName(key)))).toBe(backupFileName(key))
    }
  })
})

describe('file storage: atomic writes', () => {
  it('leaves no temp files behind', async () => {
    const storage = createFileStorage({ directory: dir.path })
    for (let i = 0; i < 10; i++) await storage.set('unleash-proxy', samplePayload())
    expect(readdirSync(dir.path)).toEqual(['unleash-backup-unleash-proxy.json'])
  })

  it('a failed write rejects with STORAGE_UNAVAILABLE and leaves no temp file', async () => {
    const storage = createFileStorage({ directory: dir.path })
    mkdirSync(join(storage.path('blocked'), 'inside'), { recursive: true }) // a directory where the file goes
    const error = await storage.set('blocked', samplePayload()).catch((e: unknown) => e)
    expect(isStorageError(error) && error.code).toBe('STORAGE_UNAVAILABLE')
    expect(readdirSync(dir.path)).toEqual(['unleash-backup-blocked.json'])
  })

  it('a writer killed while writing its temp file leaves the previous backup whole', async () => {
    const [first, second] = crashPayloads()
    // A kill lands mid-write when the temp file is still there; on a loaded machine it can land
    // after the rename instead. Either way the backup must be whole; three kills must land mid-write.
    let midWrite = 0
    for (let round = 0; round < 12 && midWrite < 3; round++) {
      await killWriterWhileWriting(dir.path, 2 + round)
      const temps = readdirSync(dir.path).filter((name) => name.endsWith('.tmp'))
      expect(temps.length).toBeLessThanOrEqual(1)
      if (temps.length === 1) midWrite++
      for (const temp of temps) rmSync(join(dir.path, temp))
      expect([first, second]).toContainEqual(await createFileStorage({ directory: dir.path }).get('crash-app'))
    }
    expect(midWrite).toBe(3)
  }, 60_000)

  it('a stale temp file from a crashed writer is ignored', async () => {
    const storage = createFileStorage({ directory: dir.path })
    await storage.set('unleash-proxy', samplePayload())
    writeFileSync(join(dir.path, '.unleash-backup-unleash-proxy.json.1a2b3c4d.tmp'), '{"version":2,"feat')
    expect(await storage.get('unleash-proxy')).toEqual(samplePayload())
  })

  it('creates a missing directory and keeps the backup readable by its owner only', async () => {
    const storage = createFileStorage({ directory: join(dir.path, 'nested', 'backups') })
    await storage.set('unleash-proxy', samplePayload())
    expect(await storage.get('unleash-proxy')).toEqual(samplePayload())
    expect(statSync(storage.path('unleash-proxy')).mode & 0o777).toBe(0o600)
  })
})

describe('file storage: unreadable backups', () => {
  it('a corrupt file rejects with STORAGE_CORRUPT naming the file, so the caller can tell it from "nothing stored"', async () => {
    const storage = createFileStorage({ directory: dir.path })
    writeFileSync(storage.path('unleash-proxy'), '{"version":2,"features":[{"na')
    const error = await storage.get('unleash-proxy').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(StorageError)
    expect(error).toMatchObject({ code: 'STORAGE_CORRUPT', name: 'StorageError' })
    expect((error as Error).message).toContain(storage.path('unleash-proxy'))
    expect((error as Error).cause).toBeInstanceOf(SyntaxError)
  })

  it.each(['null', '[]', '42', '"text"', '{"features":"nope"}', '{"version":2}'])(
    'JSON that is not a payload (%s) is STORAGE_CORRUPT',
    async (text) => {
      const storage = createFileStorage({ directory: dir.path })
      writeFileSync(storage.path('unleash-proxy'), text)
      await expect(storage.get('unleash-proxy')).rejects.toMatchObject({ code: 'STORAGE_CORRUPT' })
    },
  )

  it('a backup path that cannot be read rejects with STORAGE_UNAVAILABLE', async () => {
    const storage = createFileStorage({ directory: dir.path })
    mkdirSync(storage.path('unleash-proxy'))
    await expect(storage.get('unleash-proxy')).rejects.toMatchObject({ code: 'STORAGE_UNAVAILABLE' })
  })

  it('a missing directory is nothing stored', async () => {
    expect(await createFileStorage({ directory: join(dir.path, 'absent') }).get('unleash-proxy')).toBeUndefined()
  })
})

// --- Internal helpers ---

/**
 * Runs the writer child until it has finished `writes` sets, then SIGKILLs it as soon as the temp
 * file of the next one appears, or after 5 s if none ever does.
 */
function killWriterWhileWriting(directory: string, writes: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, directory], { stdio: ['ignore', 'pipe', 'pipe'] })
    const kill = () => child.kill('SIGKILL')
    let watcher: FSWatcher | undefined
    let fallback: NodeJS.Timeout | undefined
    let dots = 0
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.stdout.on('data', (chunk: Buffer) => {
      dots += chunk.toString().length
      if (dots < writes || watcher) return
      watcher = watch(directory, (_event, name) => name?.endsWith('.tmp') && kill())
      fallback = setTimeout(kill, 5_000)
    })
    child.once('error', reject)
    child.once('exit', (code, signal) => {
      watcher?.close()
      clearTimeout(fallback)
      if (signal === 'SIGKILL') resolve()
      else reject(new Error(`writer exited with ${code}: ${stderr}`))
    })
  })
}
