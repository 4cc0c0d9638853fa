// The event-stream parser (the proxy reads its upstream's stream with it): whatever the chunking and line endings,
// messages come out as sent, ids included, comments skipped.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createEventStreamParser, type StreamEvent } from '@vexil/server-kit'

const line = fc.stringMatching(/^[^\r\n]*$/, { maxLength: 40 })
const message = fc.record({ event: fc.constantFrom('unleash-connected', 'unleash-updated', 'fetch-mode'), id: fc.option(fc.nat({ max: 1e6 }).map(String), { nil: undefined }), data: fc.array(line, { minLength: 1, maxLength: 3 }) })

describe('the event-stream parser', () => {
  it('yields every message as sent, however the bytes are split and whichever line ending', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 6 }), fc.constantFrom('\n', '\r\n', '\r'), fc.array(fc.nat(), { maxLength: 8 }), (messages, eol, cuts) => {
        const text = messages
          .map((m) => `:keep-alive${eol}event: ${m.event}${eol}${m.id === undefined ? '' : `id: ${m.id}${eol}`}${m.data.map((d) => `data: ${d}${eol}`).join('')}${eol}`)
          .join('')
          // A CR at the very end may be half a CRLF, so the parser waits for the next byte: the
          // upstream's next keep-alive.
          .concat(`:keep-alive${eol}`)
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
      }),
      { numRuns: 2_000 },
    )
  })
})
