import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createStorageFromConfig, type StorageConfig, storageConfigProblems } from '../src/storage/index.js'
import { samplePayload } from './helpers/payloads.js'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'

let dir: ReturnType<typeof tempDir>
beforeEach(() => {
  dir = tempDir('storage-config')
})
afterEach(() => dir.remove())

describe('createStorageFromConfig', () => {
  it('STORAGE_PROVIDER=memory gives a working memory store', async () => {
    const storage = createStorageFromConfig({ provider: 'memory' })
    await storage.set('app', samplePayload())
    expect(await storage.get('app')).toEqual(samplePayload())
  })

  it('STORAGE_PROVIDER=file writes to STORAGE_FILE_DIRECTORY', async () => {
    await createStorageFromConfig({ provider: 'file', fileDirectory: dir.path }).set('app', samplePayload())
    expect(readdirSync(dir.path)).toEqual(['unleash-backup-app.json'])
  })

  it.each<StorageConfig>([{}, { provider: 'file' }, { provider: 'file', fileDirectory: '' }])(
    '%j is the default: the file provider in the private folder ./.vexil/proxy (not the shared temp folder)',
    (config) => {
      const storage = createStorageFromConfig(config)
      expect('path' in storage && (storage.path as (key: string) => string)('app')).toBe(
        join(process.cwd(), '.vexil', 'proxy', 'unleash-backup-app.json'),
      )
    },
  )

  it('STORAGE_PROVIDER=redis does not connect while starting up', async () => {
    const storage = createStorageFromConfig({ provider: 'redis', redisUrl: 'redis://127.0.0.1:1' })
    await storage.close?.()
  })
})

describe('storage config validation', () => {
  it.each<[StorageConfig, string]>([
    [{ provider: 'postgres' as never }, 'STORAGE_PROVIDER must be one of file, memory, redis, got "postgres"'],
    [{ provider: 'redis' }, 'REDIS_URL is required when STORAGE_PROVIDER is redis'],
    [{ provider: 'redis', redisUrl: '' }, 'REDIS_URL is required when STORAGE_PROVIDER is redis'],
    [
      { provider: 'redis', redisUrl: 'localhost:6379' },
      'REDIS_URL must be a redis:// or rediss:// URL, got a "localhost:" URL',
    ],
    [
      { provider: 'redis', redisUrl: 'not a url' },
      'REDIS_URL must be a redis:// or rediss:// URL, got something that is not a URL',
    ],
  ])('%j: %s', (config, problem) => {
    expect(storageConfigProblems(config)).toEqual([problem])
    expect(() => createStorageFromConfig(config)).toThrow(
      expect.objectContaining({
        name: 'StorageError',
        code: 'STORAGE_CONFIG_INVALID',
        message: `Invalid storage configuration: ${problem}`,
      }),
    )
  })

  it('never echoes the credentials of a bad REDIS_URL', () => {
    const [problem] = storageConfigProblems({ provider: 'redis', redisUrl: 'http://user:s3cret@redis.internal:6379' })
    expect(problem).toBe('REDIS_URL must be a redis:// or rediss:// URL, got a "http:" URL')
  })

  it('valid configurations have no problems; options of other providers are ignored', () => {
    expect(
      storageConfigProblems({ provider: 'redis', redisUrl: 'rediss://:pw@host:6380/2', redisKeyPrefix: 'x:' }),
    ).toEqual([])
    expect(storageConfigProblems({ provider: 'memory', redisUrl: 'nonsense', fileDirectory: '/nowhere' })).toEqual([])
  })
})
