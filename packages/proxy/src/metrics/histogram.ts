// A histogram in plain numbers: observed with a few array increments, handed to prom-client's
// form only when scraped (read-metric.ts). Edge's bucket bounds are each metric's own.
import type { MetricJson } from './read-metric.js'

export interface Histogram {
  /** Observations per bucket (not cumulative); the last is past every bound. */
  readonly buckets: number[]
  sum: number
  count: number
}

export function createHistogram(bounds: readonly number[]): Histogram {
  return { buckets: new Array<number>(bounds.length + 1).fill(0), sum: 0, count: 0 }
}

export function observe(histogram: Histogram, bounds: readonly number[], value: number): void {
  let bucket = 0
  while (bucket < bounds.length && value > bounds[bucket]!) bucket++
  histogram.buckets[bucket]!++
  histogram.sum += value
  histogram.count++
}

/** Adds `from`'s observations to `into` (same bounds). */
export function addHistogram(into: Histogram, from: Histogram): void {
  from.buckets.forEach((count, bucket) => {
    into.buckets[bucket]! += count
  })
  into.sum += from.sum
  into.count += from.count
}

/** One series in prom-client's form: cumulative `_bucket`s with `le`, then `_sum` and `_count`. */
export function histogramValues(
  name: string,
  bounds: readonly number[],
  labels: Record<string, string>,
  histogram: Histogram,
): MetricJson['values'] {
  const values: MetricJson['values'] = []
  let cumulative = 0
  bounds.forEach((bound, index) => {
    cumulative += histogram.buckets[index]!
    values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: bound }, value: cumulative })
  })
  values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: histogram.count })
  values.push({ metricName: `${name}_sum`, labels, value: histogram.sum })
  values.push({ metricName: `${name}_count`, labels, value: histogram.count })
  return values
}
