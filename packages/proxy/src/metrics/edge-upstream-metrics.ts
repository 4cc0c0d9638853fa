// Edge's names for its upstream calls, read from the proxy's own counts (upstream-calls.ts) when
// scraped: `client_feature_fetch` and `client_metrics_upload` (histograms of the answered calls'
// durations, Edge's buckets) and the failure counts Edge registers as gauges and only ever
// increments (`client_feature_fetch_failures`, `token_validation_failures`,
// `client_register_failures`), each by `status_code` with `app_name` and `instance_id`.
// Edge labels only answered calls: a call with no answer (refused, reset, timed out) is in
// `vexil_proxy_upstream_requests_total{outcome="network_error"}` alone. Edge's
// `client_feature_delta_fetch` has no counterpart: the proxy does not fetch deltas.
// Only the process that calls the upstream has these series (a cluster's primary), so a
// WORKERS=N scrape's sum is that process's figures.
import type { UpstreamCallKind } from '@vexil/sync'
import type { Registry } from 'prom-client'
import { histogramValues } from './histogram.js'
import type { IdentityLabels } from './identity-labels.js'
import { registerReadMetric } from './read-metric.js'
import { UPSTREAM_BUCKETS_MS, type UpstreamCalls } from './upstream-calls.js'

const TIMINGS: ReadonlyArray<{ name: string; help: string; kind: UpstreamCallKind }> = [
  { name: 'client_feature_fetch', help: 'Timings for fetching features in milliseconds', kind: 'features' },
  { name: 'client_metrics_upload', help: 'Timings for uploading client metrics in milliseconds', kind: 'metrics' },
]

const FAILURES: ReadonlyArray<{ name: string; help: string; kind: UpstreamCallKind }> = [
  { name: 'client_feature_fetch_failures', help: 'Why we failed to fetch features', kind: 'features' },
  { name: 'token_validation_failures', help: 'Why we failed to validate tokens', kind: 'validation' },
  { name: 'client_register_failures', help: 'Why we failed to register upstream', kind: 'register' },
]

export function registerEdgeUpstreamMetrics(
  registry: Registry,
  calls: UpstreamCalls | undefined,
  identity: IdentityLabels,
): void {
  const labels = (status: number) => ({ status_code: String(status), ...identity })
  for (const { name, help, kind } of TIMINGS)
    registerReadMetric(registry, {
      name,
      help,
      type: 'histogram',
      aggregator: 'sum',
      values: () =>
        [...(calls?.timings(kind) ?? [])].flatMap(([status, timing]) =>
          histogramValues(name, UPSTREAM_BUCKETS_MS, labels(status), timing),
        ),
    })
  for (const { name, help, kind } of FAILURES)
    registerReadMetric(registry, {
      name,
      help,
      type: 'gauge',
      aggregator: 'sum',
      values: () =>
        [...(calls?.failures(kind) ?? [])].map(([status, count]) => ({ labels: labels(status), value: count })),
    })
}
