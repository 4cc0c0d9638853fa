// readLimitedBody through a real listening server: bodies as clients send them (whole, chunked,
// compressed, broken off), and the limit held however the bytes arrive.
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { deflateSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ABORTED_BODY_MESSAGE, readLimitedBody } from '../src/index.js'

const LIMIT = 1000
let server: Server
let port: number
const outcomes: Array<{ ok: boolean; text: string }> = []

beforeAll(async () => {
  server = createServer((req, res) => {
    const encoding = req.headers['content-encoding'] as 'gzip' | 'deflate' | undefined
    readLimitedBody(req, {
      limit: LIMIT,
      ...(encoding ? { encoding } : {}),
      tooLarge: () => new Error('too large'),
      failed: (cause) => new Error(`failed: ${cause.message}`),
    }).then(
      (body) => {
        outcomes.push({ ok: true, text: body.toString('utf8') })
        res.end(`read ${body.length}`)
      },
      (error: Error) => {
        outcomes.push({ ok: false, text: error.message })
        res.writeHead(error.message === 'too large' ? 413 : 400, { connection: 'close' }).end(error.message)
      },
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** Sends `chunks` one write each (chunked transfer unless a length is given) and reads the answer. */
function send(chunks: Buffer[], headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    for (const chunk of chunks) req.write(chunk)
    req.end()
  })
}

describe('readLimitedBody', () => {
  it('reads a body sent in one piece and one sent in many chunks', async () => {
    expect(await send([Buffer.from('{"a":1}')], { 'content-length': '7' })).toEqual({ status: 200, body: 'read 7' })
    expect(await send(Array.from({ length: 10 }, () => Buffer.from('x'.repeat(100))))).toEqual({
      status: 200,
      body: `read ${LIMIT}`,
    })
  })

  it('refuses a chunked body one byte over the limit', async () => {
    expect((await send([Buffer.from('x'.repeat(LIMIT)), Buffer.from('y')])).status).toBe(413)
  })

  it('decompresses gzip and deflate bodies as they arrive', async () => {
    const text = JSON.stringify({ context: { userId: 'u'.repeat(200) } })
    expect(await send([gzipSync(text)], { 'content-encoding': 'gzip' })).toEqual({
      status: 200,
      body: `read ${text.length}`,
    })
    expect(await send([deflateSync(text)], { 'content-encoding': 'deflate' })).toEqual({
      status: 200,
      body: `read ${text.length}`,
    })
  })

  it('stops a compressed body that inflates past the limit', async () => {
    const bomb = gzipSync(Buffer.alloc(10 * 1024 * 1024, 0x20))
    expect(bomb.length).toBeLessThan(LIMIT * 20)
    expect((await send([bomb], { 'content-encoding': 'gzip' })).status).toBe(413)
  })

  it("answers a body that does not decompress with the caller's failure", async () => {
    const answer = await send([Buffer.from('not gzip at all')], { 'content-encoding': 'gzip' })
    expect(answer.status).toBe(400)
    expect(answer.body).toMatch(/^failed: /)
  })

  it('rejects, rather than waits for ever, when the client breaks off mid-body', async () => {
    const before = outcomes.length
    await new Promise<void>((resolve) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: { 'content-length': '500' } })
      req.on('error', () => resolve())
      req.write('x'.repeat(100), () => setTimeout(() => req.destroy(), 50))
      req.on('close', () => resolve())
    })
    // Node reports the break as an 'aborted' error, or (if none) the reader's own message on close.
    await expect.poll(() => outcomes.length).toBe(before + 1)
    expect(outcomes[before]).toMatchObject({
      ok: false,
      text: expect.stringMatching(new RegExp(`^failed: (aborted|${ABORTED_BODY_MESSAGE})$`)),
    })
  })
})
