// Sends the usage counts to `POST {url}/client/metrics` every metricsInterval, as Unleash server
// SDKs do. A bucket that cannot be sent is added back, so the next one carries its counts; the
// timer never keeps the process alive; `stop` sends what is left.
import type { Logger } from '@openfeature/server-sdk'
import { discard, type Upstream } from './sync/upstream.js'
import { bucketBody, type UsageCounter } from './usage-counter.js'
import { messageOf } from './sync/sync-target.js'

export interface MetricsReporter {
  start(): void
  /** Sends the counts now (an empty bucket is not sent); resolves when done, never rejects. */
  send(): Promise<void>
  /** Stops the timer and sends what is left. */
  stop(): Promise<void>
}

export function createMetricsReporter(counter: UsageCounter, upstream: Upstream, interval: number, logger: Logger): MetricsReporter {
  let timer: NodeJS.Timeout | undefined
  let sending: Promise<void> | undefined

  async function sendOnce(): Promise<void> {
    const bucket = counter.take()
    if (bucket.toggles.size === 0) return
    try {
      const response = await upstream.sendMetrics(bucketBody(bucket, new Date()))
      const text = await discard(response)
      if (!response.ok) {
        counter.restore(bucket)
        logger.warn(`VexilProvider: the upstream answered ${response.status} to metrics; keeping the counts for the next attempt${text ? ` (${text.slice(0, 200)})` : ''}`)
      }
    } catch (error) {
      counter.restore(bucket)
      logger.warn(`VexilProvider: sending metrics failed (${messageOf(error)}); keeping the counts for the next attempt`)
    }
  }

  /** One send at a time: a send asked for during another waits for it, then sends. */
  function send(): Promise<void> {
    const next = (sending ?? Promise.resolve()).then(sendOnce)
    sending = next
    return next
  }

  return {
    start() {
      if (interval <= 0 || timer) return
      timer = setInterval(() => void send(), interval)
      timer.unref()
    },
    send,
    async stop() {
      clearInterval(timer)
      timer = undefined
      await send()
    },
  }
}
