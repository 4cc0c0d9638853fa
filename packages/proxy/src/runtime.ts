// What the routes share: configuration, flags, metrics and caches of one proxy app.
import type { ProxyConfig } from './config/types.js'
import type { ResponseCache } from './evaluation/response-cache.js'
import { type ToggleSerializer, createToggleSerializer } from './evaluation/serialize.js'
import type { FlagStore } from './flag-store.js'
import type { Logger } from './logger.js'
import type { UsageAggregator } from './usage/aggregator.js'
import type { PrometheusExporter } from './prometheus.js'

export interface ProxyRuntime {
  config: ProxyConfig
  store: FlagStore
  logger: Logger
  aggregator: UsageAggregator
  prometheus: PrometheusExporter
  /** Undefined when RESPONSE_CACHE_SIZE is 0. */
  responseCache: ResponseCache | undefined
  /** The serializer for the current payload (fragments are per payload). */
  serializer(): ToggleSerializer
}

export function createRuntime(parts: Omit<ProxyRuntime, 'serializer'>): ProxyRuntime {
  let generation = -1
  let serializer: ToggleSerializer | undefined
  return {
    ...parts,
    serializer() {
      if (!serializer || generation !== parts.store.generation) {
        generation = parts.store.generation
        serializer = createToggleSerializer(parts.store.hasImpressionData)
      }
      return serializer
    },
  }
}
