// The token gate and the validation queue under floods from one caller (security review 2,
// findings 6 and 7): a real listening proxy against the fake upstream. Spelling one token many
// ways must not grow the gate's memory, and made-up tokens, sent as `Authorization` or to the
// open `POST /edge/validate`, must not keep a newly created real token from being admitted.
import { Agent, request } from 'node:http'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FakeUpstream, startFakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { startTestProxy, type TestProxy } from './helpers/proxy.js'

const DEV_CLIENT = '*:development.dev-client-1'
const DEV_FRONTEND = '*:development.dev-front-1'
const NEW_FRONTEND = '*:development.created-after-start'
/** The flood comes from another loopback address than the real caller (the whole 127/8 is local). */
const FLOODER = '127.0.0.2'

const DEV = {
  version: 2,
  features: [{ name: 'office-network', project: 'default', enabled: true, strategies: [{ name: 'default' }] }],
  segments: [],
}
const token = (secret: string, type: 'client' | 'frontend') => ({
  token: secret,
  type,
  environment: 'development',
  projects: ['*'],
})

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
function heapAfterCollection(): number {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

interface Sent {
  status: number
  body: string
}

function send(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  options: { body?: string; agent?: Agent; localAddress?: string } = {},
): Promise<Sent> {
  const { port } = new URL(url)
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers,
        agent: options.agent ?? false,
        localAddress: options.localAddress,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(options.body)
  })
}

const madeUp = () => `x:y.${randomBytes(12).toString('hex')}`

let upstream: FakeUpstream
let proxy: TestProxy

beforeAll(async () => {
  upstream = await startFakeUpstream()
  upstream.setFeaturesFor(DEV_CLIENT, DEV)
  upstream.setValidTokens([token(DEV_CLIENT, 'client'), token(DEV_FRONTEND, 'frontend')])
  proxy = await startTestProxy(upstream.url, {
    serviceApiToken: undefined,
    tokens: [DEV_CLIENT],
    refreshInterval: 60_000,
  })
})
afterAll(async () => {
  await proxy.close()
  await upstream.close()
})

describe('the token gate', () => {
  it('a token spelt with 1,000 different paddings of Authorization holds no memory per spelling', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 8 })
    const path = '/api/frontend/features/office-network'
    expect((await send(proxy.url, 'GET', path, { authorization: DEV_FRONTEND }, { agent })).status).toBe(200)
    const before = heapAfterCollection()
    const statuses = new Map<number, number>()
    for (let i = 0; i < 1_000; i += 8) {
      const batch = await Promise.all(
        Array.from({ length: 8 }, (_, j) =>
          send(
            proxy.url,
            'GET',
            path,
            { authorization: `Bearer${' '.repeat(14_000 + i + j)}${DEV_FRONTEND}` },
            { agent },
          ),
        ),
      )
      for (const { status } of batch) statuses.set(status, (statuses.get(status) ?? 0) + 1)
    }
    agent.destroy()
    const grown = heapAfterCollection() - before
    console.info(`[token-floods] heap kept after 1,000 padded spellings: ${(grown / 1e6).toFixed(1)} MB`)
    expect(Object.fromEntries(statuses)).toEqual({ 200: 1_000 })
    // The headers alone are megabytes: none of them may stay.
    expect(grown).toBeLessThan(2_000_000)
  }, 60_000)
})

describe('the validation queue', () => {
  it('a newly created real token is admitted at once while another caller floods made-up tokens', async () => {
    // A connection per request: a pool would hold the flood back behind its own waiting requests.
    const flooder = { localAddress: FLOODER }
    let flooding = true
    const floodBodies = async () => {
      while (flooding) {
        // As the review's reproduction: a list of 1,000 every 40 ms, answers not awaited.
        void send(
          proxy.url,
          'POST',
          '/edge/validate',
          { 'content-type': 'application/json' },
          { ...flooder, body: JSON.stringify({ tokens: Array.from({ length: 1_000 }, madeUp) }) },
        ).catch(() => undefined)
        for (let i = 0; i < 20; i++)
          void send(proxy.url, 'GET', '/api/frontend', { authorization: madeUp() }, flooder).catch(() => undefined)
        await new Promise((resolve) => setTimeout(resolve, 40))
      }
    }
    const flood = floodBodies()
    try {
      await new Promise((resolve) => setTimeout(resolve, 700))
      upstream.setValidTokens([
        token(DEV_CLIENT, 'client'),
        token(DEV_FRONTEND, 'frontend'),
        token(NEW_FRONTEND, 'frontend'),
      ])
      // A known token's answer times the event loop the flood keeps busy (one process runs all).
      const knownStarted = Date.now()
      expect((await send(proxy.url, 'GET', '/api/frontend', { authorization: DEV_FRONTEND })).status).toBe(200)
      const known = Date.now() - knownStarted
      const started = Date.now()
      const first = await send(proxy.url, 'GET', '/api/frontend', { authorization: NEW_FRONTEND })
      const elapsed = Date.now() - started
      console.info(
        `[token-floods] under the flood: a known token 200 after ${known} ms; a new real token ${first.status} after ${elapsed} ms`,
      )
      expect(first.status).toBe(200)
      // Two validation rounds at most: the one in flight, then the next, which takes it first.
      expect(elapsed).toBeLessThan(2_000)
    } finally {
      flooding = false
      await flood
    }
  }, 30_000)
})
