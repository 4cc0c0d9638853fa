import type { Redis } from 'ioredis'
import { parsePayload } from './payload.js'
import { StorageError } from './storage-error.js'
import type { StorageProvider } from './types.js'

export const DEFAULT_REDIS_KEY_PREFIX = 'vexil:proxy:backup:'
const DEFAULT_CONNECT_TIMEOUT_MS = 2_000
const DEFAULT_COMMAND_TIMEOUT_MS = 5_000
const MAX_RECONNECT_DELAY_MS = 2_000

export interface RedisStorageOptions {
  /** `redis://[[user]:password@]host[:port][/db]`, or `rediss://` for TLS. */
  url: string
  /** Prepended to the app name to make the Redis key. @default 'vexil:proxy:backup:' */
  keyPrefix?: string
  /** How long one connection attempt may take. @default 2000 */
  connectTimeoutMs?: number
  /** How long one `get` or `set` may take in all, waiting for a connection included. @default 5000 */
  commandTimeoutMs?: number
}

/**
 * One JSON string per app name under `<keyPrefix><appName>` in a Redis that several proxy
 * instances share: the last `set` wins, and a `get` from any instance returns it.
 *
 * Redis down never hangs the proxy: nothing connects until the first call; a call waits for the
 * next connection attempt at most (refused at once, or `connectTimeoutMs`), never longer than
 * `commandTimeoutMs`, then rejects with `STORAGE_UNAVAILABLE`. Meanwhile the client reconnects in
 * the background (backing off up to 2 s), so calls succeed again once Redis is back. A stored
 * value that is not a payload rejects with `STORAGE_CORRUPT`; a missing key is `undefined`.
 */
export function createRedisStorage(options: RedisStorageOptions): Required<StorageProvider> {
  const problems = redisStorageProblems(options)
  if (problems.length > 0) throw new StorageError('STORAGE_CONFIG_INVALID', `redis storage: ${problems.join('; ')}`)
  const keyPrefix = options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX
  const where = new URL(options.url).host // never the password, in any message
  let lastConnectionError: Error | undefined
  let client: Promise<Redis> | undefined
  // ioredis is loaded with the first call: a proxy on file storage (the default) does not carry
  // it in its resident memory.
  const connect = () =>
    (client ??= import('ioredis').then(({ Redis }) => {
      const redis = new Redis(options.url, {
        // The proxy starts (from upstream or bootstrap) whether or not Redis is up.
        lazyConnect: true,
        connectTimeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
        // Bounds every call, including one queued while a connection is being made.
        commandTimeout: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
        // A queued call fails with the first failed connection attempt instead of after 20.
        maxRetriesPerRequest: 0,
        retryStrategy: (attempt) => Math.min(100 * 2 ** (attempt - 1), MAX_RECONNECT_DELAY_MS),
      })
      // Failures reach callers as rejections; without a listener ioredis prints every reconnect error.
      redis.on('error', (error: Error) => (lastConnectionError = error))
      redis.on('ready', () => (lastConnectionError = undefined))
      return redis
    }))
  let closing: Promise<void> | undefined

  async function run<T>(action: string, key: string, command: (redis: Redis) => Promise<T>): Promise<T> {
    if (closing)
      throw new StorageError('STORAGE_UNAVAILABLE', `could not ${action} redis key ${key}: the storage is closed`)
    try {
      return await command(await connect())
    } catch (error) {
      // While disconnected, ioredis only says that the retries ran out; the socket error says why.
      const reason = lastConnectionError
        ? `Redis is unreachable (${lastConnectionError.message})`
        : (error as Error).message
      throw new StorageError('STORAGE_UNAVAILABLE', `could not ${action} redis key ${key} on ${where}: ${reason}`, {
        cause: error,
      })
    }
  }

  return {
    async get(key) {
      const redisKey = keyPrefix + key
      const text = await run('read', redisKey, (redis) => redis.get(redisKey))
      return text === null ? undefined : parsePayload(text, `redis key ${redisKey} on ${where}`)
    },
    async set(key, payload) {
      const redisKey = keyPrefix + key
      const text = JSON.stringify(payload)
      await run('write', redisKey, (redis) => redis.set(redisKey, text))
    },
    close() {
      closing ??= client ? client.then(quit) : Promise.resolve()
      return closing
    },
  }
}

/** What is wrong with a Redis URL (`"must be …"`), or `undefined`; never echoes credentials. */
export function redisUrlProblem(url: string): string | undefined {
  let protocol: string
  try {
    protocol = new URL(url).protocol
  } catch {
    return 'must be a redis:// or rediss:// URL, got something that is not a URL'
  }
  return protocol === 'redis:' || protocol === 'rediss:'
    ? undefined
    : `must be a redis:// or rediss:// URL, got a "${protocol}" URL`
}

// --- Internal helpers ---

function redisStorageProblems(options: RedisStorageOptions): string[] {
  const problems: string[] = []
  if (typeof options.url !== 'string' || options.url === '') problems.push('url is required')
  else {
    const problem = redisUrlProblem(options.url)
    if (problem) problems.push(`url ${problem}`)
  }
  if (options.keyPrefix !== undefined && typeof options.keyPrefix !== 'string')
    problems.push('keyPrefix must be a string')
  for (const name of ['connectTimeoutMs', 'commandTimeoutMs'] as const) {
    const value = options[name]
    if (value !== undefined && !(Number.isFinite(value) && value > 0))
      problems.push(`${name} must be a positive number of milliseconds, got ${value}`)
  }
  return problems
}

/** QUIT when connected (pending replies arrive first); otherwise drop the socket and stop reconnecting. */
async function quit(client: Redis): Promise<void> {
  if (client.status === 'ready') {
    try {
      await client.quit()
      return
    } catch {
      // Redis went away meanwhile: disconnecting below is all that is left to do.
    }
  }
  client.disconnect()
}
