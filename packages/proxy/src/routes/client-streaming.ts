// Streaming for server SDKs, per token scope, as Unleash Enterprise and Edge serve it
// (reference/edge-and-frontend-api.md section 3) and as `unleash-client` 6.x reads it in
// `experimentalMode: { type: 'streaming' }`:
//
// - `GET /api/client/streaming`: server-sent events. `unleash-connected` first: `{"events":[]}`
//   when the client's Last-Event-ID names the flags it already has; the changes it missed when
//   the id is in the scope's recent history (client-stream-history.ts); else a hydration. Then one
//   `unleash-updated` with the delta events each time the caller's view of the flags changes;
//   a keep-alive comment every `STREAMING_KEEPALIVE_MS`. A stream ends when its token is revoked
//   or its scope changes upstream (the SDK reconnects and is judged again), and before the proxy
//   stops. Past STREAMING_MAX_CONNECTIONS: 429 with Retry-After, which sends the SDK to polling.
// - `GET /api/client/delta`: for SDKs polling deltas. `If-None-Match` naming the caller's flags:
//   304; otherwise 200 with a hydration.
//
// An id names the caller's flags (client-features.ts `viewId`), not a counter, so it holds across
// workers and restarts. With `STREAMING=false` both routes answer 404, and SDKs poll.
import type { H3Event } from 'h3'
import { openEventStream, type EventStream } from '@vexil/server-kit'
import { ProxyError } from '../http/errors.js'
import { matchesIfNoneMatch } from '../http/etag.js'
import { JSON_CONTENT_TYPE, sendBody } from '../http/respond.js'
import type { Logger } from '../logger.js'
import type { RouteDeclaration } from '../routing/route-declaration.js'
import type { FlagSet } from '../scope/flag-set.js'
import type { PublishedFlags } from '../scope/scope-flags.js'
import type { KnownToken } from '../tokens/api-token.js'
import type { TokenRegistry } from '../tokens/token-registry.js'
import { type ClientFilter, clientFilter, deltaMessage, hydrationMessage, viewId } from '../answers/client-features.js'
import { createStreamHistory, type StreamHistory, type StreamHistoryLimits } from '../answers/client-stream-history.js'

interface ClientStreamsOptions {
  /** STREAMING: false answers 404 on both routes. */
  enabled: boolean
  /** The longest silence on a stream (SDKs drop one silent for 60 s). */
  keepAliveMs: number
  /** Open streams per process; past it, 429. */
  maxConnections: number
  /** Whether a stream's token is still the one the upstream validated. */
  tokens: Pick<TokenRegistry, 'known'>
  logger: Logger
  /** The bounds of each scope's reconnect history (default STREAM_HISTORY_LIMITS). */
  history?: StreamHistoryLimits
  now?: () => number
}

/** The open streams of one proxy process. */
interface ClientStreams {
  readonly size: number
  /** Ends every stream; a stream asked for later is refused (503). */
  close(): void
}

interface Connection {
  stream: EventStream
  token: KnownToken
  filter: ClientFilter
  /** The caller's scope: when no source serves it any more (no valid client token), the stream ends. */
  scope: PublishedFlags
  /** The flags the client has: every change up to them was sent. */
  sent: FlagSet
  unsubscribe: () => void
}

export function clientStreamingRoutes(options: ClientStreamsOptions): {
  routes: RouteDeclaration[]
  streams: ClientStreams
} {
  const { enabled, logger } = options
  const connections = new Set<Connection>()
  // One history per scope, made when its first stream opens; scopes live as long as the proxy.
  const histories = new Map<PublishedFlags, StreamHistory>()
  let closed = false
  let timer: NodeJS.Timeout | undefined

  const refuseWhenOff = () => {
    if (!enabled)
      throw new ProxyError(
        'API_NOT_FOUND',
        'Streaming is turned off on this proxy (STREAMING=false): poll /api/client/features',
      )
  }

  /**
   * Keep-alives, and the end of streams whose token the upstream revoked or changed, or whose
   * scope is no longer served: a silent stream would keep its SDK on flags that never change
   * again, while a reconnect is answered 503 until the scope is served.
   */
  function tick(): void {
    for (const connection of connections) {
      if (options.tokens.known(connection.token.secret) !== connection.token || !connection.scope.current)
        end(connection)
      else connection.stream.keepAlive()
    }
  }

  function end(connection: Connection): void {
    connection.unsubscribe()
    connections.delete(connection)
    connection.stream.close()
    if (connections.size === 0 && timer) {
      clearInterval(timer)
      timer = undefined
    }
  }

  function push(connection: Connection, set: FlagSet): void {
    if (connection.stream.closed) return end(connection)
    try {
      const message = deltaMessage(connection.sent, set, connection.filter)
      connection.sent = set
      if (message) connection.stream.send('unleash-updated', message.text, message.id)
    } catch (error) {
      // The client reconnects with its last id and is sent what it lacks.
      logger.error('streaming: could not send a change; the stream is closed', error)
      end(connection)
    }
  }

  function handleStreaming(event: H3Event): void {
    const { req, res } = event.node
    const { caller, url } = event.context
    refuseWhenOff()
    if (closed) throw new ProxyError('SCOPE_NOT_READY', 'The proxy is stopping')
    if (connections.size >= options.maxConnections) {
      res.setHeader('retry-after', '60')
      throw new ProxyError(
        'TOO_MANY_STREAMS',
        `This proxy has ${options.maxConnections} open streams (STREAMING_MAX_CONNECTIONS); poll /api/client/features instead`,
      )
    }
    const { token, view } = caller!
    // Read and subscribed in one turn: no set can be published between the two.
    const current = view.flags.current!
    const filter = clientFilter(token, url!.search)
    const stream = openEventStream(res)
    const lastEventId = req.headers['last-event-id']
    let history = histories.get(view.flags)
    if (!history)
      histories.set(
        view.flags,
        (history = createStreamHistory(view.flags, { limits: options.history, now: options.now, logger })),
      )
    const unfollow = history.follow(filter, current)
    // The first message is sent even when empty: the SDK counts the stream as connected on it.
    if (lastEventId === viewId(current, filter)) stream.send('unleash-connected', '{"events":[]}')
    else {
      const message =
        (typeof lastEventId === 'string' && history.replay(filter, current, lastEventId)) ||
        hydrationMessage(current, filter)
      stream.send('unleash-connected', message.text, message.id)
    }
    const connection: Connection = {
      stream,
      token,
      filter,
      scope: view.flags,
      sent: current,
      unsubscribe: () => undefined,
    }
    const unsubscribe = view.flags.subscribe((set) => push(connection, set))
    connection.unsubscribe = () => {
      unsubscribe()
      unfollow()
    }
    connections.add(connection)
    timer ??= setInterval(tick, options.keepAliveMs)
    timer.unref()
    void stream.ended.then(() => end(connection))
  }

  function handleDelta(event: H3Event): void {
    const { req, res } = event.node
    refuseWhenOff()
    const { flags, caller, url } = event.context
    const filter = clientFilter(caller!.token, url!.search)
    const etag = `"${viewId(flags!, filter)}"`
    res.setHeader('cache-control', 'no-cache')
    res.setHeader('etag', etag)
    if (matchesIfNoneMatch(req.headers['if-none-match'], etag)) {
      res.statusCode = 304
      res.end()
      return
    }
    res.setHeader('content-type', JSON_CONTENT_TYPE)
    sendBody(res, 200, hydrationMessage(flags!, filter), req.headers['accept-encoding'], event.method === 'HEAD')
  }

  const base = { access: 'client-token', cors: 'none', waitsForFlags: true } as const
  return {
    routes: [
      { ...base, methods: ['GET'], path: '/api/client/streaming', example: { status: 200 }, handle: handleStreaming },
      { ...base, methods: ['GET', 'HEAD'], path: '/api/client/delta', example: { status: 200 }, handle: handleDelta },
    ],
    streams: {
      get size() {
        return connections.size
      },
      close() {
        closed = true
        for (const connection of connections) end(connection)
        for (const history of histories.values()) history.close()
        histories.clear()
      },
    },
  }
}
