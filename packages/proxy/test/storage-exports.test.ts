import type { ClientFeaturesPayload } from '@vexil/engine'
import { describe, expect, it } from 'vitest'
import * as storage from '../src/storage/index.js'
import {
  createMemoryStorage,
  isStorageError,
  readBackup,
  StorageError,
  type StorageProvider,
} from '../src/storage/index.js'
import { samplePayload } from './helpers/payloads.js'

describe('the storage module surface', () => {
  it('exports exactly the factories, the error and the backup reader', () => {
    expect(Object.keys(storage).sort()).toEqual([
      'DEFAULT_REDIS_KEY_PREFIX',
      'StorageError',
      'backupFileName',
      'createFileStorage',
      'createMemoryStorage',
      'createRedisStorage',
      'createStorageFromConfig',
      'isStorageError',
      'readBackup',
      'storageConfigProblems',
    ])
    expect(storage.DEFAULT_REDIS_KEY_PREFIX).toBe('vexil:proxy:backup:')
  })
})

describe('StorageError', () => {
  it('has a message, a code, a name and a cause, and is recognised across bundled copies', () => {
    const cause = new SyntaxError('Unexpected end of JSON input')
    const error = new StorageError('STORAGE_CORRUPT', 'backup is corrupt', { cause })
    expect(error).toBeInstanceOf(Error)
    expect(error).toMatchObject({ name: 'StorageError', code: 'STORAGE_CORRUPT', message: 'backup is corrupt', cause })
    expect(isStorageError(error)).toBe(true)
    class CopiedStorageError extends Error {
      static readonly __vexil_storage_error__ = true
    }
    expect(isStorageError(new CopiedStorageError())).toBe(true)
    expect(isStorageError(new Error('x'))).toBe(false)
    expect(isStorageError(undefined)).toBe(false)
  })
})

describe('readBackup: never throws, tells "nothing stored" from "stored but unreadable"', () => {
  it('found', async () => {
    const memory = createMemoryStorage()
    await memory.set('app', samplePayload())
    expect(await readBackup(memory, 'app')).toEqual({ status: 'found', payload: samplePayload() })
  })

  it('nothing stored', async () => {
    expect(await readBackup(createMemoryStorage(), 'app')).toEqual({ status: 'none' })
  })

  it('a provider that rejects: unreadable, with the reason', async () => {
    const corrupt = provider(async () => {
      throw new StorageError('STORAGE_CORRUPT', 'backup /tmp/x.json is not valid JSON')
    })
    expect(await readBackup(corrupt, 'app')).toMatchObject({
      status: 'unreadable',
      reason: 'backup /tmp/x.json is not valid JSON',
    })
  })

  it('a custom provider that throws anything at all: unreadable', async () => {
    const odd = provider(() => {
      throw 'a string' // eslint-disable-line no-throw-literal
    })
    expect(await readBackup(odd, 'app')).toEqual({ status: 'unreadable', reason: 'a string', error: 'a string' })
  })

  it('a custom provider that returns something that is not a payload: unreadable', async () => {
    const odd = provider(async () => ({ flags: [] }) as unknown as ClientFeaturesPayload)
    expect(await readBackup(odd, 'app')).toMatchObject({
      status: 'unreadable',
      reason: expect.stringContaining('features'),
    })
  })
})

// --- Internal helpers ---

function provider(get: StorageProvider['get']): StorageProvider {
  return { get, set: async () => {} }
}
