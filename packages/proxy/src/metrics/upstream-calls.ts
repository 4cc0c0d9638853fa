// The upstream calls made, in plain numbers (@vexil/sync's client and the proxy's /edge/validate
// tell them as they end): by kind and outcome, and for Edge's names (edge-upstream-metrics.ts) the
// answered calls' durations and failures by status code. Prometheus reads them when scraped.
import type { UpstreamCallKind, UpstreamCallObserver, UpstreamOutcome } from '@vexil/sync'
import { createHistogram, type Histogram, observe } from './histogram.js'
import { closedStatusCode } from './read-metric.js'

export const UPSTREAM_CALL_KINDS: readonly UpstreamCallKind[] = [
  'features',
  'validation',
  'metrics',
  'streaming',
  'register',
]
export const UPSTREAM_OUTCOMES: readonly UpstreamOutcome[] = [
  'ok',
  'not_modified',
  'client_error',
  'server_error',
  'network_error',
]
/** Edge's buckets for its upstream timings, in milliseconds. */
export const UPSTREAM_BUCKETS_MS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000]

export interface UpstreamCalls {
  readonly observe: UpstreamCallObserver
  /** How many calls of `kind` ended with `outcome` since start. */
  count(kind: UpstreamCallKind, outcome: UpstreamOutcome): number
  /** The durations of the answered calls of `kind`, by status code. */
  timings(kind: UpstreamCallKind): ReadonlyMap<number, Histogram>
  /** The answered calls of `kind` that failed (a 4xx or 5xx), by status code. */
  failures(kind: UpstreamCallKind): ReadonlyMap<number, number>
}

export function createUpstreamCalls(): UpstreamCalls {
  const byKind = <T>(value: () => T) =>
    Object.fromEntries(UPSTREAM_CALL_KINDS.map((kind) => [kind, value()])) as Record<UpstreamCallKind, T>
  const counts = byKind(
    () => Object.fromEntries(UPSTREAM_OUTCOMES.map((outcome) => [outcome, 0])) as Record<UpstreamOutcome, number>,
  )
  const timings = byKind(() => new Map<number, Histogram>())
  const failures = byKind(() => new Map<number, number>())
  return {
    observe(kind, outcome, status, durationMs) {
      counts[kind][outcome]++
      if (status === undefined) return
      const code = closedStatusCode(status)
      let timing = timings[kind].get(code)
      if (!timing) timings[kind].set(code, (timing = createHistogram(UPSTREAM_BUCKETS_MS)))
      observe(timing, UPSTREAM_BUCKETS_MS, durationMs)
      if (outcome === 'client_error' || outcome === 'server_error')
        failures[kind].set(code, (failures[kind].get(code) ?? 0) + 1)
    },
    count: (kind, outcome) => counts[kind][outcome],
    timings: (kind) => timings[kind],
    failures: (kind) => failures[kind],
  }
}
