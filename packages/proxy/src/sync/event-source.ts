// A server-sent-events client on node:http/https (the upstream client's TLS option and headers
// apply), for the upstream's /api/client/streaming: one connection, parsed as an EventSource
// parses it. Reconnecting is the caller's decision (sync/feed.ts).
import { type ClientRequest, request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'

export interface StreamEvent {
  event: string
  /** The message's id (the upstream's revision), when it has one. */
  id: string | undefined
  data: string
}

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

/** The text/event-stream parser (WHATWG HTML, "Interpreting an event stream"), fed chunk by chunk. */
export function createEventStreamParser(onEvent: (event: StreamEvent) => void): (chunk: string) => void {
  let buffer = ''
  let event = ''
  let id: string | undefined
  let data: string[] = []
  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0) onEvent({ event: event || 'message', id, data: data.join('\n') })
      event = ''
      data = []
      return
    }
    if (text.startsWith(':')) return
    const colon = text.indexOf(':')
    const field = colon < 0 ? text : text.slice(0, colon)
    const value = colon < 0 ? '' : text.slice(colon + (text[colon + 1] === ' ' ? 2 : 1))
    if (field === 'event') event = value
    else if (field === 'data') data.push(value)
    else if (field === 'id' && !value.includes('\0')) id = value
  }
  return (chunk) => {
    buffer += chunk
    let start = 0
    for (let i = 0; i < buffer.length; i++) {
      const char = buffer[i]
      if (char !== '\n' && char !== '\r') continue
      // A CR ending the chunk may be the first half of a CRLF: wait for the next chunk.
      if (char === '\r' && i === buffer.length - 1) break
      line(buffer.slice(start, i))
      if (char === '\r' && buffer[i + 1] === '\n') i++
      start = i + 1
    }
    buffer = buffer.slice(start)
  }
}
