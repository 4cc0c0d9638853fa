// GET /proxy/internal-backstage/prometheus: the old proxy's three metrics, exactly named, plus
// a few of Vexil's own. One registry per app (no process-wide default registry).
import { Counter, Gauge, Registry } from 'prom-client'
import type { FlagStore } from './flag-store.js'

export interface Telemetry {
  readonly registry: Registry
  upstreamFetch(result: 'updated' | 'unchanged' | 'failed'): void
  responseCache(result: 'hit' | 'miss'): void
}

export function createTelemetry(store: FlagStore): Telemetry {
  const registry = new Registry()
  new Gauge({
    name: 'last_metrics_update_epoch_timestamp_ms',
    help: 'An epoch timestamp (in milliseconds) set to when our unleash-client last got an update from upstream Unleash',
    registers: [registry],
    collect() {
      this.set(store.lastUpdate)
    },
  })
  new Gauge({
    name: 'last_metrics_fetch_epoch_timestamp_ms',
    help: 'An epoch timestamp (in milliseconds) set to when our unleash-client last checked (regardless if there was an update or not)',
    registers: [registry],
    collect() {
      this.set(store.lastFetch)
    },
  })
  new Counter({ name: 'unleash_proxy_up', help: 'Indication that the service is up.', registers: [registry] }).inc()
  new Gauge({
    name: 'vexil_proxy_flags',
    help: 'Flags the proxy currently evaluates.',
    registers: [registry],
    collect() {
      this.set(store.engine.size)
    },
  })
  const fetches = new Counter({ name: 'vexil_proxy_upstream_fetches_total', help: 'Polls of the upstream by outcome.', labelNames: ['result'], registers: [registry] })
  const cache = new Counter({ name: 'vexil_proxy_response_cache_total', help: 'Evaluation requests answered from the response cache (hit) or evaluated (miss).', labelNames: ['result'], registers: [registry] })
  return {
    registry,
    upstreamFetch: (result) => fetches.inc({ result }),
    responseCache: (result) => cache.inc({ result }),
  }
}
