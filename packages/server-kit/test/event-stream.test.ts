// openEventStream: the headers an SDK and a reverse proxy need, messages in the SSE format, a
// message of any size delivered whole to a reader that keeps reading, and a reader that stops
// reading dropped once its unread backlog passes the limit (it reconnects and catches up with its
// Last-Event-ID), instead of growing the server's memory.
import { createServer } from 'node:http'
import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { EVENT_STREAM_BACKLOG_BYTES, type EventStream, openEventStream } from '@vexil/server-kit'

async function serve(onStream: (stream: EventStream) => void) {
  const server = createServer((_req, res) => onStream(openEventStream(res)))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

describe('openEventStream', () => {
  it('sends the stream headers at once, then messages with their ids, and comments', async () => {
    const { port, close } = await serve((stream) => {
      stream.send('unleash-connected', '{"events":[]}', 7)
      stream.keepAlive()
      stream.send('unleash-updated', '{"events":[1]}')
      stream.close()
    })
    try {
      const response = await fetch(`http://127.0.0.1:${port}/`)
      expect(response.headers.get('content-type')).toBe('text/event-stream')
      expect(response.headers.get('cache-control')).toBe('no-cache')
      expect(response.headers.get('x-accel-buffering')).toBe('no')
      expect(await response.text()).toBe(
        'event: unleash-connected\nid: 7\ndata: {"events":[]}\n\n:keep-alive\n\nevent: unleash-updated\ndata: {"events":[1]}\n\n',
      )
    } finally {
      await close()
    }
  })

  it('delivers a message larger than the backlog limit whole to a reader that keeps reading (finding 10)', async () => {
    // A hydration of 10k flags is megabytes: the bound is on what a reader leaves unread, not on one message.
    const big = 'x'.repeat(EVENT_STREAM_BACKLOG_BYTES * 2 + 3 * 1024 * 1024)
    const results: boolean[] = []
    const { port, close } = await serve((stream) => {
      results.push(stream.send('unleash-connected', big, 1))
      results.push(stream.send('unleash-updated', '{"events":[]}', 2))
      stream.close()
    })
    try {
      const text = await (await fetch(`http://127.0.0.1:${port}/`)).text()
      expect(results).toEqual([true, true])
      expect(text.length).toBe(
        `event: unleash-connected\nid: 1\ndata: ${big}\n\n`.length +
          'event: unleash-updated\nid: 2\ndata: {"events":[]}\n\n'.length,
      )
      expect(text.endsWith('event: unleash-updated\nid: 2\ndata: {"events":[]}\n\n')).toBe(true)
    } finally {
      await close()
    }
  })

  it('drops a reader whose unread backlog passes the limit', async () => {
    let stream: EventStream | undefined
    const { port, close } = await serve((opened) => (stream = opened))
    // A client that sends its request and never reads.
    const socket = connect(port, '127.0.0.1')
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n')
    socket.pause()
    try {
      while (!stream) await new Promise((resolve) => setTimeout(resolve, 5))
      const message = 'x'.repeat(64 * 1024)
      let sent = 0
      while (stream.send('unleash-updated', message) && sent < 4 * EVENT_STREAM_BACKLOG_BYTES) sent += message.length
      expect(stream.closed).toBe(true)
      expect(sent).toBeLessThan(2 * EVENT_STREAM_BACKLOG_BYTES)
      await stream.ended
    } finally {
      socket.destroy()
      await close()
    }
  })

  it('drops a reader that stops reading during a large message once what piles up behind it passes the limit', async () => {
    let stream: EventStream | undefined
    const { port, close } = await serve((opened) => (stream = opened))
    const socket = connect(port, '127.0.0.1')
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n')
    socket.pause()
    try {
      while (!stream) await new Promise((resolve) => setTimeout(resolve, 5))
      expect(stream.send('unleash-connected', 'x'.repeat(3 * EVENT_STREAM_BACKLOG_BYTES))).toBe(true)
      const message = 'x'.repeat(64 * 1024)
      let behind = 0
      while (stream.send('unleash-updated', message) && behind < 4 * EVENT_STREAM_BACKLOG_BYTES)
        behind += message.length
      expect(stream.closed).toBe(true)
      expect(behind).toBeGreaterThanOrEqual(EVENT_STREAM_BACKLOG_BYTES - message.length)
      expect(behind).toBeLessThan(EVENT_STREAM_BACKLOG_BYTES + message.length)
      await stream.ended
    } finally {
      socket.destroy()
      await close()
    }
  })
})
