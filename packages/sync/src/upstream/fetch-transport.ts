// The upstream calls over a `fetch` (the runtime's, or one an app injects to route, trace or fake
// the upstream): the OpenFeature provider's way, and the proxy's in a Cloudflare Worker. The
// runtime negotiates and decodes compression itself, and always verifies TLS.
import { createEventStreamParser } from '../event-stream-parser.js'
import {
  type EventSourceOptions,
  type EventSourceHandlers,
  type HttpResponse,
  type OpenEventSource,
  type SendRequest,
  StreamClosedError,
} from './http.js'

/** `fetch` as the sync stack calls it. */
export type FetchFunction = (url: string, init: RequestInit) => Promise<Response>

export function fetchRequest(fetch: FetchFunction): SendRequest {
  return async (url, options) => {
    let res: Response
    try {
      res = await fetch(url, {
        method: options.method,
        headers: withoutEncoding(options.headers),
        body: options.body,
        signal: AbortSignal.timeout(options.timeoutMs),
      })
    } catch (error) {
      if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
        const target = new URL(url)
        throw new Error(`request to ${target.origin}${target.pathname} timed out after ${options.timeoutMs} ms`)
      }
      throw error
    }
    return { status: res.status, headers: headersOf(res), body: await res.text() }
  }
}

/** Streams over `fetch`; the response headers must arrive within `connectTimeoutMs`. */
export function fetchEventSource(fetch: FetchFunction, connectTimeoutMs: number): OpenEventSource {
  return (url: string, options: EventSourceOptions, handlers: EventSourceHandlers) => {
    const controller = new AbortController()
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined
    let closed = false
    const finish = (error: Error | undefined) => {
      if (closed) return
      closed = true
      controller.abort()
      reader?.cancel().catch(() => undefined)
      handlers.onClose(error)
    }
    const closeAfter = (ms: number, why: string) => unrefed(setTimeout(() => finish(new StreamClosedError(why)), ms))

    void (async () => {
      const connecting = closeAfter(connectTimeoutMs, `did not answer within ${connectTimeoutMs} ms`)
      let res: Response
      try {
        res = await fetch(url, {
          method: 'GET',
          headers: { ...withoutEncoding(options.headers), accept: 'text/event-stream', 'cache-control': 'no-cache' },
          signal: controller.signal,
        })
      } catch (error) {
        finish(asError(error))
        return
      } finally {
        clearTimeout(connecting)
      }
      if (closed) {
        await res.body?.cancel().catch(() => undefined)
        return
      }
      handlers.onOpen(res.status, headersOf(res))
      if (res.status !== 200 || !(res.headers.get('content-type') ?? '').startsWith('text/event-stream') || !res.body) {
        await res.text().catch(() => '')
        finish(undefined)
        return
      }
      const parse = createEventStreamParser(handlers.onEvent)
      const silent = () => closeAfter(options.readTimeoutMs, `had no data for ${options.readTimeoutMs} ms`)
      let silence = silent()
      try {
        reader = res.body.getReader()
        const decoder = new TextDecoder()
        for (let read = await reader.read(); !read.done && !closed; read = await reader.read()) {
          clearTimeout(silence)
          silence = silent()
          handlers.onActivity()
          parse(decoder.decode(read.value, { stream: true }))
        }
        finish(new StreamClosedError('was ended by the upstream'))
      } catch (error) {
        finish(asError(error))
      } finally {
        clearTimeout(silence)
      }
    })()

    return () => finish(undefined)
  }
}

// --- Internal helpers ---

/** The runtime negotiates the encoding it can decode. */
function withoutEncoding(headers: Record<string, string>): Record<string, string> {
  if (!('accept-encoding' in headers)) return headers
  const { 'accept-encoding': _, ...rest } = headers
  return rest
}

function headersOf(res: Response): HttpResponse['headers'] {
  const headers: HttpResponse['headers'] = {}
  res.headers.forEach((value, name) => {
    headers[name] = value
  })
  return headers
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error))
}

/** A timer that does not keep a Node process alive (other runtimes have no such notion). */
function unrefed(timer: ReturnType<typeof setTimeout>): ReturnType<typeof setTimeout> {
  ;(timer as { unref?: () => void }).unref?.()
  return timer
}
