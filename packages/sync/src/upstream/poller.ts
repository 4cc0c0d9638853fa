// Polls `GET {api}/client/features` every refreshInterval with If-None-Match (a 304 costs no
// recompile); backs off on 404/429/5xx and network errors, honouring Retry-After; on 401/403
// keeps serving the last good flags and retries at the longest backoff instead of stopping for
// good (a proxy's token scope is told instead, `onRefused`). A good payload is offered to the
// target, which decides; a failure never empties or changes what it holds.
import type { SyncLogger } from '../logger.js'
import { systemTimers, type TimerHandle, type Timers } from '../timers.js'
import { isPayload, messageOf, retryAfterMs } from './answers.js'
import type { UpstreamClient } from './client.js'
import type { HttpResponse } from './http.js'
import type { SyncOutcome, SyncTarget } from './sync-target.js'

export interface PollerOptions {
  upstream: Pick<UpstreamClient, 'fetchFeatures' | 'openStream'>
  /** Takes each payload; its current flags' ETag is the next poll's If-None-Match. */
  flags: SyncTarget
  refreshInterval: number
  /** Where each failed poll is logged; unset, failures are only reported (`onOutcome`). */
  logger?: SyncLogger
  /** What the upstream refuses with 401/403, in outcome messages. Default `the API token`. */
  credential?: string
  /** After every poll (and every stream message): the outcome, for Prometheus. */
  onFetch?: (result: 'updated' | 'unchanged' | 'failed') => void
  /** After every poll and once the stream is connected: the outcome, with what went wrong. */
  onOutcome?: (outcome: SyncOutcome) => void
  /**
   * The upstream answered 401/403: the token is no longer allowed to read flags. A proxy's token
   * scope stops serving on it; unset, the last good flags keep being served.
   */
  onRefused?: (status: number) => void
  /** Default: the runtime's setTimeout. */
  timers?: Timers
}

export interface Poller {
  /** Fetches now (the first fetch happens on start); resolves with that fetch's outcome. */
  poll(): Promise<SyncOutcome>
  start(): Promise<SyncOutcome>
  stop(): void
  /** Epoch ms of the last successful fetch (200 with a payload, or 304). */
  readonly lastFetch: number
}

const MAX_FAILURES = 10
/** With refreshInterval 0 (no periodic polling) failures still retry on this base. */
const RETRY_BASE_WITHOUT_POLLING = 5000
const OK: SyncOutcome = { ok: true }

export function createPoller(options: PollerOptions): Poller {
  const { upstream, flags, logger, refreshInterval, credential = 'the API token' } = options
  const timers = options.timers ?? systemTimers
  const base = refreshInterval > 0 ? refreshInterval : RETRY_BASE_WITHOUT_POLLING
  let failures = 0
  let lastFetch = 0
  let timer: TimerHandle | undefined
  let stopped = false
  let upstreamAnswered = false
  let inFlight: Promise<SyncOutcome> | undefined

  const schedule = (delay: number) => {
    if (stopped) return
    if (refreshInterval <= 0 && upstreamAnswered) return
    timer = timers.set(() => {
      timer = undefined
      return poll()
    }, delay)
  }

  const backoff = () => base * (1 + failures)
  const failed = (status: number | undefined, message: string): SyncOutcome => {
    options.onFetch?.('failed')
    return { ok: false, status, message }
  }
  const detail = (body: string) => (body ? `: ${body.slice(0, 200)}` : '')

  /** One answer: its outcome and the delay until the next poll. */
  function handle(res: HttpResponse): [SyncOutcome, number] {
    if (res.status === 304) {
      lastFetch = Date.now()
      failures = Math.max(failures - 1, 0)
      options.onFetch?.('unchanged')
      return [OK, base]
    }
    if (res.status >= 200 && res.status < 300) {
      let payload: unknown
      try {
        payload = JSON.parse(res.body)
      } catch {
        payload = undefined
      }
      if (!isPayload(payload)) {
        failures = Math.min(failures + 1, MAX_FAILURES)
        logger?.error(
          `The upstream answered ${res.status} with a body that is not a client features payload; keeping the current flags`,
        )
        return [
          failed(
            res.status,
            `the upstream answered ${res.status} with something that is not a client features payload`,
          ),
          backoff(),
        ]
      }
      // Stopped while the request was out (the stream took over): an older answer must not
      // replace what the stream has applied since.
      if (stopped) return [OK, base]
      const header = res.headers.etag
      flags.offer({
        payload,
        source: 'upstream',
        etag: typeof header === 'string' ? header : undefined,
        text: res.body,
      })
      upstreamAnswered = true
      lastFetch = Date.now()
      failures = Math.max(failures - 1, 0)
      options.onFetch?.('updated')
      return [OK, base]
    }
    if (res.status === 401 || res.status === 403) {
      failures = MAX_FAILURES
      const outcome = failed(res.status, `the upstream refused ${credential} (${res.status}${detail(res.body)})`)
      if (options.onRefused) {
        logger?.error(
          `The upstream answered ${res.status}: the API token is not allowed to read flags; retrying every ${backoff()} ms.`,
        )
        options.onRefused(res.status)
      } else {
        logger?.error(
          `The upstream answered ${res.status}: the API token is not allowed to read flags. Serving the last good configuration; retrying every ${backoff()} ms.`,
        )
      }
      return [outcome, backoff()]
    }
    failures = Math.min(failures + 1, MAX_FAILURES)
    const delay = Math.max(backoff(), retryAfterMs(res.headers['retry-after']) ?? 0)
    logger?.warn(`The upstream answered ${res.status} when fetching flags; next attempt in ${delay} ms`)
    return [failed(res.status, `the upstream answered ${res.status} when fetching flags${detail(res.body)}`), delay]
  }

  async function fetchOnce(): Promise<SyncOutcome> {
    let outcome: SyncOutcome
    let delay: number
    try {
      ;[outcome, delay] = handle(await upstream.fetchFeatures(flags.current?.etag))
    } catch (error) {
      failures = Math.min(failures + 1, MAX_FAILURES)
      delay = backoff()
      outcome = failed(undefined, `fetching flags from the upstream failed: ${messageOf(error)}`)
      logger?.error(`Fetching flags from the upstream failed (${messageOf(error)}); next attempt in ${delay} ms`)
    }
    if (!stopped) options.onOutcome?.(outcome)
    schedule(delay)
    return outcome
  }

  function poll(): Promise<SyncOutcome> {
    if (timer) timers.clear(timer)
    timer = undefined
    inFlight ??= fetchOnce().finally(() => {
      inFlight = undefined
    })
    return inFlight
  }

  return {
    poll,
    start: poll,
    stop() {
      stopped = true
      if (timer) timers.clear(timer)
      timer = undefined
    },
    get lastFetch() {
      return lastFetch
    },
  }
}
