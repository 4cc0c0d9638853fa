// Edge's request histogram, `http_server_duration_milliseconds{method, endpoint, status}`, fed by a
// RequestObserver (http/request-observer.ts). Every label comes from a closed set, whatever callers
// send: the endpoint is the declared route template (`/{unknown}` when none matched, as Edge names
// its 404s), the method one of the methods routes declare or OTHER, the status the code the proxy
// sent (as Edge labels it; at most the 500 codes from 100 to 599).
// Counted in plain numbers, one series found by two map lookups and an index: no label hashing
// and no allocation per request; prom-client reads the series when scraped.
import type { Registry } from 'prom-client'
import type { RequestObserver } from '../http/request-observer.js'
import { type MetricJson, registerReadMetric } from './read-metric.js'

/** Edge's buckets, in milliseconds. */
export const DURATION_BUCKETS_MS = [0.1, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000]
export const UNKNOWN_ENDPOINT = '/{unknown}'
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

interface Series {
  labels: { method: string; endpoint: string; status: string }
  /** Observations per bucket (not cumulative); the last is past every bound. */
  buckets: number[]
  sum: number
  count: number
}

export function createRequestDuration(registry: Registry): RequestObserver {
  /** endpoint -> method -> status code -> series */
  const series = new Map<string, Map<string, Array<Series | undefined>>>()

  function seriesFor(endpoint: string, method: string, status: number): Series {
    let byMethod = series.get(endpoint)
    if (!byMethod) series.set(endpoint, (byMethod = new Map()))
    let byStatus = byMethod.get(method)
    if (!byStatus) byMethod.set(method, (byStatus = []))
    return (byStatus[status] ??= {
      labels: { method, endpoint, status: String(status) },
      buckets: new Array<number>(DURATION_BUCKETS_MS.length + 1).fill(0),
      sum: 0,
      count: 0,
    })
  }

  registerReadMetric(registry, {
    name: 'http_server_duration_milliseconds',
    help: 'HTTP request latencies in milliseconds, by route template, method and status code',
    type: 'histogram',
    aggregator: 'sum',
    values: () => {
      const values: MetricJson['values'] = []
      for (const byMethod of series.values())
        for (const byStatus of byMethod.values())
          for (const one of byStatus) if (one) values.push(...histogramValues(one))
      return values
    },
  })

  return ({ method, route, status, durationMs }) => {
    const code = Math.min(Math.max(status, 100), 599)
    const one = seriesFor(route ?? UNKNOWN_ENDPOINT, METHODS.has(method) ? method : 'OTHER', code)
    let bucket = 0
    while (bucket < DURATION_BUCKETS_MS.length && durationMs > DURATION_BUCKETS_MS[bucket]!) bucket++
    one.buckets[bucket]!++
    one.sum += durationMs
    one.count++
  }
}

// --- Internal helpers ---

/** A series in prom-client's form: cumulative `_bucket`s with `le`, then `_sum` and `_count`. */
function histogramValues(one: Series): MetricJson['values'] {
  const values: MetricJson['values'] = []
  let cumulative = 0
  DURATION_BUCKETS_MS.forEach((bound, index) => {
    cumulative += one.buckets[index]!
    values.push({
      metricName: 'http_server_duration_milliseconds_bucket',
      labels: { ...one.labels, le: bound },
      value: cumulative,
    })
  })
  values.push({
    metricName: 'http_server_duration_milliseconds_bucket',
    labels: { ...one.labels, le: '+Inf' },
    value: one.count,
  })
  values.push({ metricName: 'http_server_duration_milliseconds_sum', labels: one.labels, value: one.sum })
  values.push({ metricName: 'http_server_duration_milliseconds_count', labels: one.labels, value: one.count })
  return values
}
