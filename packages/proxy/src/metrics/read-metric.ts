// A metric prom-client reads from the proxy's own numbers when scraped: for what is counted on
// the hot path in plain numbers (request durations), where a prom-client metric would hash its
// labels on every request. Registered like any other, so a registry's text and JSON (and the
// cluster's aggregation, by `aggregator`) treat it alike.
import type { Registry } from 'prom-client'

export interface MetricJson {
  name: string
  help: string
  type: 'counter' | 'gauge' | 'histogram'
  aggregator: 'sum' | 'max' | 'min'
  values: Array<{ metricName?: string; labels: Record<string, string | number>; value: number }>
}

/** A status code as a label: one of the 500 codes from 100 to 599 whatever a peer sends, so the label set stays closed. */
export function closedStatusCode(status: number): number {
  return Math.min(Math.max(status, 100), 599)
}

export function registerReadMetric(
  registry: Registry,
  metric: Omit<MetricJson, 'values'> & { values(): MetricJson['values'] },
): void {
  const { values, ...description } = metric
  registry.registerMetric({
    ...description,
    get: async () => ({ ...description, values: values() }),
    reset: () => undefined,
  } as unknown as Parameters<Registry['registerMetric']>[0])
}
