// Reading server-sent events, chunk by chunk (WHATWG HTML, "Interpreting an event stream"): the
// proxy and the OpenFeature provider read their upstream's stream with it, and tests read the servers' streams.

/** One message of a text/event-stream. */
export interface StreamEvent {
  event: string
  /** The last id the stream sent (an SSE id carries over to later messages), if any. */
  id: string | undefined
  data: string
}

/** The text/event-stream parser (WHATWG HTML, "Interpreting an event stream"), fed chunk by chunk. */
export function createEventStreamParser(
  onEvent: (event: StreamEvent) => void,
  onComment?: (text: string) => void,
): (chunk: string) => void {
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
    if (text.startsWith(':')) {
      onComment?.(text.slice(1))
      return
    }
    const colon = text.indexOf(':')
    const field = colon < 0 ? text : text.slice(0, colon)
    const value = colon < 0 ? '' : text.slice(colon + (text[colon + 1] === ' ' ? 2 : 1))
    if (field === 'event') event = value
    else if (field === 'data') data.push(value)
    else if (field === 'id' && !value.includes('\0')) id = value
  }
  // Each chunk is scanned once, and an unfinished line is kept as its pieces until it ends: a
  // message's cost grows with its size, not with its size times its chunks.
  const endOfLine = /\r\n|\r|\n/g
  let pending: string[] = []
  // A line ended by a CR that closed a chunk: an LF opening the next chunk is the rest of a CRLF.
  let afterCR = false
  return (chunk) => {
    if (chunk === '') return
    let start = afterCR && chunk.charCodeAt(0) === 10 ? 1 : 0
    afterCR = false
    endOfLine.lastIndex = start
    for (let match = endOfLine.exec(chunk); match; match = endOfLine.exec(chunk)) {
      const piece = chunk.slice(start, match.index)
      if (pending.length === 0) line(piece)
      else {
        pending.push(piece)
        const text = pending.join('')
        pending = []
        line(text)
      }
      start = endOfLine.lastIndex
      if (start === chunk.length && match[0] === '\r') afterCR = true
    }
    if (start < chunk.length) pending.push(chunk.slice(start))
  }
}
