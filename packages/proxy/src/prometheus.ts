// GET /proxy/internal-backstage/prometheus and /internal-backstage/metrics: the old proxy's three
// metrics, exactly named, Edge's names where Edge has a metric for the same thing (the request
// metrics, streams, token status, upstream timings and failures), Vexil's own, and prom-client's
// process metrics. One registry
// per app (no process-wide default registry). (The usage counts the proxy sends upstream are
// another thing: see @vexil/sync's usage/.) With WORKERS=N a scrape answers for the whole cluster
// (runtime/cluster/cluster-metrics.ts): counters and histograms are summed over the processes;
// the timestamps, the flag count and `up`, the same in every process, take the largest.
// docs/operations.md lists every metric.
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client'
import type { UsageDrops } from '@vexil/sync'
import type { ProxyConfig } from './config/types.js'
import type { RequestObserver } from '@vexil/server-kit'
import { registerEdgeUpstreamMetrics } from './metrics/edge-upstream-metrics.js'
import { identityLabels } from './metrics/identity-labels.js'
import { registerProxyGauges } from './metrics/proxy-gauges.js'
import { createRequestMetrics } from './metrics/request-metrics.js'
import { type ProxySync, servedFlags } from './scope/upstream-sync.js'

export interface PrometheusExporter {
  readonly registry: Registry
  upstreamFetch(result: 'updated' | 'unchanged' | 'failed'): void
  responseCache(result: 'hit' | 'miss'): void
  /** Feeds the request metrics: one of the app's request observers. */
  readonly requestMetrics: RequestObserver
}

/** What the gauges read when scraped: the sync the app serves over, and its open streams. */
interface PrometheusReadings {
  /** The app name and instance id Edge's metrics are labelled with. */
  config: Pick<ProxyConfig, 'serviceAppName' | 'serviceInstanceId'>
  sync: ProxySync
  /** Open `/api/client/streaming` connections (none in a cluster's primary). */
  streams?: () => number
  /** prom-client's process metrics (default true). */
  processMetrics?: boolean
}

const DROP_REASONS = {
  unknownFlags: 'unknown_flag',
  registrations: 'registration',
  unattributed: 'unattributed',
} as const

export function createPrometheusExporter({
  config,
  sync,
  streams = () => 0,
  processMetrics = true,
}: PrometheusReadings): PrometheusExporter {
  const registry = new Registry()
  const identity = identityLabels(config)
  new Gauge({
    name: 'last_metrics_update_epoch_timestamp_ms',
    help: 'An epoch timestamp (in milliseconds) set to when our unleash-client last got an update from upstream Unleash',
    registers: [registry],
    aggregator: 'max',
    collect() {
      this.set(Math.max(0, ...servedFlags(sync).map((served) => served.current?.loadedAt ?? 0)))
    },
  })
  new Gauge({
    name: 'last_metrics_fetch_epoch_timestamp_ms',
    help: 'An epoch timestamp (in milliseconds) set to when our unleash-client last checked (regardless if there was an update or not)',
    registers: [registry],
    aggregator: 'max',
    collect() {
      this.set(sync.lastFetch)
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
      this.set(servedFlags(sync).reduce((sum, served) => sum + (served.current?.engine.size ?? 0), 0))
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
      const drops = usageDrops(sync)
      for (const [field, reason] of Object.entries(DROP_REASONS)) this.inc({ reason }, drops[field as keyof UsageDrops])
    },
  })
  // After the old proxy's three, which a scrape lists first (docs/old-proxy-compatibility.md).
  if (processMetrics) collectDefaultMetrics({ register: registry })
  registerProxyGauges(registry, {
    tokenTypes: () => sync.tokens.tokens().map((token) => token.type),
    invalidTokens: () => sync.tokens.invalidCount,
    streams,
    scopeSyncs: () =>
      sync.scopes.syncs.map(({ scope, lastFetch }) => ({
        environment: scope.environment,
        projects: scope.projects,
        lastFetch,
      })),
    upstreamCalls: sync.upstreamCalls,
  })
  registerEdgeUpstreamMetrics(registry, sync.upstreamCalls, identity)
  return {
    registry,
    requestMetrics: createRequestMetrics(registry, identity),
    upstreamFetch: (result) => fetches.inc({ result }),
    responseCache: (result) => void cacheCounts[result]++,
  }
}

/** The drops of every aggregator the proxy counts in: the static scope's and each token scope's. */
function usageDrops(sync: {
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
