// How the sync stack reaches its upstream, whatever the runtime: one request and answer shape,
// and one server-sent-events connection shape. The runtime's `fetch` fills both here
// (fetch-transport.ts); the proxy fills them with undici, for its egress proxy, CA and client certificates.
import type { StreamEvent } from '../event-stream-parser.js'

export interface HttpResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

export interface HttpRequestOptions {
  method: 'GET' | 'POST'
  headers: Record<string, string>
  body?: string
  timeoutMs: number
  /** Verify the upstream's TLS certificate (the proxy's undici transport only: `fetch` always verifies). */
  rejectUnauthorized: boolean
}

/** One upstream call; rejects on a network error or the timeout. */
export type SendRequest = (url: string, options: HttpRequestOptions) => Promise<HttpResponse>

export interface EventSourceHandlers {
  /** The response's status and headers; a stream is open when this is 200 text/event-stream. */
  onOpen(status: number, headers: Record<string, string | string[] | undefined>): void
  onEvent(event: StreamEvent): void
  /** Any bytes arrived (a message or a keep-alive comment). */
  onActivity(): void
  /** The connection ended: by the server, an error, a timeout, or `close()` (then with no error). */
  onClose(error: Error | undefined): void
}

export interface EventSourceOptions {
  headers: Record<string, string>
  rejectUnauthorized: boolean
  /** Silence after which the connection counts as dead (the upstream sends keep-alives well inside it). */
  readTimeoutMs: number
}

/** Opens one stream; returns the function that closes it (then `onClose` is called once, with no error). */
export type OpenEventSource = (url: string, options: EventSourceOptions, handlers: EventSourceHandlers) => () => void

/** Why a stream ended, worded to follow "The upstream's stream": `was ended by the upstream`, `had no data for 60000 ms`. */
export class StreamClosedError extends Error {
  override readonly name = 'StreamClosedError'
}

/** What an upstream call was for: the names Prometheus counts them under. */
export type UpstreamCallKind = 'features' | 'validation' | 'metrics' | 'streaming' | 'register'

/** How an upstream call ended: by its status class, or with no answer at all (refused, reset, timed out). */
export type UpstreamOutcome = 'ok' | 'not_modified' | 'client_error' | 'server_error' | 'network_error'

/**
 * Told of every upstream call as it ends (a stream: as it opens, or fails to): its status
 * (undefined when no answer came) and how long it took, in milliseconds.
 */
export type UpstreamCallObserver = (
  kind: UpstreamCallKind,
  outcome: UpstreamOutcome,
  status: number | undefined,
  durationMs: number,
) => void

export function upstreamOutcome(status: number): UpstreamOutcome {
  if (status === 304) return 'not_modified'
  if (status >= 200 && status < 300) return 'ok'
  return status >= 500 ? 'server_error' : 'client_error'
}

/** `send`, with each call's outcome told to `observe` as `kind`. */
export function observedSend(send: SendRequest, kind: UpstreamCallKind, observe: UpstreamCallObserver): SendRequest {
  return async (url, options) => {
    const started = performance.now()
    let response: HttpResponse
    try {
      response = await send(url, options)
    } catch (error) {
      observe(kind, 'network_error', undefined, performance.now() - started)
      throw error
    }
    observe(kind, upstreamOutcome(response.status), response.status, performance.now() - started)
    return response
  }
}

/** `open`, with each stream's opening (its status, or the error that kept it from opening) told to `observe`. */
export function observedEventSource(open: OpenEventSource, observe: UpstreamCallObserver): OpenEventSource {
  return (url, options, handlers) => {
    const started = performance.now()
    let opened = false
    return open(url, options, {
      ...handlers,
      onOpen(status, headers) {
        opened = true
        observe('streaming', upstreamOutcome(status), status, performance.now() - started)
        handlers.onOpen(status, headers)
      },
      onClose(error) {
        if (!opened && error) observe('streaming', 'network_error', undefined, performance.now() - started)
        handlers.onClose(error)
      },
    })
  }
}
