// Registration and periodic usage metrics to the upstream: every metricsInterval plus up to
// metricsJitter ms, each bucket in parts under METRICS_SEND_LIMIT_BYTES. A part that fails to
// send for a passing reason keeps its counts for the next send (the old proxy lost them on most
// errors and stopped for good on 401/403); one the upstream refuses as such is dropped and
// logged (see send-outcome.ts). flush() sends what is left at shutdown. An upstream that takes
// bulk metrics gets every app's counts and registrations under their own names (bulk-body.ts);
// one that answers 404 to bulk (older than Unleash 5.9) gets them all as the proxy's own.
import type { SyncLogger } from '../logger.js'
import { systemTimers, type TimerHandle, type Timers } from '../timers.js'
import type { MetricsBucket, UsageBuckets } from './metrics-bucket.js'
import { flattenBucket } from './bulk-body.js'
import { sendOutcome } from './send-outcome.js'
import { splitBucket } from './split-bucket.js'

/** The two calls a reporter makes; only the answer's status is read. */
export interface UsageUpstream {
  register(): Promise<{ status: number }>
  sendMetrics(bucket: MetricsBucket): Promise<{ status: number }>
  /** `POST /client/metrics/bulk`, where the upstream client offers it. */
  sendBulk?(bucket: MetricsBucket): Promise<{ status: number }>
}

export interface UsageReporterOptions {
  upstream: UsageUpstream
  aggregator: UsageBuckets
  logger: SyncLogger
  /** What the upstream refused with 401/403, for the log line. Default: `the API token`. */
  credential?: string
  interval: number
  jitter: number
  /** Sends bulk metrics (every app behind a proxy) where the upstream client can; an SDK's own counts go plain. */
  perApp?: boolean
  random?: () => number
  /** Default: the runtime's setTimeout. */
  timers?: Timers
}

export interface UsageReporter {
  start(): void
  /** Sends the pending counts now; resolves when done (or failed and kept). */
  flush(): Promise<void>
  stop(): void
}

const MAX_FAILURES = 10
/** Well under the Vexil service's 1 MiB body limit (and the usual proxies' in front of an upstream). */
export const METRICS_SEND_LIMIT_BYTES = 256 * 1024
/** What the request adds around the bucket: appName, instanceId, connectionId, platform fields. */
const ENVELOPE_ALLOWANCE_BYTES = 8 * 1024

export function createUsageReporter(options: UsageReporterOptions): UsageReporter {
  const { upstream, aggregator, logger, interval, jitter, credential = 'the API token' } = options
  const random = options.random ?? Math.random
  const timers = options.timers ?? systemTimers
  let timer: TimerHandle | undefined
  let failures = 0
  let registered = false
  let registering: Promise<void> | undefined
  let stopped = false
  let sending: Promise<void> | undefined
  let bulk = options.perApp === true && upstream.sendBulk !== undefined

  const schedule = () => {
    if (stopped || interval <= 0) return
    const delay = interval * (1 + failures) + Math.floor(random() * jitter)
    timer = timers.set(tick, delay)
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
    const parts = splitBucket(bucket, METRICS_SEND_LIMIT_BYTES - ENVELOPE_ALLOWANCE_BYTES)
    for (const [i, part] of parts.entries()) {
      if (!(await sendPart(part))) {
        // Keep this part and the ones not tried yet: the upstream is likely to refuse them too now.
        for (const unsent of parts.slice(i)) aggregator.restore(unsent)
        return
      }
    }
  }

  /** Sends one part; false when its counts (and the rest's) should be kept for a later send. */
  async function sendPart(part: MetricsBucket): Promise<boolean> {
    let status: number
    try {
      status = await post(part)
    } catch (error) {
      failures = Math.min(failures + 1, MAX_FAILURES)
      logger.warn('Sending metrics failed; the counts are kept for the next send', error)
      return false
    }
    const flags = (part.apps ?? []).reduce(
      (n, app) => n + Object.keys(app.toggles).length,
      Object.keys(part.toggles).length,
    )
    switch (sendOutcome(status)) {
      case 'sent':
        failures = Math.max(failures - 1, 0)
        return true
      case 'drop':
        logger.error(
          `The upstream refused the metrics of ${flags} flags with status ${status}; they are dropped, as sending them again would be refused again`,
        )
        return true
      case 'retry-after-auth':
        failures = MAX_FAILURES
        logger.error(
          `The upstream refused the metrics with status ${status}: check ${credential}. The counts are kept and sent again later.`,
        )
        return false
      case 'retry':
        failures = Math.min(failures + 1, MAX_FAILURES)
        logger.warn(`Sending metrics failed with status ${status}; the counts are kept for the next send`)
        return false
    }
  }

  async function post(part: MetricsBucket): Promise<number> {
    if (bulk) {
      const { status } = await upstream.sendBulk!(part)
      if (status !== 404) return status
      bulk = false
      logger.info(
        'The upstream has no /client/metrics/bulk (older than Unleash 5.9): the apps behind the proxy are reported as the proxy itself from now on',
      )
    }
    return (await upstream.sendMetrics(flattenBucket(part))).status
  }

  const sendOnce = (): Promise<void> => {
    sending ??= send().finally(() => {
      sending = undefined
    })
    return sending
  }

  function tick(): Promise<void> {
    timer = undefined
    return sendOnce().finally(schedule)
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
      if (timer) timers.clear(timer)
      timer = undefined
    },
  }
}
