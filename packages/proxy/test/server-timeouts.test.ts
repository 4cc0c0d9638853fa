// Slow clients (README, Security): the listening server closes a connection whose request
// headers do not arrive within HTTP_HEADERS_TIMEOUT_MS (default 10 s) and a request not complete
// within HTTP_REQUEST_TIMEOUT_MS (default 30 s). Node's defaults held them 60-90 s and 300 s.
// An idle keep-alive connection stays open HTTP_KEEP_ALIVE_TIMEOUT_MS (default 65 s), longer than
// the load balancers' idle timeout in front of it.
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createProxyConfig, startProxy, type RunningProxy } from '@vexil/proxy'
import { serverTimeoutOptions } from '../src/http/server-timeouts.js'
import { startFakeUpstream, type FakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'

const FEATURES = { version: 2, features: [{ name: 'on', enabled: true, strategies: [{ name: 'default' }] }] }
const REQUIRED = { SERVICE_URL: 'http://127.0.0.1:1/api', SERVICE_API_TOKEN: 't', SERVICE_PROXY_CLIENT_KEYS: 'k' }

let upstream: FakeUpstream | undefined
let running: RunningProxy | undefined
afterEach(async () => {
  await running?.close()
  await upstream?.close()
  running = undefined
  upstream = undefined
})

async function start(env: Record<string, string>): Promise<RunningProxy> {
  upstream = await startFakeUpstream(FEATURES)
  running = await startProxy({
    showURL: false,
    env: {
      SERVICE_URL: upstream.url,
      SERVICE_API_TOKEN: 't',
      SERVICE_PROXY_CLIENT_KEYS: 'k',
      HOST: '127.0.0.1',
      PORT: '0',
      STORAGE_PROVIDER: 'memory',
      SERVICE_METRICS_INTERVAL: '0',
      ...env,
    },
  })
  await expect.poll(() => running!.app.ready, { timeout: 5_000 }).toBe(true)
  return running
}

/** Writes `first`, then each of `then` every `everyMs`; resolves when the proxy closes the connection. */
function holdOpen(
  port: number,
  first: string,
  then: string[] = [],
  everyMs = 100,
): Promise<{ ms: number; answer: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    let answer = ''
    const socket = connect(port, '127.0.0.1', () => socket.write(first))
    const trickle = setInterval(() => {
      const next = then.shift()
      if (next !== undefined && !socket.destroyed) socket.write(next)
    }, everyMs)
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error('the proxy kept the connection open for 10 s'))
    }, 10_000)
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => (answer += chunk))
    socket.on('error', () => undefined)
    socket.on('close', () => {
      clearInterval(trickle)
      clearTimeout(timer)
      resolve({ ms: performance.now() - started, answer })
    })
  })
}

describe('slow clients', () => {
  it('a connection that sends part of a request line and then nothing is closed within the headers timeout', async () => {
    const proxy = await start({ HTTP_HEADERS_TIMEOUT_MS: '300', HTTP_REQUEST_TIMEOUT_MS: '2000' })
    const { ms, answer } = await holdOpen(proxy.port, 'GET /pro')
    expect(ms).toBeGreaterThanOrEqual(250)
    expect(ms).toBeLessThan(1_500)
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
  })

  it('headers sent one byte at a time are cut off at the headers timeout too', async () => {
    const proxy = await start({ HTTP_HEADERS_TIMEOUT_MS: '400', HTTP_REQUEST_TIMEOUT_MS: '2000' })
    const { ms } = await holdOpen(
      proxy.port,
      'G',
      'ET /proxy HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'.split(''),
      50,
    )
    expect(ms).toBeLessThan(1_500)
  })

  it('a body that trickles in is cut off at the request timeout', async () => {
    const proxy = await start({ HTTP_HEADERS_TIMEOUT_MS: '300', HTTP_REQUEST_TIMEOUT_MS: '800' })
    const head =
      'POST /proxy HTTP/1.1\r\nHost: x\r\nAuthorization: k\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{'
    const { ms } = await holdOpen(
      proxy.port,
      head,
      Array.from({ length: 100 }, () => ' '),
      100,
    )
    expect(ms).toBeGreaterThanOrEqual(700)
    expect(ms).toBeLessThan(2_500)
  })

  it('a prompt request on the same settings is answered', async () => {
    const proxy = await start({ HTTP_HEADERS_TIMEOUT_MS: '300', HTTP_REQUEST_TIMEOUT_MS: '800' })
    const res = await fetch(`http://127.0.0.1:${proxy.port}/proxy/health`)
    expect(res.status).toBe(200)
  })
})

describe('keep-alive', () => {
  it('keeps an idle connection open past the old 5 s default, and tells the client 65 s', async () => {
    const proxy = await start({})
    const socket = connect(proxy.port, '127.0.0.1')
    let answer = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => (answer += chunk))
    const ask = async () => {
      answer = ''
      socket.write('GET /proxy/health HTTP/1.1\r\nHost: x\r\n\r\n')
      await expect.poll(() => answer, { timeout: 2_000 }).toMatch(/\r\n\r\nok$/)
      return answer
    }
    try {
      expect(await ask()).toMatch(/\r\nKeep-Alive: timeout=65\r\n/i)
      await new Promise((resolve) => setTimeout(resolve, 5_500))
      expect(socket.destroyed).toBe(false)
      expect(await ask()).toMatch(/^HTTP\/1\.1 200 /)
    } finally {
      socket.destroy()
    }
  }, 15_000)
})

describe('timeout configuration', () => {
  it('defaults to 10 s for headers, 30 s per request and 65 s idle keep-alive, longer than a 60 s load balancer idle timeout', async () => {
    const timeouts = (await createProxyConfig({}, REQUIRED)).serverTimeouts
    expect(timeouts).toEqual({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 65_000 })
    expect(serverTimeoutOptions(timeouts)).toEqual({
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 65_000,
      connectionsCheckingInterval: 1_000,
    })
  })

  it('reads HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS and HTTP_KEEP_ALIVE_TIMEOUT_MS; code options win', async () => {
    const env = {
      ...REQUIRED,
      HTTP_HEADERS_TIMEOUT_MS: '2000',
      HTTP_REQUEST_TIMEOUT_MS: '4000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000',
    }
    expect((await createProxyConfig({}, env)).serverTimeouts).toEqual({
      headersMs: 2_000,
      requestMs: 4_000,
      keepAliveMs: 65_000,
    })
    expect((await createProxyConfig({ serverTimeouts: { headersMs: 1_000 } }, env)).serverTimeouts.headersMs).toBe(
      1_000,
    )
  })

  it.each([
    [{ HTTP_HEADERS_TIMEOUT_MS: '0' }, /HTTP_HEADERS_TIMEOUT_MS must be between 1/],
    [{ HTTP_REQUEST_TIMEOUT_MS: 'soon' }, /HTTP_REQUEST_TIMEOUT_MS must be a whole number/],
    [
      { HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '1000' },
      /HTTP_REQUEST_TIMEOUT_MS must be at least HTTP_HEADERS_TIMEOUT_MS/,
    ],
    [{ HTTP_KEEP_ALIVE_TIMEOUT_MS: '0' }, /HTTP_KEEP_ALIVE_TIMEOUT_MS must be between 1/],
  ])('refuses %j', async (env, message) => {
    await expect(createProxyConfig({}, { ...REQUIRED, ...env })).rejects.toThrow(message)
  })
})
