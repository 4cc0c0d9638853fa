// The text/event-stream parser (WHATWG HTML, "Interpreting an event stream"), fed chunk by chunk.
// server-kit has the same parser, but its index pulls in h3; an app's process should not carry a
// server framework to read one stream, so the provider keeps its own copy of these few lines.

/** One message of a text/event-stream. */
export interface StreamEvent {
  event: string
  /** The last id the stream sent (an SSE id carries over to later messages), if any. */
  id: string | undefined
  data: string
}

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
