import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createApp, eventHandler, toNodeListener } from 'h3'
import { describe, expect, it } from 'vitest'
import { matchesIfNoneMatch, nextShutdownSignal, sendStaticAsset } from '../src/index.js'

describe('matchesIfNoneMatch compares weakly, as RFC 9110 asks of If-None-Match', () => {
  it.each([
    [undefined, '"a"', false],
    ['', '"a"', false],
    ['*', '"a"', true],
    ['"a"', '"a"', true],
    ['W/"a"', '"a"', true],
    ['"a"', 'W/"a"', true],
    ['"b", W/"a"', '"a"', true],
    [' "b" ,"c"', '"a"', false],
    ['"A"', '"a"', false],
  ])('%j against %s: %s', (header, etag, expected) => {
    expect(matchesIfNoneMatch(header, etag)).toBe(expected)
  })
})

describe('sendStaticAsset', () => {
  it('sends the file with its headers, and 304 with none of the body when the ETag is named', async () => {
    const asset = { body: Buffer.from('body { color: red }'), contentType: 'text/css; charset=utf-8', etag: '"v1"' }
    const app = createApp().use(
      '/',
      eventHandler((event) => sendStaticAsset(event, asset, 'no-cache')),
    )
    const server = createServer(toNodeListener(app))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/style.css`
    try {
      const first = await fetch(url)
      expect(first.status).toBe(200)
      expect(
        Object.fromEntries(
          ['content-type', 'cache-control', 'etag', 'x-content-type-options'].map((h) => [h, first.headers.get(h)]),
        ),
      ).toEqual({
        'content-type': 'text/css; charset=utf-8',
        'cache-control': 'no-cache',
        etag: '"v1"',
        'x-content-type-options': 'nosniff',
      })
      expect(await first.text()).toBe('body { color: red }')
      const again = await fetch(url, { headers: { 'if-none-match': 'W/"v1"' } })
      expect(again.status).toBe(304)
      expect(again.headers.get('etag')).toBe('"v1"')
      expect(await again.text()).toBe('')
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})

describe('nextShutdownSignal', () => {
  it('resolves with the first SIGTERM or SIGINT and then stops listening', async () => {
    const before = process.listenerCount('SIGTERM')
    const beforeInt = process.listenerCount('SIGINT')
    const signal = nextShutdownSignal()
    expect(process.listenerCount('SIGTERM')).toBe(before + 1)
    process.emit('SIGTERM', 'SIGTERM')
    expect(await signal).toBe('SIGTERM')
    expect(process.listenerCount('SIGTERM')).toBe(before)
    expect(process.listenerCount('SIGINT')).toBe(beforeInt)
  })
})

describe('@vexil/server-kit public surface', () => {
  it('exports exactly these names', async () => {
    expect(Object.keys(await import('@vexil/server-kit')).sort()).toEqual([
      'ABORTED_BODY_MESSAGE',
      'COMPRESSION_FRAMING_BYTES',
      'EVENT_STREAM_BACKLOG_BYTES',
      'LOG_LEVELS',
      'createLogger',
      'isPort',
      'matchesIfNoneMatch',
      'nextShutdownSignal',
      'observeRequest',
      'openEventStream',
      'readCommandLine',
      'readLimitedBody',
      'readLimitedWebBody',
      'redactingLogger',
      'requestTrace',
      'sendStaticAsset',
      'serverSpans',
      'silentLogger',
    ])
  })
})
