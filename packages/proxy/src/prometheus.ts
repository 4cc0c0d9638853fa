// GET /proxy/internal-backstage/prometheus: the old proxy's three metrics, exactly named, plus
// a few of Vexil's own. One registry per app (no process-wide default registry). (The usage
// counts the proxy sends upstream are another thing: see @vexil/sync's usage/.) With WORKERS=N a
// scrape answers for the whole cluster (runtime/cluster/cluster-metrics.ts): counters are summed
// over the processes; the timestamps, the flag count and `up`, the same in every process, take the largest.
import { Counter, Gauge, Registry } from 'prom-client'
import type { UsageDrops } from '@vexil/sync'

export interface PrometheusExporter {
  readonly registry: Registry
  upstreamFetch(result: 'updated' | 'unchanged' | 'failed'): void
  responseCache(result: 'hit' | 'miss'): void
}

/** What the gauges read when scraped. */
interface PrometheusReadings {
  /** Epoch ms of the last payload loaded, and of the last successful fetch (200 or 304); 0 for never. */
  lastUpdate(): number
  lastFetch(): number
  /** Flags in the current set. */
  flagCount(): number
  /** What SDKs posted that the usage bounds dropped, since start (@vexil/sync's usage/app-limits.ts). */
  usageDrops(): UsageDrops
}

const DROP_REASONS = {
  unknownFlags: 'unknown_flag',
  registrations: 'registration',
  unattributed: 'unattributed',
} as const

export function createPrometheusExporter(readings: PrometheusReadings): PrometheusExporter {
  const registry = new Registry()
  new Gauge({
    name: 'last_metrics_update_epoch_timestamp_ms',
    help: 'An epoch timestamp (in milliseconds) set to when our unleash-client last got an update from upstream Unleash',
    registers: [registry],
    aggregator: 'max',
    collect() {
      this.set(readings.lastUpdate())
    },
  })
  new Gauge({
    name: 'last_metrics_fetch_epoch_timestamp_ms',
    help: 'An epoch timestamp (in milliseconds) set to when our unleash-client last checked (regardless if there was an update or not)',
    registers: [registry],
    aggregator: 'max',
    collect() {
      this.set(readings.lastFetch())
    },
  })
  new Counter({
    name: 'unleash_proxy_up',
    help: 'Indication that the service is up.',
    registers: [registry],
    aggregator: 'max',
  }).inc()
  new Gauge({
    name: 'vexil_proxy_flags',
    help: 'Flags the proxy currently evaluates.',
    registers: [registry],
    aggregator: 'max',
    collect() {
      this.set(readings.flagCount())
    },
  })
  const fetches = new Counter({
    name: 'vexil_proxy_upstream_fetches_total',
    help: 'Polls of the upstream by outcome.',
    labelNames: ['result'],
    registers: [registry],
  })
  // Counted on every evaluation request: plain numbers, handed to prom-client only when scraped
  // (a labelled inc() hashes its labels each time).
  const cacheCounts = { hit: 0, miss: 0 }
  new Counter({
    name: 'vexil_proxy_response_cache_total',
    help: 'Evaluation requests answered from the response cache (hit) or evaluated (miss).',
    labelNames: ['result'],
    registers: [registry],
    collect() {
      this.reset()
      for (const result of ['hit', 'miss'] as const)
        if (cacheCounts[result] > 0) this.inc({ result }, cacheCounts[result])
    },
  })
  new Counter({
    name: 'vexil_proxy_usage_dropped_total',
    help: 'What SDKs posted past the usage bounds: unknown flag names and registrations dropped, counts kept as the proxy own (unattributed).',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      this.reset()
      const drops = readings.usageDrops()
      for (const [field, reason] of Object.entries(DROP_REASONS)) this.inc({ reason }, drops[field as keyof UsageDrops])
    },
  })
  return {
    registry,
    upstreamFetch: (result) => fetches.inc({ result }),
    responseCache: (result) => void cacheCounts[result]++,
  }
}

/** The drops of every aggregator the proxy counts in: the static scope's and each token scope's. */
export function usageDrops(sync: {
  scope: { usage: { dropped: UsageDrops } } | undefined
  scopes: { syncs: readonly { usage: { dropped: UsageDrops } }[] }
}): UsageDrops {
  const total: UsageDrops = { unknownFlags: 0, registrations: 0, unattributed: 0 }
  for (const { dropped } of [
    ...(sync.scope ? [sync.scope.usage] : []),
    ...sync.scopes.syncs.map((tokenSync) => tokenSync.usage),
  ]) {
    total.unknownFlags += dropped.unknownFlags
    total.registrations += dropped.registrations
    total.unattributed += dropped.unattributed
  }
  return total
}
