// The event-stream parser (the proxy and the OpenFeature provider read their upstream's stream with it): whatever the chunking and line endings,
// messages come out as sent, ids included, comments skipped; and a long message costs time in proportion to its size.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createEventStreamParser, type StreamEvent } from '../src/index.js'

const line = fc.stringMatching(/^[^\r\n]*$/, { maxLength: 40 })
const message = fc.record({
  event: fc.constantFrom('unleash-connected', 'unleash-updated', 'fetch-mode'),
  id: fc.option(fc.nat({ max: 1e6 }).map(String), { nil: undefined }),
  data: fc.array(line, { minLength: 1, maxLength: 3 }),
})

describe('the event-stream parser', () => {
  it('yields every message as sent, however the bytes are split and whichever line ending', () => {
    fc.assert(
      fc.property(
        fc.array(message, { maxLength: 6 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.array(fc.nat(), { maxLength: 8 }),
        (messages, eol, cuts) => {
          const text = messages
            .map(
              (m) =>
                `:keep-alive${eol}event: ${m.event}${eol}${m.id === undefined ? '' : `id: ${m.id}${eol}`}${m.data.map((d) => `data: ${d}${eol}`).join('')}${eol}`,
            )
            // A CR at the very end ends its line at once: the parser does not wait for a possible LF.
            .join('')
          const seen: StreamEvent[] = []
          const parse = createEventStreamParser((event) => seen.push(event))
          const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b)
          let from = 0
          for (const point of [...points, text.length]) {
            parse(text.slice(from, point))
            from = point
          }
          let id: string | undefined
          const expected = messages.map((m) => {
            id = m.id ?? id
            return { event: m.event, id, data: m.data.join('\n') }
          })
          expect(seen).toEqual(expected)
        },
      ),
      { numRuns: 2_000 },
    )
  })

  it('a field without a space after the colon, a field without a colon, an event without a name, an unfinished message', () => {
    const seen: StreamEvent[] = []
    const parse = createEventStreamParser((event) => seen.push(event))
    parse('event:x\ndata:1\ndata\n\nid: 8\ndata: no event name\n\ndata: never finished')
    expect(seen).toEqual([
      { event: 'x', id: undefined, data: '1\n' },
      { event: 'message', id: '8', data: 'no event name' },
    ])
  })

  it('hands comment lines to the comment handler', () => {
    const comments: string[] = []
    createEventStreamParser(
      () => undefined,
      (text) => comments.push(text),
    )(':keep-alive\n: ping\n\n')
    expect(comments).toEqual(['keep-alive', ' ping'])
  })
})

describe('the event-stream parser on a large message (finding 12)', () => {
  /** A message of `size` characters of data, in the 64 KB chunks a socket hands over. */
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
      let data = 0
      const parse = createEventStreamParser((event) => (data = event.data.length))
      const started = performance.now()
      for (const chunk of chunks) parse(chunk)
      best = Math.min(best, performance.now() - started)
      expect(data).toBe(chunks.join('').length - 'event: unleash-connected\nid: 1\ndata: \n\n'.length)
    }
    return best
  }

  it('takes time linear in the message size: 8 times the data, far less than 64 times the time', () => {
    const small = chunked(1024 * 1024)
    const large = chunked(8 * 1024 * 1024)
    fastest(small)
    // Rescanning the buffer on every chunk makes this ratio about 64; reading each byte once, about 8.
    expect(fastest(large) / fastest(small)).toBeLessThan(24)
  })
})
