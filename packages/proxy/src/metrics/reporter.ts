// Registration and periodic metrics to the upstream: every metricsInterval plus up to
// metricsJitter ms. A failed send keeps its counts for the next one (the old proxy lost them on
// most errors and stopped for good on 401/403); flush() sends what is left at shutdown.
import type { Logger } from '../logger.js'
import type { Upstream } from '../sync/upstream.js'
import type { MetricsAggregator } from './aggregator.js'

export interface MetricsReporterOptions {
  upstream: Upstream
  aggregator: MetricsAggregator
  logger: Logger
  interval: number
  jitter: number
  random?: () => number
}

export interface MetricsReporter {
  start(): void
  /** Sends the pending counts now; resolves when done (or failed and kept). */
  flush(): Promise<void>
  stop(): void
}

const MAX_FAILURES = 10

export function createMetricsReporter(options: MetricsReporterOptions): MetricsReporter {
  const { upstream, aggregator, logger, interval, jitter } = options
  const random = options.random ?? Math.random
  let timer: NodeJS.Timeout | undefined
  let failures = 0
  let registered = false
  let registering: Promise<void> | undefined
  let stopped = false
  let sending: Promise<void> | undefined

  const schedule = () => {
    if (stopped || interval <= 0) return
    const delay = interval * (1 + failures) + Math.floor(random() * jitter)
    timer = setTimeout(tick, delay)
  }

  async function register(): Promise<void> {
    try {
      const res = await upstream.register()
      if (res.status >= 200 && res.status < 300) {
        registered = true
        return
      }
      logger.warn(`Registering with the upstream failed with status ${res.status}; retrying with the next metrics send`)
    } catch (error) {
      logger.warn('Registering with the upstream failed; retrying with the next metrics send', error)
    }
  }

  const ensureRegistered = (): Promise<void> =>
    registered
      ? Promise.resolve()
      : (registering ??= register().finally(() => {
          registering = undefined
        }))

  async function send(): Promise<void> {
    await ensureRegistered()
    const bucket = aggregator.take(new Date())
    if (!bucket) return
    try {
      const res = await upstream.sendMetrics(bucket)
      if (res.status >= 200 && res.status < 300) {
        failures = Math.max(failures - 1, 0)
        return
      }
      aggregator.restore(bucket)
      failures = Math.min(failures + 1, MAX_FAILURES)
      if (res.status === 401 || res.status === 403) {
        logger.error(`The upstream refused the metrics with status ${res.status}: check SERVICE_API_TOKEN. The counts are kept and sent again later.`)
        failures = MAX_FAILURES
      } else {
        logger.warn(`Sending metrics failed with status ${res.status}; the counts are kept for the next send`)
      }
    } catch (error) {
      aggregator.restore(bucket)
      failures = Math.min(failures + 1, MAX_FAILURES)
      logger.warn('Sending metrics failed; the counts are kept for the next send', error)
    }
  }

  const sendOnce = (): Promise<void> => {
    sending ??= send().finally(() => {
      sending = undefined
    })
    return sending
  }

  function tick(): void {
    timer = undefined
    void sendOnce().finally(schedule)
  }

  return {
    start() {
      if (interval <= 0) return
      void ensureRegistered()
      schedule()
    },
    async flush() {
      if (interval <= 0) return
      await sending
      await sendOnce()
    },
    stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      timer = undefined
    },
  }
}
