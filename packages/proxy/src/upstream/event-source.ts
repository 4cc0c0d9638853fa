// A server-sent-events client (@vexil/sync's OpenEventSource) through the upstream's dispatcher
// (dispatcher.ts), for the upstream's /api/client/streaming: one connection, parsed as an
// EventSource parses it. Reconnecting is @vexil/sync's feed's decision.
import { StringDecoder } from 'node:string_decoder'
import { createEventStreamParser, type OpenEventSource, StreamClosedError } from '@vexil/sync'
import type { Dispatcher } from 'undici'

/** Opens one stream; the function it returns closes it (then `onClose` is called once, with no error). */
export function createOpenEventSource(dispatcher: Dispatcher): OpenEventSource {
  return (url, options, handlers) => {
    const target = new URL(url)
    const abort = new AbortController()
    let closed = false
    const finish = (error: Error | undefined) => {
      if (closed) return
      closed = true
      abort.abort()
      handlers.onClose(error)
    }
    const silent = (error: unknown) => {
      const code = (error as { code?: string }).code
      return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT'
        ? new StreamClosedError(`had no data for ${options.readTimeoutMs} ms`)
        : (error as Error)
    }
    dispatcher
      .request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: 'GET',
        headers: { ...options.headers, accept: 'text/event-stream', 'cache-control': 'no-cache' },
        headersTimeout: options.readTimeoutMs,
        bodyTimeout: options.readTimeoutMs,
        signal: abort.signal,
      })
      .then(
        (res) => {
          if (closed) return void res.body.destroy()
          handlers.onOpen(res.statusCode, res.headers)
          if (res.statusCode !== 200 || !String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
            res.body.destroy()
            finish(undefined)
            return
          }
          const parser = createEventStreamParser(handlers.onEvent)
          // undici's body ignores setEncoding: characters cut between chunks are joined here.
          const utf8 = new StringDecoder('utf8')
          res.body.on('data', (chunk: Buffer) => {
            handlers.onActivity()
            parser(utf8.write(chunk))
          })
          res.body.on('end', () => finish(new StreamClosedError('was ended by the upstream')))
          res.body.on('error', (error) => finish(silent(error)))
        },
        (error: unknown) => finish(silent(error)),
      )
    return () => {
      if (closed) return
      finish(undefined)
    }
  }
}
