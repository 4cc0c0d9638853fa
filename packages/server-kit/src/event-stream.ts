import type { ServerResponse } from 'node:http'

/** One server-sent-events response (text/event-stream), written as the Unleash SDKs read it. */
export interface EventStream {
  /** Writes one message; `id` becomes the client's Last-Event-ID. Returns false once the stream is closed. */
  send(event: string, data: string, id?: string | number): boolean
  /** Writes a comment line: keeps the connection (and the client's read timeout) alive. */
  keepAlive(): boolean
  /** Ends the response. */
  close(): void
  /** Whether the client is gone or the stream was closed. */
  readonly closed: boolean
  /** Resolves when the stream ends, from either side. */
  readonly ended: Promise<void>
}

/**
 * Bytes a slow reader may leave unread behind what it was still receiving when it fell behind,
 * before its stream is dropped: it reconnects with its Last-Event-ID and catches up, instead of
 * holding the server's memory. One message is never measured against it (a hydration of 10k
 * flags is larger), only what piles up after it.
 */
export const EVENT_STREAM_BACKLOG_BYTES = 4 * 1024 * 1024

/**
 * Starts a 200 text/event-stream response on `res`, with headers that keep proxies from
 * buffering it, and sends them at once (an SDK waits for them to count the stream as open).
 */
export function openEventStream(res: ServerResponse, headers: Record<string, string> = {}): EventStream {
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  })
  res.flushHeaders()
  res.socket?.setNoDelay(true)
  let closed = false
  let markEnded: () => void = () => undefined
  const ended = new Promise<void>((resolve) => (markEnded = resolve))
  const finish = () => {
    closed = true
    markEnded()
  }
  res.once('close', finish)
  // What was buffered when a write last found the socket full; undefined once it drained. Only
  // bytes added beyond it count as backlog, so a large message alone never ends a stream.
  let behindAt: number | undefined
  res.on('drain', () => (behindAt = undefined))
  const write = (text: string): boolean => {
    if (closed) return false
    const flushed = res.write(text)
    if (behindAt === undefined) {
      if (!flushed) behindAt = res.writableLength
      return true
    }
    if (res.writableLength - behindAt > EVENT_STREAM_BACKLOG_BYTES) {
      res.destroy()
      finish()
      return false
    }
    return true
  }
  return {
    send: (event, data, id) => write(`event: ${event}\n${id === undefined ? '' : `id: ${id}\n`}data: ${data}\n\n`),
    keepAlive: () => write(':keep-alive\n\n'),
    close() {
      if (closed) return
      finish()
      res.end()
    },
    get closed() {
      return closed
    },
    ended,
  }
}
