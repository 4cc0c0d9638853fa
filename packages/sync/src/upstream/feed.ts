// Keeps a target's flags in step with the upstream by its stream when it offers one (the Vexil
// service and proxy, Unleash Enterprise, Edge with streaming), else by polling (poller.ts). A
// change then arrives within milliseconds instead of at the next poll.
//
// - The stream's `unleash-connected` and `unleash-updated` messages (a hydration or delta events)
//   are offered to the target in the order they arrive; the last message id is kept.
// - The upstream has no stream (404, 405, 501, a 200 that is not an event stream, or
//   `fetch-mode: polling`): poll, for good. So too for 401/403: Edge's open-source build answers
//   403 to every stream, and the poller is the one that judges the token.
// - The stream fails or drops (network, 5xx, 429, 60 s without a byte): poll meanwhile, so flags
//   never go stale, and reconnect with backoff (1 s doubling to 30 s) sending Last-Event-ID, so
//   the upstream sends what was missed, in order; polling stops once the stream is back (an
//   answer still in flight is dropped, never applied over newer changes).
// - An unreadable message: reconnect without Last-Event-ID, for a fresh hydration.
import type { SyncLogger } from '../logger.js'
import type { StreamEvent } from '../event-stream-parser.js'
import { systemTimers, type TimerHandle } from '../timers.js'
import { messageOf } from './answers.js'
import { StreamClosedError } from './http.js'
import { createPoller, type Poller, type PollerOptions } from './poller.js'
import type { SyncOutcome } from './sync-target.js'

export interface FeedOptions extends PollerOptions {
  /** Use the upstream's stream when it offers one; false: always poll. */
  streaming: boolean
  /** Where the stream's comings and goings are logged; default `logger`. */
  streamLogger?: SyncLogger
}

const RECONNECT_MS = { first: 1_000, max: 30_000 }
const NO_STREAM = new Set([401, 403, 404, 405, 501])
const STOPPED: SyncOutcome = { ok: false, status: undefined, message: 'syncing was stopped' }

export function createFeed(options: FeedOptions): Poller {
  if (!options.streaming) return createPoller(options)
  const { upstream, flags } = options
  const logger = options.streamLogger ?? options.logger
  let poller: Poller | undefined
  /** The current poller's first poll. */
  let polled: Promise<SyncOutcome> | undefined
  let polledAt = 0
  let streamedAt = 0
  let close: (() => void) | undefined
  let lastEventId: string | undefined
  let connected = false
  let unsupported = false
  let stopped = false
  let delay = RECONNECT_MS.first
  /** Set when the feed itself closes the stream to open a fresh one. */
  let restart: string | undefined
  const timers = options.timers ?? systemTimers
  let retry: TimerHandle | undefined
  let settle: (outcome: SyncOutcome) => void = () => undefined
  const first = new Promise<SyncOutcome>((resolve) => (settle = resolve))

  /** Polls until the stream is back; resolves with the first poll's outcome. */
  function startPolling(): Promise<SyncOutcome> {
    if (stopped) return Promise.resolve(STOPPED)
    if (!poller) {
      poller = createPoller(options)
      polled = poller.start()
    }
    return polled ?? Promise.resolve(STOPPED)
  }

  function stopPolling(): void {
    if (!poller) return
    polledAt = Math.max(polledAt, poller.lastFetch)
    poller.stop()
    poller = undefined
  }

  function reconnectLater(why: string): void {
    if (stopped || unsupported || retry) return
    logger?.warn(`The upstream's stream ${why}; polling meanwhile, reconnecting in ${delay} ms`)
    retry = timers.set(() => {
      retry = undefined
      connect()
    }, delay)
    delay = Math.min(delay * 2, RECONNECT_MS.max)
  }

  function onEvent(event: StreamEvent): void {
    if (event.event === 'fetch-mode' && event.data.trim() === 'polling') {
      // The upstream asks its clients to poll instead (Unleash's hint).
      unsupported = true
      logger?.info('The upstream asked its clients to poll instead of streaming; polling')
      close?.()
      return
    }
    if (event.event !== 'unleash-connected' && event.event !== 'unleash-updated') return
    let payload: unknown
    try {
      payload = JSON.parse(event.data)
    } catch {
      payload = undefined
    }
    const { events, features } = (payload ?? {}) as { events?: unknown; features?: unknown }
    if (!Array.isArray(events) && !Array.isArray(features)) {
      logger?.error(
        `The upstream's stream sent a "${event.event}" message that is not a client features payload; reconnecting for a fresh hydration`,
      )
      lastEventId = undefined
      restart = 'sent an unreadable message'
      close?.()
      return
    }
    if (!Array.isArray(events) || events.length > 0) flags.offer({ payload, source: 'upstream' })
    if (event.id !== undefined && event.id !== '') lastEventId = event.id
    streamedAt = Date.now()
    options.onFetch?.(Array.isArray(events) && events.length === 0 ? 'unchanged' : 'updated')
    if (!connected) {
      connected = true
      delay = RECONNECT_MS.first
      stopPolling()
      logger?.info('Streaming flag changes from the upstream')
      options.onOutcome?.({ ok: true })
      settle({ ok: true })
    }
  }

  function connect(): void {
    if (stopped) return
    let status = 0
    close = upstream.openStream(lastEventId, {
      onOpen(code) {
        status = code
      },
      onEvent,
      onActivity() {
        if (connected) streamedAt = Date.now()
      },
      onClose(error) {
        close = undefined
        const wasConnected = connected
        connected = false
        if (stopped) return
        if (restart) {
          void startPolling()
          reconnectLater(restart)
          restart = undefined
          return
        }
        if (NO_STREAM.has(status) || (status === 200 && !error && !wasConnected && !unsupported)) {
          unsupported = true
          logger?.info(`The upstream offers no stream (${status}); polling every ${options.refreshInterval} ms`)
        }
        void startPolling().then(settle)
        if (unsupported) return
        options.onFetch?.('failed')
        reconnectLater(
          error instanceof StreamClosedError
            ? error.message
            : error
              ? `failed (${messageOf(error)})`
              : status === 200
                ? 'closed'
                : `was refused (${status})`,
        )
      },
    })
  }

  return {
    poll: () => poller?.poll() ?? Promise.resolve({ ok: true }),
    start() {
      connect()
      return first
    },
    stop() {
      stopped = true
      if (retry) timers.clear(retry)
      close?.()
      stopPolling()
      settle(STOPPED)
    },
    get lastFetch() {
      return Math.max(streamedAt, polledAt, poller?.lastFetch ?? 0)
    },
  }
}
