// The provider's own text/event-stream parser (server-kit's pulls in h3): messages as an
// EventSource reads them, however the bytes are split.
import { describe, expect, it } from 'vitest'
import { createEventStreamParser, type StreamEvent } from '../src/sync/event-stream-parser.js'

function parseAll(chunks: string[]): StreamEvent[] {
  const events: StreamEvent[] = []
  const parse = createEventStreamParser((event) => events.push(event))
  for (const chunk of chunks) parse(chunk)
  return events
}

const STREAM = ':keep-alive\n\nevent: unleash-connected\nid: 7\ndata: {"events":\ndata: []}\n\nevent: unleash-updated\nid: 8\ndata: {"events":[{"type":"feature-removed","featureName":"a"}]}\n\ndata: no event name\n\n'
const EXPECTED: StreamEvent[] = [
  { event: 'unleash-connected', id: '7', data: '{"events":\n[]}' },
  { event: 'unleash-updated', id: '8', data: '{"events":[{"type":"feature-removed","featureName":"a"}]}' },
  // The id carries over; no event field is a "message".
  { event: 'message', id: '8', data: 'no event name' },
]

describe('createEventStreamParser', () => {
  it('reads events, ids and multi-line data; skips comments', () => {
    expect(parseAll([STREAM])).toEqual(EXPECTED)
  })

  it('gives the same messages however the stream is split, byte by byte included', () => {
    expect(parseAll(STREAM.split(''))).toEqual(EXPECTED)
    for (let cut = 1; cut < STREAM.length; cut += 7) expect(parseAll([STREAM.slice(0, cut), STREAM.slice(cut)])).toEqual(EXPECTED)
  })

  it('accepts CRLF and CR line ends, a CRLF split across chunks included', () => {
    const crlf = STREAM.replaceAll('\n', '\r\n')
    expect(parseAll([crlf])).toEqual(EXPECTED)
    expect(parseAll(crlf.split(''))).toEqual(EXPECTED)
    // A CR ending what has arrived may be half a CRLF: the last message waits for the next byte.
    expect(parseAll([STREAM.replaceAll('\n', '\r')])).toEqual(EXPECTED.slice(0, 2))
    expect(parseAll([STREAM.replaceAll('\n', '\r'), ':keep-alive\r'])).toEqual(EXPECTED)
  })

  it('a field without a space after the colon, a field without a colon, an unfinished message', () => {
    expect(parseAll(['event:x\ndata:1\ndata\n\ndata: never finished'])).toEqual([{ event: 'x', id: undefined, data: '1\n' }])
  })
})
