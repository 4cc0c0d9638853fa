import type { ClientFeaturesPayload } from '@vexil/engine'
import type { StorageProvider } from './types.js'

/**
 * Keeps payloads in a Map owned by this instance: nothing survives a restart and nothing is
 * shared with another instance (the old SDK's in-memory provider). For tests and for proxies
 * that must never write to disk.
 */
export function createMemoryStorage(): Required<StorageProvider> {
  const data = new Map<string, ClientFeaturesPayload>()
  return {
    async get(key) {
      const stored = data.get(key)
      // A copy out as well as in: the stored value is a snapshot, like a file or Redis value.
      return stored === undefined ? undefined : structuredClone(stored)
    },
    async set(key, payload) {
      data.set(key, structuredClone(payload))
    },
    async close() {},
  }
}
