// A server-sent-events client on node:http/https (@vexil/sync's OpenEventSource, with the
// upstream client's TLS option and headers), for the upstream's /api/client/streaming: one
// connection, parsed as an EventSource parses it. Reconnecting is @vexil/sync's feed's decision.
import { type ClientRequest, request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { createEventStreamParser, type EventSourceHandlers, type EventSourceOptions, StreamClosedError } from '@vexil/sync'

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
      res.on('end', () => finish(new StreamClosedError('was ended by the upstream')))
      res.on('error', (error) => finish(error))
    },
  )
  req.on('timeout', () => req.destroy(new StreamClosedError(`had no data for ${options.readTimeoutMs} ms`)))
  req.on('error', (error) => finish(error))
  req.end()
  return () => {
    if (closed) return
    closed = true
    req.destroy()
    handlers.onClose(undefined)
  }
}
