// Polls `GET {url}/client/features` every refreshInterval with If-None-Match (a 304 costs
// nothing). Failures back off exponentially up to 10x the interval (401/403 at once to 10x,
// Retry-After honoured), and the flags held keep being served meanwhile: a failure never empties
// or changes them.
import { discard, type Upstream } from './upstream.js'
import { isPayload, messageOf, type SyncOutcome, type SyncTarget } from './sync-target.js'

export interface PollerOptions {
  upstream: Upstream
  target: SyncTarget
  /** 0: no periodic polls once a fetch succeeded; failures still retry. */
  refreshInterval: number
}

export interface Poller {
  /** Polls now and from then on; resolves with the first poll's outcome. */
  start(): Promise<SyncOutcome>
  /** Stops polling; an answer still in flight is dropped, never applied. */
  stop(): void
}

const MAX_BACKOFF = 10
/** With refreshInterval 0 (no periodic polls), failures still retry on this base. */
const RETRY_BASE_WITHOUT_POLLING = 5_000

/** Retry-After in ms: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined
  if (/^\s*\d+\s*$/.test(value)) return Number(value.trim()) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

export function createPoller({ upstream, target, refreshInterval }: PollerOptions): Poller {
  const base = refreshInterval > 0 ? refreshInterval : RETRY_BASE_WITHOUT_POLLING
  let failures = 0
  let stopped = false
  let timer: NodeJS.Timeout | undefined

  const backoff = () => base * Math.min(2 ** failures, MAX_BACKOFF)

  /** One poll: its outcome and the delay until the next. */
  async function pollOnce(): Promise<[SyncOutcome, number | undefined]> {
    let response: Response
    try {
      response = await upstream.fetchFeatures(target.etag)
    } catch (error) {
      failures++
      return [{ ok: false, status: undefined, message: `fetching flags from the upstream failed: ${messageOf(error)}` }, backoff()]
    }
    const { status } = response
    if (status === 304) {
      await discard(response)
      failures = 0
      return [{ ok: true }, refreshInterval > 0 ? base : undefined]
    }
    if (status >= 200 && status < 300) {
      let text: string
      let payload: unknown
      try {
        text = await response.text()
        payload = JSON.parse(text)
      } catch (error) {
        failures++
        return [{ ok: false, status, message: `the upstream's flags could not be read (${messageOf(error)})` }, backoff()]
      }
      if (!isPayload(payload)) {
        failures++
        return [{ ok: false, status, message: `the upstream answered ${status} with something that is not a client features payload` }, backoff()]
      }
      // Stopped while the request was out (the stream took over): an older answer must not
      // replace what the stream has applied since.
      if (!stopped && text !== target.text) target.apply(payload, { etag: response.headers.get('etag') ?? undefined, text })
      failures = 0
      return [{ ok: true }, refreshInterval > 0 ? base : undefined]
    }
    const body = (await discard(response)).slice(0, 200)
    if (status === 401 || status === 403) {
      failures = MAX_BACKOFF
      return [{ ok: false, status, message: `the upstream refused the client key (${status}${body ? `: ${body}` : ''})` }, base * MAX_BACKOFF]
    }
    failures++
    const delay = Math.max(backoff(), retryAfterMs(response.headers.get('retry-after')) ?? 0)
    return [{ ok: false, status, message: `the upstream answered ${status} when fetching flags${body ? `: ${body}` : ''}` }, delay]
  }

  async function poll(): Promise<SyncOutcome> {
    const [outcome, next] = await pollOnce()
    if (stopped) return outcome
    target.report(outcome)
    if (next !== undefined) {
      timer = setTimeout(() => void poll(), next)
      timer.unref()
    }
    return outcome
  }

  return {
    start: poll,
    stop() {
      stopped = true
      clearTimeout(timer)
    },
  }
}
