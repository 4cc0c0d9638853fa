// Keeps a scope's flags in step with the upstream by its stream when it offers one (the Vexil
// service, Unleash Enterprise, Edge with streaming), else by polling (sync/poller.ts). A change
// then arrives within milliseconds instead of at the next poll.
//
// - The stream's `unleash-connected` and `unleash-updated` messages (a hydration or delta events)
//   are offered to the scope's flags in the order they arrive; the last message id is kept.
// - The upstream has no stream (404, 405, 501, or a 200 that is not an event stream): poll, for good.
//   So too for 401/403: Edge's open-source build answers 403 to every stream, and the poller is
//   the one that judges the token (and says so when the upstream refuses it).
// - The stream fails or drops (network, 5xx, 429, 60 s without a byte): poll meanwhile,
//   so flags never go stale, and reconnect with backoff (1 s doubling to 30 s) sending
//   Last-Event-ID, so the upstream sends what was missed, in order; polling stops once the
//   stream is back (an answer still in flight is dropped, never applied over newer changes).
// - An unreadable message: reconnect without Last-Event-ID, for a fresh hydration.
import { type Poller, type PollerOptions, createPoller } from './poller.js'
import { systemTimers, type TimerHandle } from '@vexil/sync'
import type { StreamEvent } from '@vexil/sync'

export interface FeedOptions extends PollerOptions {
  /** STREAMING: use the upstream's stream when it offers one (default true). */
  streaming: boolean
}

const RECONNECT_MS = { first: 1_000, max: 30_000 }
const NO_STREAM = new Set([401, 403, 404, 405, 501])

export function createFeed(options: FeedOptions): Poller {
  if (!options.streaming) return createPoller(options)
  const { upstream, flags, logger } = options
  let poller: Poller | undefined
  let polledAt = 0
  let streamedAt = 0
  let close: (() => void) | undefined
  let lastEventId: string | undefined
  let connected = false
  let unsupported = false
  let stopped = false
  let delay = RECONNECT_MS.first
  /** Set when the proxy itself closes the stream to open a fresh one. */
  let restart: string | undefined
  const timers = options.timers ?? systemTimers
  let retry: TimerHandle | undefined
  let settle: () => void = () => undefined
  const first = new Promise<void>((resolve) => (settle = resolve))

  /** Polls until the stream is back; resolves when the first poll is handled. */
  function startPolling(): Promise<void> {
    if (stopped) return Promise.resolve()
    if (poller) return Promise.resolve()
    poller = createPoller(options)
    return poller.start()
  }

  function stopPolling(): void {
    if (!poller) return
    polledAt = Math.max(polledAt, poller.lastFetch)
    poller.stop()
    poller = undefined
  }

  function reconnectLater(why: string): void {
    if (stopped || unsupported || retry) return
    logger.warn(`The upstream's stream ${why}; polling meanwhile, reconnecting in ${delay} ms`)
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
      logger.info('The upstream asked its clients to poll instead of streaming; polling')
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
      logger.error(`The upstream's stream sent a "${event.event}" message that is not a client features payload; reconnecting for a fresh hydration`)
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
      logger.info('Streaming flag changes from the upstream')
      settle()
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
          logger.info(`The upstream offers no stream (${status}); polling every ${options.refreshInterval} ms`)
        }
        void startPolling().then(settle)
        if (unsupported) return
        options.onFetch?.('failed')
        reconnectLater(error ? `failed (${error.message})` : status === 200 ? 'closed' : `was refused (${status})`)
      },
    })
  }

  return {
    poll: () => poller?.poll() ?? Promise.resolve(),
    start() {
      connect()
      return first
    },
    stop() {
      stopped = true
      if (retry) timers.clear(retry)
      close?.()
      stopPolling()
    },
    get lastFetch() {
      return Math.max(streamedAt, polledAt, poller?.lastFetch ?? 0)
    },
  }
}
