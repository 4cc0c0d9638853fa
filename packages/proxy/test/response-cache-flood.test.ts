import { Agent, request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { MiB, retainedBytes } from '@vexil/test-fixtures/memory.ts'
import { CLIENT_KEY, startTestProxy, startUpstreamWithTokens, type TestProxy } from './helpers/proxy.js'

// Security review 2, finding 1: the response cache kept every request's raw body or query string
// as a key, bounded by count only, so padded requests with a public credential (the client key,
// a frontend token) pinned about 100 KB each. Every caching route is flooded here through a real
// listening proxy with the default limits, each distinct request sent twice (the second sight
// admits an answer), and the memory the process keeps afterwards is measured after a full GC.

const FRONTEND = '*:development.flood-front-1'
const CLIENT = '*:development.flood-client-1'
const FEATURES = {
  version: 2,
  features: [{ name: 'office-network', enabled: true, strategies: [{ name: 'default' }] }],
  segments: [],
}
const DISTINCT = 300
const PAD = ' '.repeat(100 * 1024 - 200)

let upstream: FakeUpstream
let proxy: TestProxy
const agent = new Agent({ keepAlive: true, maxSockets: 8 })

beforeAll(async () => {
  upstream = await startUpstreamWithTokens(FEATURES, { client: CLIENT, frontend: FRONTEND })
  proxy = await startTestProxy(upstream.url, { tokens: [CLIENT] })
})
afterAll(async () => {
  agent.destroy()
  await proxy.close()
  await upstream.close()
})

function send(method: string, path: string, credential: string, body?: string): Promise<number> {
  const url = new URL(proxy.at(path))
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { authorization: credential }
    if (body !== undefined)
      Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method, agent, headers },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** `DISTINCT` different requests, each sent twice, 8 at a time; every answer must be 200. */
async function flood(make: (i: number) => Parameters<typeof send>): Promise<void> {
  const statuses: number[] = []
  for (let i = 0; i < DISTINCT; i += 4) {
    const batch = [i, i + 1, i + 2, i + 3].filter((n) => n < DISTINCT)
    statuses.push(...(await Promise.all(batch.flatMap((n) => [send(...make(n)), send(...make(n))]))))
  }
  expect(statuses.filter((status) => status !== 200)).toEqual([])
}

const padded = (i: number) => `{"context":{"sessionId":"s${i}","userId":"u${i}"}}${PAD}`

describe('a flood of distinct padded requests on every caching route', () => {
  it('keeps at most the cache budget, whatever the route', async () => {
    // Warm-up: the routes' first answers, compiled code, the agent's sockets.
    await flood((i) => ['POST', '/proxy', CLIENT_KEY, `{"context":{"sessionId":"w${i}"}}`])
    const before = retainedBytes()
    await flood((i) => ['POST', '/proxy', CLIENT_KEY, padded(i)])
    await flood((i) => ['GET', `/proxy?sessionId=s${i}&pad=${'p'.repeat(8_000)}`, CLIENT_KEY])
    await flood((i) => ['POST', '/api/frontend', FRONTEND, padded(i)])
    await flood((i) => ['POST', '/api/frontend/features/office-network', FRONTEND, padded(i)])
    await flood((i) => ['POST', '/ofrep/v1/evaluate/flags', CLIENT_KEY, `{"context":{"targetingKey":"t${i}"}}${PAD}`])
    const growth = retainedBytes() - before
    // 1,500 distinct 100 KB requests: kept as raw keys, they alone would be far over the bound.
    expect(growth / MiB).toBeLessThan(16)
  }, 120_000)
})
