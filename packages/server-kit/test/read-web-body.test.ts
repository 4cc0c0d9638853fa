// readLimitedWebBody over web streams as runtimes hand them over: whole, in many chunks, gzip and
// deflate, past the limit as sent and after decoding, broken compression, a stream that errors.
import { deflateSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { COMPRESSION_FRAMING_BYTES, readLimitedWebBody } from '../src/index.js'

class TooLarge extends Error {}
class Failed extends Error {}

const options = (limit: number, encoding?: 'gzip' | 'deflate') => ({
  limit,
  ...(encoding ? { encoding } : {}),
  tooLarge: () => new TooLarge('too large'),
  failed: (cause: Error) => new Failed(cause.message),
})

/** A stream of `bytes` in chunks of `size`, counting how many chunks were pulled. */
function streamOf(bytes: Uint8Array, size = 1024): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let at = 0
  let pulled = 0
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close()
      pulled++
      controller.enqueue(bytes.slice(at, at + size))
      at += size
    },
  })
  return { stream, pulled: () => pulled }
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)
const json = (n: number) => new TextEncoder().encode(JSON.stringify({ context: { userId: 'x'.repeat(n) } }))

describe('readLimitedWebBody', () => {
  it('reads no body as empty, and a body in one chunk or many', async () => {
    expect((await readLimitedWebBody(null, options(100))).byteLength).toBe(0)
    const body = json(5000)
    expect(text(await readLimitedWebBody(streamOf(body, 1 << 20).stream, options(10_000)))).toBe(text(body))
    expect(text(await readLimitedWebBody(streamOf(body, 7).stream, options(10_000)))).toBe(text(body))
  })

  it('reads exactly the limit, refuses one byte more and stops pulling at once', async () => {
    const body = json(100_000)
    expect((await readLimitedWebBody(streamOf(body).stream, options(body.length))).byteLength).toBe(body.length)
    const { stream, pulled } = streamOf(body)
    await expect(readLimitedWebBody(stream, options(body.length - 1))).rejects.toBeInstanceOf(TooLarge)
    const big = streamOf(new Uint8Array(10 << 20))
    await expect(readLimitedWebBody(big.stream, options(100 * 1024))).rejects.toBeInstanceOf(TooLarge)
    expect(big.pulled()).toBeLessThanOrEqual(102)
    expect(pulled()).toBeGreaterThan(0)
  })

  it.each(['gzip', 'deflate'] as const)('decompresses %s and holds the decoded size to the limit', async (encoding) => {
    const body = json(20_000)
    const sent = encoding === 'gzip' ? gzipSync(body) : deflateSync(body)
    expect(text(await readLimitedWebBody(streamOf(sent, 100).stream, options(body.length, encoding)))).toBe(text(body))
    // A bomb: a small body that decodes to far more than the limit.
    const bomb = gzipSync(new Uint8Array(50 << 20))
    await expect(
      readLimitedWebBody(
        streamOf(encoding === 'gzip' ? bomb : deflateSync(new Uint8Array(50 << 20))).stream,
        options(100 * 1024, encoding),
      ),
    ).rejects.toBeInstanceOf(TooLarge)
  })

  it('refuses a compressed body longer as sent than the limit plus framing', async () => {
    // Random bytes do not compress: the gzip body is longer than what it decodes to.
    const random = new Uint8Array(300 * 1024).map(() => Math.floor(Math.random() * 256))
    const sent = gzipSync(random, { level: 0 })
    expect(sent.length).toBeGreaterThan(200 * 1024 + COMPRESSION_FRAMING_BYTES)
    await expect(readLimitedWebBody(streamOf(sent).stream, options(200 * 1024, 'gzip'))).rejects.toBeInstanceOf(
      TooLarge,
    )
  })

  it('answers a broken compressed body and a stream that errors as failed', async () => {
    await expect(
      readLimitedWebBody(streamOf(new TextEncoder().encode('not gzip at all')).stream, options(1000, 'gzip')),
    ).rejects.toBeInstanceOf(Failed)
    const breaking = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(10))
        controller.error(new Error('connection reset'))
      },
    })
    await expect(readLimitedWebBody(breaking, options(1000))).rejects.toThrow('connection reset')
  })
})
