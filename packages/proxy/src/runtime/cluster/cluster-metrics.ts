// The cluster-wide Prometheus scrape (WORKERS=N): a worker that is scraped asks the primary,
// which collects every worker's figures and its own (the upstream fetches are counted there) and
// combines them with prom-client's AggregatorRegistry.aggregate, each metric by its `aggregator`
// (prometheus.ts, metrics/): counters and histograms (Edge's request and upstream metrics among
// them) summed, open streams summed, what every process knows alike (tokens, timestamps) the
// largest, sync ages the smallest, so a scrape never depends on which worker answers it. Only the
// primary calls the upstream: its counts, timings and failures are the cluster's.
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue, type Registry } from 'prom-client'
import type { Logger } from '../../logger.js'
import type { Channel, PrimaryMessage } from './messages.js'

type MetricsJson = Array<MetricObjectWithValues<MetricValue<string>>>

const COLLECT_TIMEOUT_MS = 3_000

interface ClusterMetrics {
  /** Every process's figures, combined, in the exposition format. */
  scrape(): Promise<string>
  /** A worker's answer to `collect`. */
  collected(id: number, metrics: MetricsJson): void
}

export function createClusterMetrics(options: {
  local: Registry
  workers: () => Array<Channel<PrimaryMessage>>
  logger: Logger
}): ClusterMetrics {
  let nextId = 1
  const pending = new Map<number, (metrics: MetricsJson) => void>()

  async function collect(worker: Channel<PrimaryMessage>): Promise<MetricsJson | undefined> {
    const id = nextId++
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        pending.delete(id)
        resolve(undefined)
      }, COLLECT_TIMEOUT_MS)
      pending.set(id, (metrics) => {
        clearTimeout(timer)
        pending.delete(id)
        resolve(metrics)
      })
      worker.send({ vexil: 1, type: 'collect', id })
    })
  }

  return {
    async scrape() {
      const [own, ...others] = await Promise.all([options.local.getMetricsAsJSON(), ...options.workers().map(collect)])
      const answered = others.filter((metrics): metrics is MetricsJson => metrics !== undefined)
      if (answered.length < others.length)
        options.logger.warn(
          `${others.length - answered.length} worker(s) did not answer a Prometheus scrape in time: their figures are missing from it`,
        )
      return AggregatorRegistry.aggregate([own, ...answered]).metrics()
    },
    collected(id, metrics) {
      pending.get(id)?.(metrics)
    },
  }
}
