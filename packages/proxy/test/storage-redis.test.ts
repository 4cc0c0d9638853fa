import { randomUUID } from 'node:crypto'
import { createServer, type Server, type Socket } from 'node:net'
import { redisAvailable, type RedisServer, startRedis } from '@vexil/test-fixtures/redis-server.ts'
import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  createRedisStorage,
  createStorageFromConfig,
  isStorageError,
  type StorageProvider,
} from '../src/storage/index.js'
import { samplePayload } from './helpers/payloads.js'

// A real redis-server (Debian package); outside CI a machine without it skips with a message,
// under CI=true its absence fails.
const redis: RedisServer | undefined = redisAvailable() ? await startRedis() : undefined
if (!redis)
  console.warn('[storage-redis] redis-server is not installed: the Redis tests are skipped (they fail under CI=true).')

const opened: StorageProvider[] = []
/** Every provider a test opens is closed after it. */
function track<T extends StorageProvider>(provider: T): T {
  opened.push(provider)
  return provider
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((provider) => provider.close?.()))
})

describe.skipIf(!redis)('redis storage: keys and values', () => {
  const server = redis as RedisServer
  let raw: Redis
  beforeAll(() => {
    raw = new Redis(server.url)
  })
  afterAll(async () => {
    await raw.quit()
    await server.stop()
  })

  it('stores JSON under vexil:proxy:backup:<key> by default', async () => {
    const app = `app-${randomUUID()}`
    await track(createRedisStorage({ url: server.url })).set(app, samplePayload())
    expect(JSON.parse((await raw.get(`vexil:proxy:backup:${app}`)) ?? 'null')).toEqual(samplePayload())
  })

  it('keyPrefix namespaces the keys: two prefixes on one server do not see each other', async () => {
    const a = track(createRedisStorage({ url: server.url, keyPrefix: 'tenant-a:' }))
    const b = track(createRedisStorage({ url: server.url, keyPrefix: 'tenant-b:' }))
    await a.set('shared-name', samplePayload())
    expect(await raw.exists('tenant-a:shared-name')).toBe(1)
    expect(await b.get('shared-name')).toBeUndefined()
  })

  it('createStorageFromConfig wires REDIS_URL and REDIS_KEY_PREFIX', async () => {
    const prefix = `cfg-${randomUUID()}:`
    await track(createStorageFromConfig({ provider: 'redis', redisUrl: server.url, redisKeyPrefix: prefix })).set(
      'app',
      samplePayload(),
    )
    expect(await raw.exists(`${prefix}app`)).toBe(1)
  })

  it('reads a value another instance or tool wrote', async () => {
    const prefix = `tool-${randomUUID()}:`
    await raw.set(`${prefix}app`, JSON.stringify(samplePayload()))
    expect(await track(createRedisStorage({ url: server.url, keyPrefix: prefix })).get('app')).toEqual(samplePayload())
  })

  it('a corrupt value rejects with STORAGE_CORRUPT, so the caller can tell it from "nothing stored"', async () => {
    const prefix = `corrupt-${randomUUID()}:`
    await raw.set(`${prefix}app`, '{"version":2,"featu')
    await expect(track(createRedisStorage({ url: server.url, keyPrefix: prefix })).get('app')).rejects.toMatchObject({
      code: 'STORAGE_CORRUPT',
      message: expect.stringContaining(`${prefix}app`),
    })
  })

  it('close() quits the connection: later calls reject with STORAGE_UNAVAILABLE', async () => {
    const storage = createRedisStorage({ url: server.url, keyPrefix: `closed-${randomUUID()}:` })
    await storage.set('app', samplePayload())
    await storage.close()
    await expect(storage.get('app')).rejects.toMatchObject({ code: 'STORAGE_UNAVAILABLE' })
  })
})

describe('redis storage: Redis down', () => {
  it('creating the provider neither connects nor throws', async () => {
    await track(createRedisStorage({ url: `redis://127.0.0.1:${await closedPort()}` })).close()
  })

  it('against a closed port, get and set reject with STORAGE_UNAVAILABLE within 2 s, every time', {
    timeout: 10_000,
  }, async () => {
    const storage = track(createRedisStorage({ url: `redis://127.0.0.1:${await closedPort()}` }))
    for (const call of [
      () => storage.get('app'),
      () => storage.set('app', samplePayload()),
      () => storage.get('app'),
    ]) {
      const { error, ms } = await settle(call())
      expect(isStorageError(error) && error.code).toBe('STORAGE_UNAVAILABLE')
      expect(ms).toBeLessThan(2_000)
    }
  })

  it('against a server that accepts but never answers, get settles within the timeouts', {
    timeout: 10_000,
  }, async () => {
    const silent = await silentServer()
    try {
      const storage = track(
        createRedisStorage({ url: `redis://127.0.0.1:${silent.port}`, connectTimeoutMs: 300, commandTimeoutMs: 500 }),
      )
      const { error, ms } = await settle(storage.get('app'))
      expect(isStorageError(error) && error.code).toBe('STORAGE_UNAVAILABLE')
      expect(ms).toBeLessThan(2_000)
    } finally {
      await silent.close()
    }
  })

  it('close() settles quickly while Redis is down', { timeout: 10_000 }, async () => {
    const storage = createRedisStorage({ url: `redis://127.0.0.1:${await closedPort()}` })
    await storage.get('app').catch(() => undefined)
    const started = performance.now()
    await storage.close()
    expect(performance.now() - started).toBeLessThan(1_000)
  })

  it.skipIf(!redis)('a provider recovers when Redis comes back on the same address', async () => {
    let server = await startRedis()
    try {
      const storage = track(createRedisStorage({ url: server.url }))
      await storage.set('app', samplePayload())
      await server.stop()
      await expect(storage.get('app')).rejects.toMatchObject({ code: 'STORAGE_UNAVAILABLE' })
      server = await startRedis({ port: server.port })
      await eventually(() => storage.set('app', samplePayload()))
      expect(await storage.get('app')).toEqual(samplePayload())
    } finally {
      await server.stop()
    }
  })
})

describe('redis storage: options', () => {
  it.each([
    [{ url: '' }, 'url is required'],
    [{ url: 'localhost:6379' }, 'redis:// or rediss://'],
    [{ url: 'redis://127.0.0.1:6379', connectTimeoutMs: 0 }, 'connectTimeoutMs'],
    [{ url: 'redis://127.0.0.1:6379', commandTimeoutMs: Number.NaN }, 'commandTimeoutMs'],
  ])('%j is rejected with STORAGE_CONFIG_INVALID', (options, message) => {
    expect(() => createRedisStorage(options)).toThrow(
      expect.objectContaining({ code: 'STORAGE_CONFIG_INVALID', message: expect.stringContaining(message) }),
    )
  })
})

// --- Internal helpers ---

async function settle(promise: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now()
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  return { error, ms: performance.now() - started }
}

/** A port nothing listens on: bound once to find it, then released. */
async function closedPort(): Promise<number> {
  const server = await listen(createServer())
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** A TCP server that accepts connections and never writes a byte, like a hung Redis. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  const server = await listen(createServer((socket) => sockets.add(socket)))
  return {
    port: (server.address() as { port: number }).port,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

function listen(server: Server): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve(server))
  })
}

async function eventually(attempt: () => Promise<unknown>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      await attempt()
      return
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}
