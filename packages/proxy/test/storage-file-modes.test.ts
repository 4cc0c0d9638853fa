// The file storage keeps the whole flag configuration, so it is private (README, Security):
// by default in ./.vexil/proxy, created 0700, files 0600; never read from the shared temp folder
// the old proxy used, and never read when someone else could have written it.
import { chmodSync, chownSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProxyApp, createProxyConfig } from '@vexil/proxy'
import { startFakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { createFileStorage, isStorageError } from '../src/storage/index.js'
import { samplePayload } from './helpers/payloads.js'
import { memoryLogger } from './helpers/proxy.js'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'

const mode = (path: string) => statSync(path).mode & 0o777
const isRoot = process.getuid?.() === 0

let dir: ReturnType<typeof tempDir>
let cwd: string
beforeEach(() => {
  dir = tempDir('file-modes')
  cwd = process.cwd()
})
afterEach(() => {
  process.chdir(cwd)
  dir.remove()
})

describe('file storage: a private folder', () => {
  it('by default writes to ./.vexil/proxy, created 0700, the backup 0600', async () => {
    process.chdir(dir.path)
    const storage = createFileStorage()
    expect(storage.directory).toBe(join(dir.path, '.vexil', 'proxy'))
    await storage.set('app', samplePayload())
    expect(mode(join(dir.path, '.vexil'))).toBe(0o700)
    expect(mode(join(dir.path, '.vexil', 'proxy'))).toBe(0o700)
    expect(mode(storage.path('app'))).toBe(0o600)
    expect(await storage.get('app')).toEqual(samplePayload())
  })

  it('tightens the default folder to 0700 when it exists with wider permissions', async () => {
    process.chdir(dir.path)
    mkdirSync(join(dir.path, '.vexil', 'proxy'), { recursive: true, mode: 0o777 })
    chmodSync(join(dir.path, '.vexil', 'proxy'), 0o777)
    await createFileStorage().set('app', samplePayload())
    expect(mode(join(dir.path, '.vexil', 'proxy'))).toBe(0o700)
  })

  it('creates a missing STORAGE_FILE_DIRECTORY 0700, and leaves an existing one as it is', async () => {
    const fresh = createFileStorage({ directory: join(dir.path, 'a', 'b') })
    await fresh.set('app', samplePayload())
    expect(mode(join(dir.path, 'a'))).toBe(0o700)
    expect(mode(join(dir.path, 'a', 'b'))).toBe(0o700)
    mkdirSync(join(dir.path, 'shared'), { mode: 0o755 })
    chmodSync(join(dir.path, 'shared'), 0o755)
    const shared = createFileStorage({ directory: join(dir.path, 'shared') })
    await shared.set('app', samplePayload())
    expect(mode(join(dir.path, 'shared'))).toBe(0o755)
    expect(mode(shared.path('app'))).toBe(0o600)
  })
})

describe('file storage: backups someone else could have written are not read', () => {
  it.each([0o666, 0o620, 0o602])(
    'a backup with mode %o (writable by others) is refused, naming the file',
    async (fileMode) => {
      const storage = createFileStorage({ directory: dir.path })
      await storage.set('app', samplePayload())
      chmodSync(storage.path('app'), fileMode)
      const error = await storage.get('app').catch((e: unknown) => e)
      expect(isStorageError(error) && error.code).toBe('STORAGE_UNTRUSTED')
      expect((error as Error).message).toContain(storage.path('app'))
    },
  )

  it('a backup the old proxy wrote (0644, same owner) is read', async () => {
    const storage = createFileStorage({ directory: dir.path })
    writeFileSync(storage.path('app'), JSON.stringify(samplePayload()), { mode: 0o644 })
    expect(await storage.get('app')).toEqual(samplePayload())
  })

  it.runIf(isRoot)('a backup owned by another user is refused', async () => {
    const storage = createFileStorage({ directory: dir.path })
    await storage.set('app', samplePayload())
    chownSync(storage.path('app'), 4321, 4321)
    const error = await storage.get('app').catch((e: unknown) => e)
    expect(isStorageError(error) && error.code).toBe('STORAGE_UNTRUSTED')
  })
})

describe('the proxy and a backup in the old default place', () => {
  it('does not read unleash-backup-<app>.json from the temp folder, and says so', async () => {
    const tmp = join(dir.path, 'tmp')
    mkdirSync(tmp)
    writeFileSync(join(tmp, 'unleash-backup-legacy-app.json'), JSON.stringify(samplePayload()))
    const work = join(dir.path, 'work')
    mkdirSync(work)
    process.chdir(work)
    const previousTmp = process.env.TMPDIR
    process.env.TMPDIR = tmp
    const upstream = await startFakeUpstream()
    upstream.fail({ status: 503 })
    const logs: string[] = []
    try {
      const config = await createProxyConfig(
        {
          serviceUrl: upstream.url,
          serviceApiToken: 't',
          clientKeys: ['k'],
          serviceAppName: 'legacy-app',
          metricsInterval: 0,
          refreshInterval: 60_000,
          logger: memoryLogger(logs),
        },
        {},
      )
      const proxy = createProxyApp({ config })
      await proxy.start()
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(proxy.ready).toBe(false)
      expect(
        logs.some(
          (line) =>
            line.startsWith('WARN:') &&
            line.includes(join(tmp, 'unleash-backup-legacy-app.json')) &&
            line.includes('not read'),
        ),
      ).toBe(true)
      await proxy.close()
    } finally {
      if (previousTmp === undefined) delete process.env.TMPDIR
      else process.env.TMPDIR = previousTmp
      await upstream.close()
    }
  })
})
