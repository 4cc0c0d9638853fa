// Keeps the flags in step with the upstream (docs/old-proxy-compatibility.md section 5.1, with the
// improvements of its section 0): poll every refreshInterval with If-None-Match (a 304 costs no
// recompile); back off on 404/429/5xx and network errors, honouring Retry-After; on 401/403
// keep serving the last good configuration, log an error, and retry at the longest backoff
// instead of stopping for good (a token scope's sync is told instead, `onRefused`). A good payload is offered to the scope's flags, which decide.
import type { Logger } from '../logger.js'
import type { ScopeFlags } from '../scope/scope-flags.js'
import type { HttpResponse } from './http-client.js'
import { systemTimers, type TimerHandle, type Timers } from '@vexil/sync'
import type { Upstream } from './upstream.js'

export interface PollerOptions {
  upstream: Upstream
  /** Takes each payload; its current set's ETag is the next poll's If-None-Match. */
  flags: ScopeFlags
  logger: Logger
  refreshInterval: number
  /** Called after every poll: the outcome, for Prometheus. */
  onFetch?: (result: 'updated' | 'unchanged' | 'failed') => void
  /**
   * The upstream answered 401/403: the token is no longer allowed to read flags. A token scope's
   * sync stops serving on it (scope/token-scopes.ts); unset, the last good flags keep being served.
   */
  onRefused?: (status: number) => void
  /** Default: the runtime's setTimeout. */
  timers?: Timers
}

export interface Poller {
  /** Fetches now (the first fetch happens on start); resolves when that fetch is handled. */
  poll(): Promise<void>
  start(): Promise<void>
  stop(): void
  /** Epoch ms of the last successful fetch (200 with a payload, or 304). */
  readonly lastFetch: number
}

const MAX_FAILURES = 10
/** With refreshInterval 0 (no periodic polling) failures still retry on this base. */
const RETRY_BASE_WITHOUT_POLLING = 5000

/** Retry-After in ms: delta-seconds or an HTTP date; undefined when absent or unparseable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header
  if (!value) return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

function isPayload(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false
  const payload = value as { features?: unknown; events?: unknown }
  return Array.isArray(payload.features) || Array.isArray(payload.events)
}

export function createPoller(options: PollerOptions): Poller {
  const { upstream, flags, logger, refreshInterval } = options
  const timers = options.timers ?? systemTimers
  const base = refreshInterval > 0 ? refreshInterval : RETRY_BASE_WITHOUT_POLLING
  let failures = 0
  let lastFetch = 0
  let timer: TimerHandle | undefined
  let stopped = false
  let upstreamAnswered = false
  let inFlight: Promise<void> | undefined

  const schedule = (delay: number) => {
    if (stopped) return
    if (refreshInterval <= 0 && upstreamAnswered) return
    timer = timers.set(() => {
      timer = undefined
      return poll()
    }, delay)
  }

  const backoff = () => base * (1 + failures)

  async function handle(res: HttpResponse): Promise<number> {
    if (res.status === 304) {
      lastFetch = Date.now()
      failures = Math.max(failures - 1, 0)
      options.onFetch?.('unchanged')
      return base
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
        logger.error(`The upstream answered ${res.status} with a body that is not a client features payload; keeping the current flags`)
        options.onFetch?.('failed')
        return backoff()
      }
      // Stopped while the request was out (the stream took over): an older answer must not
      // replace what the stream has applied since.
      if (stopped) return base
      const header = res.headers.etag
      flags.offer({ payload, source: 'upstream', etag: typeof header === 'string' ? header : undefined })
      upstreamAnswered = true
      lastFetch = Date.now()
      failures = Math.max(failures - 1, 0)
      options.onFetch?.('updated')
      return base
    }
    options.onFetch?.('failed')
    if (res.status === 401 || res.status === 403) {
      failures = MAX_FAILURES
      if (options.onRefused) {
        logger.error(`The upstream answered ${res.status}: the API token is not allowed to read flags; retrying every ${backoff()} ms.`)
        options.onRefused(res.status)
        return backoff()
      }
      logger.error(
        `The upstream answered ${res.status}: the API token is not allowed to read flags. Serving the last good configuration; retrying every ${backoff()} ms.`,
      )
      return backoff()
    }
    failures = Math.min(failures + 1, MAX_FAILURES)
    const delay = Math.max(backoff(), retryAfterMs(res.headers['retry-after']) ?? 0)
    logger.warn(`The upstream answered ${res.status} when fetching flags; next attempt in ${delay} ms`)
    return delay
  }

  async function fetchOnce(): Promise<void> {
    let delay: number
    try {
      delay = await handle(await upstream.fetchFeatures(flags.current?.etag))
    } catch (error) {
      failures = Math.min(failures + 1, MAX_FAILURES)
      delay = backoff()
      options.onFetch?.('failed')
      logger.error(`Fetching flags from the upstream failed (${error instanceof Error ? error.message : String(error)}); next attempt in ${delay} ms`)
    }
    schedule(delay)
  }

  function poll(): Promise<void> {
    if (timer) timers.clear(timer)
    timer = undefined
    inFlight ??= fetchOnce().finally(() => {
      inFlight = undefined
    })
    return inFlight
  }

  return {
    poll,
    async start() {
      await poll()
    },
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
