// The token gate and the validation queue under floods from one caller (security review 2,
// findings 6 and 7): a real listening proxy against the fake upstream. Spelling one token many
// ways must not grow the gate's memory, and made-up tokens, sent as `Authorization` or to the
// open `POST /edge/validate`, must not keep a newly created real token from being admitted.
import { Agent, request } from 'node:http'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FakeUpstream, startFakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { startTestProxy, type TestProxy } from './helpers/proxy.js'

const DEV_CLIENT = '*:development.dev-client-1'
const DEV_FRONTEND = '*:development.dev-front-1'

const DEV = { version: 2, features: [{ name: 'office-network', project: 'default', enabled: true, strategies: [{ name: 'default' }] }], segments: [] }
const token = (secret: string, type: 'client' | 'frontend') => ({ token: secret, type, environment: 'development', projects: ['*'] })

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

function send(url: string, method: string, path: string, headers: Record<string, string>, options: { body?: string; agent?: Agent; localAddress?: string } = {}): Promise<Sent> {
  const { port } = new URL(url)
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: options.agent ?? false, localAddress: options.localAddress }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

let upstream: FakeUpstream
let proxy: TestProxy

beforeAll(async () => {
  upstream = await startFakeUpstream()
  upstream.setFeaturesFor(DEV_CLIENT, DEV)
  upstream.setValidTokens([token(DEV_CLIENT, 'client'), token(DEV_FRONTEND, 'frontend')])
  proxy = await startTestProxy(upstream.url, { serviceApiToken: undefined, tokens: [DEV_CLIENT], refreshInterval: 60_000 })
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
        Array.from({ length: 8 }, (_, j) => send(proxy.url, 'GET', path, { authorization: `Bearer${' '.repeat(14_000 + i + j)}${DEV_FRONTEND}` }, { agent })),
      )
      for (const { status } of batch) statuses.set(status, (statuses.get(status) ?? 0) + 1)
    }
    agent.destroy()
    const grown = heapAfterCollection() - before
    console.info(`[token-floods] heap kept after 1,000 padded spellings: ${(grown / 1e6).toFixed(1)} MB`)
    expect(Object.fromEntries(statuses)).toEqual({ 200: 1_000 })
    // The headers alone are about 14.5 MB: none of them may stay.
    expect(grown).toBeLessThan(2_000_000)
  }, 60_000)
})
