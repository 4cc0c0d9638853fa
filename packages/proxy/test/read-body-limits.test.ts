// Request bodies (src/http/read-body.ts): the 100 kB limit holds for chunked bodies, for what a
// gzip/deflate body decompresses to and for its compressed bytes; past the limit nothing more
// is read or decompressed, and the proxy answers 413 and closes the connection.
import type { IncomingMessage } from 'node:http'
import type { H3Event } from 'h3'
import { connect } from 'node:net'
import { Readable } from 'node:stream'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeUpstream, type FakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { BODY_LIMIT_BYTES } from '../src/http/body.js'
import { readBodyText } from '../src/http/read-body.js'
import { isProxyError } from './helpers/errors.js'
import { CLIENT_KEY, startTestProxy, type TestProxy } from './helpers/proxy.js'

/** A request whose body is `chunks`, produced only when read (so the test sees how far it was read). */
function lazyRequest(
  headers: Record<string, string>,
  chunk: Buffer,
  count: number,
): { req: H3Event; pulled: () => number; isPaused: () => boolean } {
  let pulled = 0
  const req = new Readable({
    read() {
      if (pulled === count) this.push(null)
      else {
        pulled++
        this.push(chunk)
      }
    },
  }) as unknown as IncomingMessage
  Object.assign(req, { headers })
  return {
    req: { node: { req } } as unknown as H3Event,
    pulled: () => pulled,
    isPaused: () => req.isPaused() || req.destroyed,
  }
}

/** The same body as a web `Request` through h3's web adapter (the Worker): headers on the mock request, the stream on `event.web`. */
function webRequest(
  headers: Record<string, string>,
  chunk: Buffer,
  count: number,
): { req: H3Event; pulled: () => number } {
  let pulled = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === count) return controller.close()
      pulled++
      controller.enqueue(new Uint8Array(chunk))
    },
  })
  const request = new Request('http://127.0.0.1/proxy', {
    method: 'POST',
    headers,
    body,
    duplex: 'half',
  } as RequestInit)
  return {
    req: { node: { req: { headers } }, web: { request, url: new URL(request.url) } } as unknown as H3Event,
    pulled: () => pulled,
  }
}

/** A zlib stream of `blocks` empty stored deflate blocks: endless compressed bytes, no output. */
function emptyBlocksDeflate(blocks: number): Buffer {
  const empty = Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff])
  return Buffer.concat([
    Buffer.from([0x78, 0x01]),
    ...Array.from({ length: blocks }, () => empty),
    Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]),
    Buffer.from([0, 0, 0, 1]),
  ])
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50))

describe('readBodyText', () => {
  it('stops a gzip bomb at the limit: the decompressor is destroyed and the request is not read further', async () => {
    // Each chunk is a whole gzip member of 8 MiB of zeros (about 8 kB), 128 of them: 1 GiB.
    const member = gzipSync(Buffer.alloc(8 * 1024 * 1024))
    const { req, pulled, isPaused } = lazyRequest({ 'content-encoding': 'gzip' }, member, 128)
    const started = performance.now()
    const error = await readBodyText(req).catch((e: unknown) => e)
    expect(isProxyError(error, 'BODY_TOO_LARGE')).toBe(true)
    expect(performance.now() - started).toBeLessThan(500)
    await settle()
    const afterRejection = pulled()
    await settle()
    expect(pulled()).toBe(afterRejection)
    // What the pipe's buffers held when it stopped, not the 128 members (Node 22 and later
    // buffer 64 KiB per stream, where Node 20 buffered 16 KiB).
    expect(afterRejection).toBeLessThanOrEqual(24)
    expect(isPaused()).toBe(true)
  })

  it('counts the compressed bytes too: a deflate body of empty blocks is 413 past the limit', async () => {
    const body = emptyBlocksDeflate(50_000) // 250 kB that decompress to nothing
    const { req } = lazyRequest({ 'content-encoding': 'deflate' }, body, 1)
    const error = await readBodyText(req).catch((e: unknown) => e)
    expect(isProxyError(error, 'BODY_TOO_LARGE')).toBe(true)
    // The same trick under the limit is an empty body.
    const small = lazyRequest({ 'content-encoding': 'deflate' }, emptyBlocksDeflate(100), 1)
    expect(await readBodyText(small.req)).toBe('')
  })

  it('counts chunked bytes as they arrive and stops reading past the limit', async () => {
    const { req, pulled } = lazyRequest({ 'transfer-encoding': 'chunked' }, Buffer.alloc(16 * 1024, 0x20), 20 * 64)
    const error = await readBodyText(req).catch((e: unknown) => e)
    expect(isProxyError(error, 'BODY_TOO_LARGE')).toBe(true)
    await settle()
    // 100 kB is 7 chunks of 16 kB; a few more may sit in the stream's buffer, not 1,280.
    expect(pulled()).toBeLessThan(16)
  })

  it('still reads a compressed body up to the limit', async () => {
    const text = JSON.stringify({ context: { userId: 'u'.repeat(BODY_LIMIT_BYTES - 40) } })
    const { req } = lazyRequest({ 'content-encoding': 'gzip' }, gzipSync(text), 1)
    expect(await readBodyText(req)).toBe(text)
  })
})

describe('readBodyText of a web Request (the Worker)', () => {
  it('stops a gzip bomb at the limit and pulls no further', async () => {
    const member = gzipSync(Buffer.alloc(8 * 1024 * 1024))
    const { req, pulled } = webRequest({ 'content-encoding': 'gzip' }, member, 128)
    const error = await readBodyText(req).catch((e: unknown) => e)
    expect(isProxyError(error, 'BODY_TOO_LARGE')).toBe(true)
    await settle()
    // What the pipes' queues held when it stopped (about 8 kB each), not the 128 members.
    expect(pulled()).toBeLessThanOrEqual(16)
  })

  it('counts the compressed bytes too, and reads an empty-blocks body under the limit as empty', async () => {
    const error = await readBodyText(
      webRequest({ 'content-encoding': 'deflate' }, emptyBlocksDeflate(50_000), 1).req,
    ).catch((e: unknown) => e)
    expect(isProxyError(error, 'BODY_TOO_LARGE')).toBe(true)
    expect(await readBodyText(webRequest({ 'content-encoding': 'deflate' }, emptyBlocksDeflate(100), 1).req)).toBe('')
  })

  it('counts chunked bytes and stops past the limit; reads a body at the limit; refuses an unknown encoding', async () => {
    const { req, pulled } = webRequest({}, Buffer.alloc(16 * 1024, 0x20), 20 * 64)
    expect(isProxyError(await readBodyText(req).catch((e: unknown) => e), 'BODY_TOO_LARGE')).toBe(true)
    await settle()
    expect(pulled()).toBeLessThan(16)
    const text = JSON.stringify({ context: { userId: 'u'.repeat(BODY_LIMIT_BYTES - 40) } })
    expect(await readBodyText(webRequest({ 'content-encoding': 'gzip' }, gzipSync(text), 1).req)).toBe(text)
    expect(await readBodyText(webRequest({}, Buffer.from(text), 1).req)).toBe(text)
    expect(
      isProxyError(
        await readBodyText(webRequest({ 'content-encoding': 'br' }, Buffer.from(text), 1).req).catch((e: unknown) => e),
        'UNSUPPORTED_MEDIA_TYPE',
      ),
    ).toBe(true)
    expect(
      isProxyError(
        await readBodyText(webRequest({ 'content-encoding': 'gzip' }, Buffer.from('not gzip'), 1).req).catch(
          (e: unknown) => e,
        ),
        'INVALID_JSON',
      ),
    ).toBe(true)
  })
})

describe('oversize bodies over HTTP', () => {
  let upstream: FakeUpstream
  let proxy: TestProxy
  beforeAll(async () => {
    upstream = await startFakeUpstream({
      version: 2,
      features: [{ name: 'on', enabled: true, strategies: [{ name: 'default' }] }],
    })
    proxy = await startTestProxy(upstream.url)
  })
  afterAll(async () => {
    await proxy?.close()
    await upstream?.close()
  })

  /** Sends a request head, then `body` chunks with backpressure until the proxy closes the connection. */
  function sendUntilClosed(
    head: string,
    chunks: Iterable<Buffer>,
  ): Promise<{ response: string; sent: number; ms: number }> {
    const { port } = new URL(proxy.url)
    const socket = connect(Number(port), '127.0.0.1')
    const started = performance.now()
    let response = ''
    let sent = 0
    let closed = false
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => (response += chunk))
    socket.on('error', () => undefined)
    const done = new Promise<void>((resolve) => socket.on('close', () => ((closed = true), resolve())))
    return (async () => {
      socket.write(head)
      for (const chunk of chunks) {
        if (closed) break
        sent += chunk.length
        if (!socket.write(chunk)) await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), done])
      }
      // No half-close: Node's server drops a request whose client ends its side (as HTTP clients do not).
      await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 5_000))])
      socket.destroy()
      return { response, sent, ms: performance.now() - started }
    })()
  }

  it('a chunked 20 MB body: 413 quickly, the connection closed, and the rest never read', async () => {
    const heapBefore = process.memoryUsage().heapUsed
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    const framed = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
    const head = `POST /proxy HTTP/1.1\r\nHost: x\r\nAuthorization: ${CLIENT_KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`
    const { response, sent, ms } = await sendUntilClosed(
      head,
      Array.from({ length: 320 }, () => framed),
    )
    console.log(
      `chunked 20 MB: ${sent} bytes left the client in ${ms.toFixed(0)} ms, heap +${((process.memoryUsage().heapUsed - heapBefore) / 1e6).toFixed(1)} MB`,
    )
    expect(response).toMatch(/^HTTP\/1\.1 413 /)
    expect(response.toLowerCase()).toContain('connection: close')
    expect(ms).toBeLessThan(3_000)
    // The proxy stopped reading: what got out of the client is what the sockets buffer, not 20 MB.
    expect(sent).toBeLessThan(20 * 1024 * 1024)
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(32 * 1024 * 1024)
  })

  it('a gzip bomb (64 kB that inflate to 64 MB): 413 quickly and the connection closed', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20))
    expect(bomb.length).toBeLessThan(BODY_LIMIT_BYTES)
    const head = `POST /proxy HTTP/1.1\r\nHost: x\r\nAuthorization: ${CLIENT_KEY}\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${bomb.length}\r\n\r\n`
    const { response, ms } = await sendUntilClosed(head, [bomb])
    expect(response).toMatch(/^HTTP\/1\.1 413 /)
    expect(response.toLowerCase()).toContain('connection: close')
    expect(ms).toBeLessThan(1_000)
  })

  it('a deflate body of 250 kB of empty blocks: 413, not an empty body', async () => {
    const body = emptyBlocksDeflate(50_000)
    const head = `POST /proxy HTTP/1.1\r\nHost: x\r\nAuthorization: ${CLIENT_KEY}\r\nContent-Type: application/json\r\nContent-Encoding: deflate\r\nContent-Length: ${body.length}\r\n\r\n`
    const { response } = await sendUntilClosed(head, [body])
    expect(response).toMatch(/^HTTP\/1\.1 413 /)
  })
})
