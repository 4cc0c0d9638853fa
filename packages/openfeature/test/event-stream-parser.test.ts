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
    // A CR ending what has arrived ends its line at once; an LF opening the next chunk completes that CRLF.
    expect(parseAll([STREAM.replaceAll('\n', '\r')])).toEqual(EXPECTED)
    expect(parseAll([STREAM.replaceAll('\n', '\r'), ':keep-alive\r'])).toEqual(EXPECTED)
    for (let cut = 1; cut < crlf.length; cut += 5) expect(parseAll([crlf.slice(0, cut), crlf.slice(cut)])).toEqual(EXPECTED)
  })

  it('a field without a space after the colon, a field without a colon, an unfinished message', () => {
    expect(parseAll(['event:x\ndata:1\ndata\n\ndata: never finished'])).toEqual([{ event: 'x', id: undefined, data: '1\n' }])
  })

  it('takes time linear in the message size: 8 times the data, far less than 64 times the time', () => {
    const chunked = (size: number) => {
      const text = `event: unleash-connected\nid: 1\ndata: ${'x'.repeat(size)}\n\n`
      const chunks: string[] = []
      for (let at = 0; at < text.length; at += 64 * 1024) chunks.push(text.slice(at, at + 64 * 1024))
      return chunks
    }
    /** The fastest of a few runs: noise on a shared machine only ever adds time. */
    const fastest = (chunks: string[]) => {
      let best = Number.POSITIVE_INFINITY
      for (let run = 0; run < 3; run++) {
        const parse = createEventStreamParser(() => undefined)
        const started = performance.now()
        for (const chunk of chunks) parse(chunk)
        best = Math.min(best, performance.now() - started)
      }
      return best
    }
    const small = chunked(1024 * 1024)
    fastest(small)
    // Rescanning the buffer on every chunk makes this ratio about 64; reading each byte once, about 8.
    expect(fastest(chunked(8 * 1024 * 1024)) / fastest(small)).toBeLessThan(24)
  })
})
