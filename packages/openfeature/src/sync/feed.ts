// Keeps the flags in step with the upstream by its stream of changes when it offers one (the
// Vexil service and proxy, Unleash Enterprise, Edge with streaming), else by polling. The rules
// are the Vexil proxy's (packages/proxy/src/sync/feed.ts):
//
// - `unleash-connected` (a hydration, or what was missed after Last-Event-ID) and
//   `unleash-updated` (delta events) are applied in order; the last message id is kept.
// - No stream (404, 405, 501, a 200 that is not an event stream, or `fetch-mode: polling`): poll,
//   for good. So too for 401/403 (Edge's open-source build answers 403 to every stream): the
//   poller judges the token.
// - The stream fails or drops (network, 5xx, 429, 60 s without a byte): poll meanwhile, and
//   reconnect with backoff (1 s doubling to 30 s) sending Last-Event-ID; polling stops once the
//   stream is back.
// - An unreadable message: reconnect without Last-Event-ID, for a fresh hydration.
import { createEventStreamParser, type StreamEvent } from '@vexil/sync'
import { createPoller, type Poller, type PollerOptions } from './poller.js'
import { isPayload, messageOf, type SyncOutcome } from './sync-target.js'
import { discard } from './upstream.js'

export interface FeedOptions extends PollerOptions {
  streaming: boolean
  /** How long the stream's response headers may take, in ms (a request's timeout). */
  timeout: number
}

export interface Feed {
  /** Starts syncing; resolves with the outcome of the first attempt to get flags. */
  start(): Promise<SyncOutcome>
  stop(): void
}

const RECONNECT_MS = { first: 1_000, max: 30_000 }
/** A stream silent this long is dead: the Vexil service sends keep-alives every 15 s, Edge every 30 s. */
const READ_TIMEOUT_MS = 60_000
const NO_STREAM = new Set([401, 403, 404, 405, 501])

export function createFeed(options: FeedOptions): Feed {
  if (!options.streaming) return createPoller(options)
  const { upstream, target } = options
  let poller: Poller | undefined
  let polled: Promise<SyncOutcome> | undefined
  let abort: AbortController | undefined
  let retry: NodeJS.Timeout | undefined
  let lastEventId: string | undefined
  let delay = RECONNECT_MS.first
  let stopped = false
  let unsupported = false
  let settle: (outcome: SyncOutcome) => void = () => undefined
  const first = new Promise<SyncOutcome>((resolve) => (settle = resolve))

  function startPolling(): Promise<SyncOutcome> {
    if (!poller) {
      poller = createPoller(options)
      polled = poller.start()
    }
    return polled!
  }

  function stopPolling(): void {
    poller?.stop()
    poller = undefined
  }

  function reconnectLater(why: string): void {
    if (stopped || unsupported || retry) return
    target.warn(`The upstream's stream ${why}; polling meanwhile, reconnecting in ${delay} ms`)
    retry = setTimeout(() => {
      retry = undefined
      void connect()
    }, delay)
    retry.unref()
    delay = Math.min(delay * 2, RECONNECT_MS.max)
  }

  /** Handles one message; returns why the stream must be reopened afresh, if it must. */
  function onMessage(message: StreamEvent, connected: () => void): string | undefined {
    if (message.event === 'fetch-mode' && message.data.trim() === 'polling') {
      unsupported = true
      return 'asked its clients to poll instead'
    }
    if (message.event !== 'unleash-connected' && message.event !== 'unleash-updated') return undefined
    let payload: unknown
    try {
      payload = JSON.parse(message.data)
    } catch {
      payload = undefined
    }
    if (!isPayload(payload)) {
      lastEventId = undefined
      return `sent a "${message.event}" message that is not a client features payload`
    }
    target.apply(payload)
    if (message.id !== undefined && message.id !== '') lastEventId = message.id
    connected()
    return undefined
  }

  async function connect(): Promise<void> {
    if (stopped) return
    const controller = new AbortController()
    abort = controller
    let response: Response
    const connecting = setTimeout(() => controller.abort(), options.timeout)
    connecting.unref()
    try {
      response = await upstream.openStream(lastEventId, controller.signal)
    } catch (error) {
      closed(undefined, stopped ? undefined : controller.signal.aborted ? `did not answer within ${options.timeout} ms` : messageOf(error))
      return
    } finally {
      clearTimeout(connecting)
    }
    const type = response.headers.get('content-type') ?? ''
    if (response.status !== 200 || !type.startsWith('text/event-stream') || !response.body) {
      void discard(response)
      closed(response.status, undefined)
      return
    }
    let wasConnected = false
    let reopen: string | undefined
    const connected = () => {
      if (wasConnected) return
      wasConnected = true
      delay = RECONNECT_MS.first
      stopPolling()
      target.report({ ok: true })
      settle({ ok: true })
    }
    const parse = createEventStreamParser((message) => {
      reopen ??= onMessage(message, connected)
      if (reopen) controller.abort()
    })
    let silence = setTimeout(() => controller.abort(), READ_TIMEOUT_MS)
    silence.unref()
    let error: string | undefined
    try {
      const reader = response.body.getReader()
      const decoder = new TextDecoder()
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        clearTimeout(silence)
        silence = setTimeout(() => controller.abort(), READ_TIMEOUT_MS)
        silence.unref()
        parse(decoder.decode(read.value, { stream: true }))
      }
      error = 'was ended by the upstream'
    } catch (thrown) {
      error = controller.signal.aborted ? `had no data for ${READ_TIMEOUT_MS} ms` : `failed (${messageOf(thrown)})`
    } finally {
      clearTimeout(silence)
    }
    closed(200, reopen ?? error, wasConnected)
  }

  /** The stream is over: decide between polling for good and polling until it is back. */
  function closed(status: number | undefined, why: string | undefined, wasConnected = false): void {
    abort = undefined
    if (stopped) return
    if (unsupported || (status !== undefined && NO_STREAM.has(status)) || (status === 200 && !wasConnected && why === undefined)) {
      unsupported = true
      void startPolling().then(settle)
      return
    }
    void startPolling().then((outcome) => {
      // A first poll that fails while the stream is being retried: initialization has its answer.
      settle(outcome)
    })
    reconnectLater(why ?? `was refused (${status})`)
  }

  return {
    start() {
      void connect()
      return first
    },
    stop() {
      stopped = true
      clearTimeout(retry)
      abort?.abort()
      stopPolling()
      settle({ ok: false, status: undefined, message: 'the provider was closed' })
    },
  }
}
