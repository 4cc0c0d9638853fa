// The proxy as a Cloudflare Worker (src/runtime/cloudflare-worker/entry.ts), bundled as users
// deploy it and run in workerd (Cloudflare's runtime, from npm) on 127.0.0.1 against a test
// upstream, beside the Node proxy on the same upstream: the same requests get the same statuses,
// headers and bodies; a flag change upstream shows within the refresh interval without any
// long-lived timer; usage counts reach the upstream; the last good payload is kept in KV and
// served by a new isolate while the upstream is down.
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net'
import { gunzipSync, gzipSync, inflateSync, brotliDecompressSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeUpstream, type FakeUpstream, type ValidToken } from '@vexil/test-fixtures/fake-upstream.ts'
import { rawRequest, type RawResponse } from '@vexil/test-fixtures/raw-request.ts'
import { runtimeAvailable } from '@vexil/test-fixtures/runtimes.ts'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'
import { makeFeatures } from '@vexil/test-fixtures/workload.ts'
import { type KvStore, type RunningWorkerd, startKvStore, startWorkerd } from '@vexil/test-fixtures/workerd.ts'
import { bundleWorker } from '../scripts/bundle-worker.mjs'
import { CLIENT_KEY, startTestProxy, type TestProxy } from './helpers/proxy.js'

const available = runtimeAvailable('workerd')
const UPSTREAM_TOKEN = 'upstream-token-secret'
const FRONTEND_TOKEN = '*:development.frontendtokensecret'
const CLIENT_TOKEN = '*:development.clienttokensecret'
const VALID: ValidToken[] = [
  { token: FRONTEND_TOKEN, type: 'frontend', projects: ['*'], environment: 'development' },
  { token: CLIENT_TOKEN, type: 'client', projects: ['*'], environment: 'development' },
]
const FETCH_INTERVAL_MS = 1_000

describe.runIf(available)('the proxy as a Cloudflare Worker, in workerd', () => {
  let upstream: FakeUpstream
  let kv: KvStore
  let node: TestProxy
  let worker: RunningWorkerd
  let bundle: { outfile: string; bytes: number; gzipBytes: number }
  const bundleDir = tempDir('worker-bundle')
  const vars = (serviceUrl: string) => ({
    SERVICE_URL: serviceUrl,
    SERVICE_API_TOKEN: UPSTREAM_TOKEN,
    SERVICE_PROXY_CLIENT_KEYS: CLIENT_KEY,
    SERVICE_FETCH_INTERVAL: String(FETCH_INTERVAL_MS),
    SERVICE_METRICS_INTERVAL: '1000',
    ENABLE_ALL_ENDPOINT: 'true',
    ENABLE_OAS: 'true',
    LOG_LEVEL: 'info',
  })

  beforeAll(async () => {
    upstream = await startFakeUpstream(makeFeatures(60, 3))
    upstream.setValidTokens(VALID)
    kv = await startKvStore()
    bundle = await bundleWorker({ outfile: `${bundleDir.path}/worker.js`, fromSource: true })
    worker = await startWorkerd({ module: bundle.outfile, vars: vars(upstream.url), kv })
    // STREAMING is off in a Worker (a stream cannot outlive its request): compared with a Node proxy configured so.
    node = await startTestProxy(upstream.url, { enableAllEndpoint: true, enableOAS: true, streaming: false })
  }, 60_000)

  afterAll(async () => {
    await worker?.stop()
    await node?.close()
    await kv?.close()
    await upstream?.close()
    bundleDir.remove()
  })

  it('is one ES module that keeps the Node-only dependencies out', () => {
    console.log(
      `Worker bundle: ${(bundle.bytes / 1024).toFixed(0)} KiB, ${(bundle.gzipBytes / 1024).toFixed(0)} KiB gzip`,
    )
    // Cloudflare's limit for a Worker on the free plan is 3 MB gzip; ours stays far below it
    // (the line above prints today's size).
    expect(bundle.gzipBytes).toBeLessThan(300 * 1024)
  })

  // Every context carries a sessionId: without one the proxy draws a random one per request (as
  // the old proxy did), and sessionId-sticky rollouts differ between any two requests. The
  // Worker learns the caller's address from Cloudflare's CF-Connecting-IP (Node ignores it), so
  // both see 127.0.0.1 as remoteAddress.
  const key = { authorization: CLIENT_KEY, 'cf-connecting-ip': '127.0.0.1' }
  const json = { ...key, 'content-type': 'application/json' }
  const requests: Array<{
    name: string
    method: string
    path: string
    headers?: Record<string, string>
    body?: string | Buffer
    ownMessage?: true
    newScope?: true
  }> = [
    { name: 'GET /proxy', method: 'GET', path: '/proxy?userId=42&sessionId=s42&properties[region]=eu', headers: key },
    { name: 'GET /proxy, another user', method: 'GET', path: '/proxy?userId=7&sessionId=s1', headers: key },
    {
      name: 'GET /proxy, gzip accepted',
      method: 'GET',
      path: '/proxy?userId=42&sessionId=s42',
      headers: { ...key, 'accept-encoding': 'gzip' },
    },
    { name: 'HEAD /proxy', method: 'HEAD', path: '/proxy?userId=42&sessionId=s42', headers: key },
    { name: 'GET /proxy/all', method: 'GET', path: '/proxy/all?userId=42&sessionId=s42', headers: key },
    {
      name: 'POST /proxy',
      method: 'POST',
      path: '/proxy',
      headers: json,
      body: JSON.stringify({ context: { userId: '42', sessionId: 's42', properties: { region: 'eu' } } }),
    },
    {
      name: 'POST /proxy with toggles',
      method: 'POST',
      path: '/proxy',
      headers: json,
      body: JSON.stringify({ context: { userId: '3' }, toggles: ['web.feature-1', 'web.feature-2', 'nope'] }),
    },
    {
      name: 'POST /proxy, gzip body',
      method: 'POST',
      path: '/proxy',
      headers: { ...json, 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ context: { userId: '9', sessionId: 's9' } })),
    },
    // The runtime's own decompressor names the fault in its own words: status and headers equal.
    {
      name: '400 broken gzip body',
      method: 'POST',
      path: '/proxy',
      headers: { ...json, 'content-encoding': 'gzip' },
      body: 'not gzip',
      ownMessage: true,
    },
    { name: '401 without a key', method: 'GET', path: '/proxy?userId=1' },
    { name: '401 with a wrong key', method: 'GET', path: '/proxy', headers: { authorization: 'nope' } },
    { name: '404 unknown path', method: 'GET', path: '/nope', headers: key },
    {
      name: '415 text body',
      method: 'POST',
      path: '/proxy',
      headers: { ...key, 'content-type': 'text/plain' },
      body: 'hi',
    },
    { name: '415 br body', method: 'POST', path: '/proxy', headers: { ...json, 'content-encoding': 'br' }, body: '{}' },
    { name: '400 not JSON', method: 'POST', path: '/proxy', headers: json, body: 'nope' },
    {
      name: '400 bad context',
      method: 'POST',
      path: '/proxy',
      headers: json,
      body: JSON.stringify({ context: { userId: 5, properties: 'x' } }),
    },
    {
      name: '413 oversize body',
      method: 'POST',
      path: '/proxy',
      headers: json,
      body: JSON.stringify({ context: { userId: 'x'.repeat(110_000) } }),
    },
    {
      name: 'OPTIONS preflight',
      method: 'OPTIONS',
      path: '/proxy',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    },
    { name: 'health', method: 'GET', path: '/proxy/health' },
    { name: 'ready', method: 'GET', path: '/internal-backstage/ready' },
    {
      name: 'client metrics',
      method: 'POST',
      path: '/proxy/client/metrics',
      headers: json,
      body: JSON.stringify({
        appName: 'web',
        instanceId: 'i',
        bucket: {
          start: new Date().toISOString(),
          stop: new Date().toISOString(),
          toggles: { 'web.feature-1': { yes: 3, no: 1, variants: {} } },
        },
      }),
    },
    {
      name: 'client metrics, invalid',
      method: 'POST',
      path: '/proxy/client/metrics',
      headers: json,
      body: '{"appName":1}',
    },
    {
      name: 'GET /api/frontend',
      method: 'GET',
      path: '/api/frontend?userId=42',
      headers: { authorization: FRONTEND_TOKEN, origin: 'https://app.example' },
    },
    {
      name: 'POST /api/frontend',
      method: 'POST',
      path: '/api/frontend',
      headers: { authorization: FRONTEND_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ context: { userId: '42' } }),
    },
    {
      name: '/api/frontend, unknown token',
      method: 'GET',
      path: '/api/frontend',
      headers: { authorization: '*:development.unknown' },
    },
    {
      name: 'GET /api/client/features',
      method: 'GET',
      path: '/api/client/features',
      headers: { authorization: CLIENT_TOKEN },
    },
    // The client token learnt just above gave the development scope its own sync: until its first
    // fetch lands, a proxy answers that scope 503 (Node and Worker alike), so both are compared once ready.
    {
      name: 'OFREP bulk',
      method: 'POST',
      path: '/ofrep/v1/evaluate/flags',
      headers: { ...json, authorization: FRONTEND_TOKEN },
      body: JSON.stringify({ context: { targetingKey: '42' } }),
      newScope: true,
    },
    {
      name: 'OFREP one flag',
      method: 'POST',
      path: '/ofrep/v1/evaluate/flags/web.feature-1',
      headers: { ...json, authorization: FRONTEND_TOKEN },
      body: JSON.stringify({ context: { targetingKey: '42' } }),
    },
    {
      name: 'OFREP unknown flag',
      method: 'POST',
      path: '/ofrep/v1/evaluate/flags/nope',
      headers: { ...json, authorization: FRONTEND_TOKEN },
      body: '{}',
    },
    {
      name: 'streaming is off: 404',
      method: 'GET',
      path: '/api/client/streaming',
      headers: { authorization: CLIENT_TOKEN },
    },
    { name: 'the OpenAPI document (ENABLE_OAS)', method: 'GET', path: '/docs/openapi.json' },
  ]

  /** What must be equal: status, the headers a client reads, and the body (decoded). */
  function comparable(res: RawResponse, method: string) {
    const headers: Record<string, string | undefined> = {}
    for (const name of [
      'content-type',
      'etag',
      'vary',
      'cache-control',
      'access-control-allow-origin',
      'access-control-allow-credentials',
      'access-control-allow-methods',
      'access-control-allow-headers',
      'access-control-expose-headers',
      'access-control-max-age',
      'allow',
    ]) {
      const value = res.headers[name]
      headers[name] = Array.isArray(value) ? value.join(', ') : value
    }
    const encoding = res.headers['content-encoding']
    const body =
      encoding === 'gzip'
        ? gunzipSync(res.raw)
        : encoding === 'deflate'
          ? inflateSync(res.raw)
          : encoding === 'br'
            ? brotliDecompressSync(res.raw)
            : res.raw
    return { status: res.status, headers, encoding, body: method === 'HEAD' ? '' : body.toString('utf8') }
  }

  it.each(requests)('$name: the same answer as the Node proxy', async (request) => {
    // The Node proxy evaluates first; the Worker is then asked exactly the same.
    const send = (base: string) =>
      rawRequest(base, request.method, request.path, { headers: request.headers ?? {}, body: request.body })
    if (request.newScope) {
      for (const base of [node.url, worker.url]) {
        const deadline = Date.now() + 10_000
        while ((await send(base)).status === 503 && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 50))
      }
    }
    const fromNode = comparable(await send(node.url), request.method)
    const fromWorker = comparable(await send(worker.url), request.method)
    if (request.ownMessage) {
      // (The ETag is the body's.)
      const withoutBody = (answer: typeof fromNode) => ({
        ...answer,
        body: undefined,
        headers: { ...answer.headers, etag: undefined },
      })
      expect(withoutBody(fromWorker)).toEqual(withoutBody(fromNode))
      expect(Object.keys(JSON.parse(fromWorker.body) as object)).toEqual(
        Object.keys(JSON.parse(fromNode.body) as object),
      )
    } else {
      if (fromWorker.status !== fromNode.status) console.log(worker.logs().slice(-3000))
      expect(fromWorker).toEqual(fromNode)
    }
  })

  it('serves the OpenAPI document but not the Swagger UI page, whose files stay out of the bundle', async () => {
    expect((await rawRequest(node.url, 'GET', '/docs/openapi/')).status).toBe(200)
    for (const path of ['/docs/openapi/', '/docs/openapi', '/docs/openapi/swagger-ui.css'])
      expect((await rawRequest(worker.url, 'GET', path)).status, path).toBe(404)
    expect((await rawRequest(worker.url, 'GET', '/proxy/health')).status).toBe(200)
  })

  it('answers 304 to an unchanged ETag, as Node does', async () => {
    const first = await rawRequest(worker.url, 'GET', '/proxy?userId=42&sessionId=s42', { headers: key })
    const again = await rawRequest(worker.url, 'GET', '/proxy?userId=42&sessionId=s42', {
      headers: { ...key, 'if-none-match': String(first.headers.etag) },
    })
    expect(again.status).toBe(304)
    expect(again.raw.length).toBe(0)
    expect(again.headers.etag).toBe(first.headers.etag)
  })

  it('shows a flag change upstream within the refresh interval, driven by requests alone', async () => {
    const changed = makeFeatures(60, 3)
    changed.features.push({
      name: 'worker-new-flag',
      enabled: true,
      strategies: [{ name: 'default', parameters: {}, constraints: [] }],
    } as never)
    const fetchesBefore = upstream.requestsTo('/client/features').length
    upstream.setFeatures(changed)
    const changedAt = Date.now()
    let seenAt: number | undefined
    while (Date.now() - changedAt < 10 * FETCH_INTERVAL_MS) {
      const res = await rawRequest(worker.url, 'GET', `/proxy?userId=u${Date.now()}`, { headers: key })
      if (res.text.includes('worker-new-flag')) {
        seenAt = Date.now()
        break
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(seenAt).toBeDefined()
    // Within the interval, plus the request that runs the due poll and the one that sees it.
    expect(seenAt! - changedAt).toBeLessThan(FETCH_INTERVAL_MS * 2 + 1_000)
    // Polled at the interval, not on every request.
    const fetches = upstream.requestsTo('/client/features').length - fetchesBefore
    expect(fetches).toBeLessThanOrEqual(Math.ceil((seenAt! - changedAt) / FETCH_INTERVAL_MS) + 2)
  })

  it('sends the usage counts upstream at the metrics interval', async () => {
    const now = new Date().toISOString()
    const posted = await rawRequest(worker.url, 'POST', '/proxy/client/metrics', {
      headers: json,
      body: JSON.stringify({
        appName: 'web',
        instanceId: 'i',
        bucket: { start: now, stop: now, toggles: { 'web.feature-1': { yes: 5, no: 2, variants: {} } } },
      }),
    })
    expect(posted.status).toBe(200)
    // Requests drive the due report (a cron trigger would too).
    const deadline = Date.now() + 10_000
    let counted = 0
    while (Date.now() < deadline) {
      await rawRequest(worker.url, 'GET', '/proxy/health')
      counted = upstream
        .requestsTo('/client/metrics')
        .map(
          (request) =>
            (JSON.parse(request.body) as { bucket: { toggles: Record<string, { yes: number }> } }).bucket.toggles[
              'web.feature-1'
            ]?.yes ?? 0,
        )
        .reduce((sum, yes) => sum + yes, 0)
      if (counted >= 5) break
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(counted).toBeGreaterThanOrEqual(5)
    expect(upstream.requestsTo('/client/register').length).toBeGreaterThanOrEqual(1)
  })

  it('keeps the last good payload in KV: a new isolate serves it while the upstream is down', async () => {
    const stored = [...kv.entries.keys()]
    expect(stored).toContain('vexil:proxy:service-proxy')
    const expected = await rawRequest(worker.url, 'GET', '/proxy?userId=42&sessionId=s42', { headers: key })
    await worker.stop()
    // The upstream's address answers nothing now: a refused connection on every poll.
    const down = await startFakeUpstream()
    await down.close()
    worker = await startWorkerd({ module: bundle.outfile, vars: vars(down.url), kv })
    const fromBackup = await rawRequest(worker.url, 'GET', '/proxy?userId=42&sessionId=s42', { headers: key })
    expect(fromBackup.status).toBe(200)
    expect(fromBackup.json).toEqual(expected.json)
  })

  it("answers a new isolate's first request from the KV copy at once when the upstream hangs", async () => {
    const expected = await rawRequest(worker.url, 'GET', '/proxy?userId=42&sessionId=s42', { headers: key })
    await worker.stop()
    // An upstream that accepts connections and never answers: the first fetch would take the
    // whole upstream timeout (10 s) before the copy was used.
    const sockets = new Set<Socket>()
    const hanging = createNetServer((socket) => void sockets.add(socket))
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve))
    try {
      const started = Date.now()
      worker = await startWorkerd({
        module: bundle.outfile,
        vars: vars(`http://127.0.0.1:${(hanging.address() as AddressInfo).port}/api`),
        kv,
      })
      const fromCopy = await rawRequest(worker.url, 'GET', '/proxy?userId=42&sessionId=s42', { headers: key })
      expect(fromCopy.status).toBe(200)
      expect(fromCopy.json).toEqual(expected.json)
      expect(Date.now() - started).toBeLessThan(5_000)
    } finally {
      for (const socket of sockets) socket.destroy()
      hanging.close()
    }
  })

  it('answers 503 (and says why in its log) when the configuration is invalid', async () => {
    const broken = await startWorkerd({ module: bundle.outfile, vars: { SERVICE_URL: upstream.url } })
    try {
      const res = await rawRequest(broken.url, 'GET', '/proxy', { headers: key })
      expect(res.status).toBe(503)
      expect(res.text).not.toContain(UPSTREAM_TOKEN)
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(broken.logs()).toContain('SERVICE_API_TOKEN')
    } finally {
      await broken.stop()
    }
  })
})
