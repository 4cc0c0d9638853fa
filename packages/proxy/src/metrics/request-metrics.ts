// Edge's request metrics, fed by one RequestObserver (@vexil/server-kit's request-observer.ts):
// `http_server_duration_milliseconds` and `http_requests_total{method, endpoint, status}` and
// `http_response_size{method, endpoint}`, each with Edge's `app_name` and `instance_id`. Every label
// comes from a closed set, whatever callers send: the endpoint is the declared route template
// (`/{unknown}` when none matched, as Edge names its 404s), the method one of the methods routes
// declare or OTHER, the status the code the proxy sent (as Edge labels it; at most the 500 codes
// from 100 to 599). The response size is the `content-length` the answer was sent with
// (response-size.ts).
// Counted in plain numbers, one series found by two map lookups and an index: no label hashing
// and no allocation per request; prom-client reads the series when scraped. The request counter
// is the duration histogram's count; the sizes are kept per status and summed when scraped.
import type { Registry } from 'prom-client'
import type { RequestObserver } from '@vexil/server-kit'
import { addHistogram, createHistogram, type Histogram, histogramValues, observe } from './histogram.js'
import type { IdentityLabels } from './identity-labels.js'
import { closedStatusCode, type MetricJson, registerReadMetric } from './read-metric.js'
import { sentContentLength } from './response-size.js'

/** Edge's buckets, in milliseconds. */
export const DURATION_BUCKETS_MS = [0.1, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000]
/** Edge's buckets, in bytes. */
export const SIZE_BUCKETS_BYTES = [5, 10, 100, 250, 500, 750, 1000, 2500, 5000, 10000, 25000, 50000, 100000]
export const UNKNOWN_ENDPOINT = '/{unknown}'
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

interface Series {
  /** method, endpoint, status, then Edge's app_name and instance_id. */
  labels: Record<string, string>
  duration: Histogram
  size: Histogram
}

export function createRequestMetrics(registry: Registry, identity: IdentityLabels): RequestObserver {
  /** endpoint -> method -> status code -> series */
  const series = new Map<string, Map<string, Array<Series | undefined>>>()

  function seriesFor(endpoint: string, method: string, status: number): Series {
    let byMethod = series.get(endpoint)
    if (!byMethod) series.set(endpoint, (byMethod = new Map()))
    let byStatus = byMethod.get(method)
    if (!byStatus) byMethod.set(method, (byStatus = []))
    return (byStatus[status] ??= {
      labels: { method, endpoint, status: String(status), ...identity },
      duration: createHistogram(DURATION_BUCKETS_MS),
      size: createHistogram(SIZE_BUCKETS_BYTES),
    })
  }

  const everySeries = function* (): Generator<Series> {
    for (const byMethod of series.values())
      for (const byStatus of byMethod.values()) for (const one of byStatus) if (one) yield one
  }

  registerReadMetric(registry, {
    name: 'http_server_duration_milliseconds',
    help: 'HTTP request latencies in milliseconds',
    type: 'histogram',
    aggregator: 'sum',
    values: () =>
      [...everySeries()].flatMap((one) =>
        histogramValues('http_server_duration_milliseconds', DURATION_BUCKETS_MS, one.labels, one.duration),
      ),
  })
  registerReadMetric(registry, {
    name: 'http_requests_total',
    help: 'Total number of HTTP requests',
    type: 'counter',
    aggregator: 'sum',
    values: () => [...everySeries()].map((one) => ({ labels: one.labels, value: one.duration.count })),
  })
  registerReadMetric(registry, {
    name: 'http_response_size',
    help: 'Size of HTTP response bodies in bytes',
    type: 'histogram',
    aggregator: 'sum',
    values: () => {
      const values: MetricJson['values'] = []
      for (const [endpoint, byMethod] of series)
        for (const [method, byStatus] of byMethod) {
          const size = createHistogram(SIZE_BUCKETS_BYTES)
          for (const one of byStatus) if (one) addHistogram(size, one.size)
          values.push(
            ...histogramValues('http_response_size', SIZE_BUCKETS_BYTES, { method, endpoint, ...identity }, size),
          )
        }
      return values
    },
  })

  return ({ method, route, status, durationMs }, event) => {
    const one = seriesFor(route ?? UNKNOWN_ENDPOINT, METHODS.has(method) ? method : 'OTHER', closedStatusCode(status))
    observe(one.duration, DURATION_BUCKETS_MS, durationMs)
    observe(one.size, SIZE_BUCKETS_BYTES, sentContentLength(event))
  }
}
