// The upstream client decodes bodies as they arrive (upstream/http-client.ts): every encoding the
// proxy asks for, multi-byte characters split across chunks, and a corrupt body refused.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Agent } from 'undici'
import { createSendRequest } from '../src/upstream/http-client.js'

const text = JSON.stringify({
  features: Array.from({ length: 2000 }, (_, i) => ({ name: `flag-${i}-é€😀`, enabled: i % 2 === 0 })),
})
const encoded: Record<string, Buffer> = {
  identity: Buffer.from(text),
  gzip: gzipSync(text),
  deflate: deflateSync(text),
  br: brotliCompressSync(text),
  broken: Buffer.from('not gzip'),
}
const server = createServer((req, res) => {
  const encoding = req.url!.slice(1)
  const body = encoded[encoding]!
  res.writeHead(200, encoding === 'identity' ? {} : { 'content-encoding': encoding === 'broken' ? 'gzip' : encoding })
  // Odd-sized chunks, so characters are cut between them.
  for (let i = 0; i < body.length; i += 999) res.write(body.subarray(i, i + 999))
  res.end()
})
let base = ''
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
const sendRequest = createSendRequest(new Agent())
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const get = (path: string) =>
  sendRequest(`${base}${path}`, { method: 'GET', headers: {}, timeoutMs: 5000, rejectUnauthorized: true })

describe('the upstream client', () => {
  it.each(['identity', 'gzip', 'deflate', 'br'])('reads a %s body exactly', async (encoding) => {
    const res = await get(`/${encoding}`)
    expect(res.status).toBe(200)
    expect(res.body).toBe(text)
  })

  it('rejects a body that does not decode', async () => {
    await expect(get('/broken')).rejects.toThrow()
  })
})
