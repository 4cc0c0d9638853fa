// A server-sent-events client on node:http/https (the upstream client's TLS option and headers
// apply), for the upstream's /api/client/streaming: one connection, parsed as an EventSource
// parses it. Reconnecting is the caller's decision (sync/feed.ts).
import { type ClientRequest, request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { createEventStreamParser, type StreamEvent } from '@vexil/sync'

export interface EventSourceHandlers {
  /** The response's status and headers; a stream is open when this is 200 text/event-stream. */
  onOpen(status: number, headers: Record<string, string | string[] | undefined>): void
  onEvent(event: StreamEvent): void
  /** Any bytes arrived (a message or a keep-alive comment). */
  onActivity(): void
  /** The connection ended: by the server, an error, the read timeout, or `close()`. */
  onClose(error: Error | undefined): void
}

export interface EventSourceOptions {
  headers: Record<string, string>
  rejectUnauthorized: boolean
  /** Silence after which the connection counts as dead (the upstream sends keep-alives well inside it). */
  readTimeoutMs: number
}

/** Opens one stream; returns the function that closes it (then `onClose` is called once, with no error). */
export function openEventSource(url: string, options: EventSourceOptions, handlers: EventSourceHandlers): () => void {
  const target = new URL(url)
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest
  let closed = false
  const finish = (error: Error | undefined) => {
    if (closed) return
    closed = true
    handlers.onClose(error)
  }
  const req: ClientRequest = send(
    target,
    { method: 'GET', headers: { ...options.headers, accept: 'text/event-stream', 'cache-control': 'no-cache' }, rejectUnauthorized: options.rejectUnauthorized, timeout: options.readTimeoutMs },
    (res) => {
      handlers.onOpen(res.statusCode ?? 0, res.headers)
      if (res.statusCode !== 200 || !String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
        res.resume()
        req.destroy()
        finish(undefined)
        return
      }
      const parser = createEventStreamParser(handlers.onEvent)
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        handlers.onActivity()
        parser(chunk)
      })
      res.on('end', () => finish(new Error('the upstream ended the stream')))
      res.on('error', (error) => finish(error))
    },
  )
  req.on('timeout', () => req.destroy(new Error(`no data from the upstream's stream for ${options.readTimeoutMs} ms`)))
  req.on('error', (error) => finish(error))
  req.end()
  return () => {
    if (closed) return
    closed = true
    req.destroy()
    handlers.onClose(undefined)
  }
}
