// openEventStream: the headers an SDK and a reverse proxy need, messages in the SSE format, and a
// reader that stops reading is dropped once its unread backlog passes the limit (it reconnects
// and catches up with its Last-Event-ID), instead of growing the server's memory.
import { createServer } from 'node:http'
import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { EVENT_STREAM_BACKLOG_BYTES, type EventStream, openEventStream } from '@vexil/server-kit'

async function serve(onStream: (stream: EventStream) => void) {
  const server = createServer((_req, res) => onStream(openEventStream(res)))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { port: (server.address() as AddressInfo).port, close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }) }
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
      expect(await response.text()).toBe('event: unleash-connected\nid: 7\ndata: {"events":[]}\n\n:keep-alive\n\nevent: unleash-updated\ndata: {"events":[1]}\n\n')
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
})
