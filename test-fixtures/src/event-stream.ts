// A server-sent-events reader for tests: opens a stream with fetch and hands over its messages
// one by one, as an EventSource would parse them (event, id, data; comment lines counted).

export interface StreamMessage {
  event: string
  id: string | undefined
  data: string
}

export interface OpenStream {
  status: number
  headers: Headers
  /** The next message, waiting up to `timeoutMs`; rejects on timeout or when the stream ends first. */
  next(timeoutMs?: number): Promise<StreamMessage>
  /** Comment lines (`:keep-alive`) seen so far. */
  readonly comments: number
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>
  close(): void
}

export async function openStream(url: string, headers: Record<string, string>): Promise<OpenStream> {
  const abort = new AbortController()
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal })
  const queue: StreamMessage[] = []
  const waiters: (() => void)[] = []
  let comments = 0
  let done = false
  const wake = () => waiters.splice(0).forEach((waiter) => waiter())
  const ended = (async () => {
    if (!response.body) return
    const decoder = new TextDecoder()
    let buffer = ''
    let message: StreamMessage = { event: 'message', id: undefined, data: '' }
    try {
      const reader = response.body.getReader()
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        buffer += decoder.decode(read.value, { stream: true })
        let at: number
        while ((at = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, at)
          buffer = buffer.slice(at + 1)
          if (line === '') {
            if (message.data !== '' || message.event !== 'message') queue.push(message)
            message = { event: 'message', id: undefined, data: '' }
            wake()
          } else if (line.startsWith(':')) comments++
          else {
            const colon = line.indexOf(':')
            const field = colon < 0 ? line : line.slice(0, colon)
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
            if (field === 'event') message.event = value
            else if (field === 'id') message.id = value
            else if (field === 'data') message.data = message.data === '' ? value : `${message.data}\n${value}`
          }
        }
      }
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
      return queue.shift() as StreamMessage
    },
    get comments() {
      return comments
    },
    ended,
    close: () => abort.abort(),
  }
}
