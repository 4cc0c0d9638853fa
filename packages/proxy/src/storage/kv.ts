import { parsePayload } from './payload.js'
import { StorageError } from './storage-error.js'
import type { StorageProvider } from './types.js'

/** What the proxy uses of a Workers KV namespace binding. */
export interface KvNamespace {
  get(key: string, type: 'text'): Promise<string | null>
  put(key: string, value: string): Promise<void>
}

const DEFAULT_KV_KEY_PREFIX = 'vexil:proxy:'

/**
 * One JSON string per app name under `<keyPrefix><appName>` in a Workers KV namespace, for the
 * proxy as a Cloudflare Worker (runtime/cloudflare-worker/entry.ts): every isolate, in every
 * location, reads the last good payload from it when it starts, so a cold isolate serves flags while the upstream is down.
 * KV is eventually consistent (a write may take up to a minute to be seen elsewhere): it is the
 * backup, never the source of truth.
 */
export function createKvStorage(kv: KvNamespace, keyPrefix = DEFAULT_KV_KEY_PREFIX): StorageProvider {
  const run = async <T>(action: 'read' | 'write', key: string, call: () => Promise<T>): Promise<T> => {
    try {
      return await call()
    } catch (error) {
      throw new StorageError(
        'STORAGE_UNAVAILABLE',
        `could not ${action} KV key ${key}: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      )
    }
  }
  return {
    async get(key) {
      const kvKey = keyPrefix + key
      const text = await run('read', kvKey, () => kv.get(kvKey, 'text'))
      return text === null ? undefined : parsePayload(text, `KV key ${kvKey}`)
    },
    async set(key, payload) {
      const kvKey = keyPrefix + key
      const text = JSON.stringify(payload)
      await run('write', kvKey, () => kv.put(kvKey, text))
    },
  }
}
