import type { ClientFeaturesPayload } from '@vexil/engine'

/**
 * Where the proxy keeps its last good configuration, so a restart (or a new instance behind a
 * load balancer) can serve while the upstream is down. The same shape as the old proxy's
 * `storageProvider` option (`get(key)`, `set(key, data)`), so custom providers written for it
 * keep working. `key` is the app name.
 */
export interface StorageProvider {
  /** The stored payload, or `undefined` when there is none (never throws for "not found"). */
  get(key: string): Promise<ClientFeaturesPayload | undefined>
  set(key: string, data: ClientFeaturesPayload): Promise<void>
  /** Releases connections and timers; optional for custom providers. */
  close?(): Promise<void>
}
