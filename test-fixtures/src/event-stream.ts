// A server-sent-events reader for tests: opens a stream with fetch and hands over its messages
// one by one, parsed by @vexil/sync's parser (event, id, data; comment lines counted).
import { createEventStreamParser, type StreamEvent } from '@vexil/sync'

export interface OpenStream {
  status: number
  headers: Headers
  /** The next message, waiting up to `timeoutMs`; rejects on timeout or when the stream ends first. */
  next(timeoutMs?: number): Promise<StreamEvent>
  /** Comment lines (`:keep-alive`) seen so far. */
  readonly comments: number
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>
  close(): void
}

export async function openStream(url: string, headers: Record<string, string>): Promise<OpenStream> {
  const abort = new AbortController()
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal })
  const queue: StreamEvent[] = []
  const waiters: (() => void)[] = []
  let comments = 0
  let done = false
  const wake = () => {
    for (const waiter of waiters.splice(0)) waiter()
  }
  const parse = createEventStreamParser(
    (message) => {
      queue.push(message)
      wake()
    },
    () => comments++,
  )
  const ended = (async () => {
    if (!response.body) return
    const decoder = new TextDecoder()
    try {
      const reader = response.body.getReader()
      for (let read = await reader.read(); !read.done; read = await reader.read())
        parse(decoder.decode(read.value, { stream: true }))
    } catch {
      // Aborted by close(), or the connection was cut.
    } finally {
      done = true
      wake()
    }
  })()
  return {
    status: response.status,
    headers: response.headers,
    async next(timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs
      while (queue.length === 0) {
        if (done) throw new Error('the stream ended before the next message')
        const left = deadline - Date.now()
        if (left <= 0) throw new Error(`no message within ${timeoutMs} ms`)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left)
          waiters.push(() => {
            clearTimeout(timer)
            resolve()
          })
        })
      }
      return queue.shift() as StreamEvent
    },
    get comments() {
      return comments
    },
    ended,
    close: () => abort.abort(),
  }
}
