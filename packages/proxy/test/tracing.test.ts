// The proxy traced over OTLP/HTTP (docs/operations.md, "Tracing"), run as users run it: the
// vexil-proxy command as a child process, exporting to an OTLP receiver on 127.0.0.1 that
// decodes what arrives. Without OTEL_* variables the process loads no OpenTelemetry module.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createProxyConfig } from '@vexil/proxy'
import { startTracing, type TracingSdk } from '@vexil/server-kit/tracing'
import { type FakeUpstream, startFakeUpstream, type ValidToken } from '@vexil/test-fixtures/fake-upstream.ts'
import { type OtlpReceiver, startOtlpReceiver } from '@vexil/test-fixtures/otlp-receiver.ts'
import { freePort } from '@vexil/test-fixtures/ports.ts'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'
import { waitFor } from '@vexil/test-fixtures/wait-for.ts'
import { bundleWorker } from '../scripts/bundle-worker.mjs'
import { serveProxy, type RunningProxy } from '../src/server.js'

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const PRELOAD = fileURLToPath(new URL('../../../test-fixtures/src/opentelemetry-loads.cjs', import.meta.url))
const CLIENT_KEY = 'client-key-traced'
const FRONTEND_TOKEN = 'default:development.frontend-traced'
const SERVER_TOKEN = 'default:development.server-traced'
/** What the upstream's /edge/validate lists: the proxy's own token, whose scope serves the frontend token's. */
const VALID_TOKENS: ValidToken[] = [
  { token: SERVER_TOKEN, type: 'client', projects: ['*'], environment: 'development' },
  { token: FRONTEND_TOKEN, type: 'frontend', projects: ['*'], environment: 'development' },
]
const FEATURES = { version: 2, features: [{ name: 'on', enabled: true, strategies: [{ name: 'default' }] }] }
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736'
const PARENT_ID = '00f067aa0ba902b7'
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`
const SERVER = 2
const CLIENT = 3

interface Exited {
  code: number | null
  stdout: string
  stderr: string
}

/** The proxy CLI, started; `stop` sends SIGTERM and resolves with its exit and output. */
async function startCli(env: Record<string, string>): Promise<{ url: string; stop(): Promise<Exited> }> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first (npm ci does)`)
  const port = await freePort()
  const child: ChildProcess = spawn(process.execPath, ['--require', PRELOAD, CLI], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk))
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk))
  const exited = new Promise<Exited>((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })))
  const kill = setTimeout(() => child.kill('SIGKILL'), 25_000)
  await waitFor(async () => /listening on/.test(stdout) || child.exitCode !== null, 'the proxy to listen', 15_000)
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM')
      const result = await exited
      clearTimeout(kill)
      return result
    },
  }
}

function loadedModules(stderr: string): string[] {
  const line = /OPENTELEMETRY-LOADED: (.*)/.exec(stderr)
  if (!line) throw new Error(`the preload wrote no OPENTELEMETRY-LOADED line:\n${stderr}`)
  return line[1]!.split(' ').filter(Boolean)
}

describe('vexil-proxy with OTEL_* variables', () => {
  let upstream: FakeUpstream
  let receiver: OtlpReceiver
  beforeAll(async () => {
    upstream = await startFakeUpstream(FEATURES)
    receiver = await startOtlpReceiver()
  })
  afterAll(async () => {
    await upstream.close()
    await receiver.close()
  })

  const proxyEnv = () => ({
    SERVICE_URL: upstream.url,
    SERVICE_API_TOKEN: 'default:development.server-traced',
    SERVICE_PROXY_CLIENT_KEYS: CLIENT_KEY,
  })

  it("exports a SERVER span per request under the caller's traceparent, and a CLIENT span per upstream call whose traceparent the upstream received", async () => {
    const proxy = await startCli({
      ...proxyEnv(),
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'edge-eu',
    })
    await upstream.waitFor((requests) => requests.some((request) => request.path === '/client/features'))
    const answer = await fetch(`${proxy.url}/proxy?userId=1`, {
      headers: { authorization: CLIENT_KEY, traceparent: TRACEPARENT },
    })
    expect(answer.status).toBe(200)
    expect((await fetch(`${proxy.url}/made-up/${'x'.repeat(40)}`)).status).toBe(404)
    const exited = await proxy.stop()
    expect(exited.code, exited.stderr).toBe(0)
    expect(exited.stdout + exited.stderr).toContain(
      `Exporting traces to ${receiver.url}/v1/traces (http/json) as service edge-eu`,
    )
    expect(loadedModules(exited.stderr)).toEqual(
      expect.arrayContaining(['@opentelemetry/api', '@opentelemetry/sdk-trace']),
    )

    const spans = receiver.spans()
    const served = spans.filter((span) => span.kind === SERVER)
    expect(served.find((span) => span.traceId === TRACE_ID)).toMatchObject({
      parentSpanId: PARENT_ID,
      name: 'GET /proxy',
      scope: '@vexil/proxy',
      attributes: { 'http.request.method': 'GET', 'http.route': '/proxy', 'http.response.status_code': 200 },
      resource: { 'service.name': 'edge-eu' },
    })
    // A path no route declares is named by its method alone: no label grows with what callers send.
    expect(served.find((span) => span.attributes['http.response.status_code'] === 404)).toMatchObject({ name: 'GET' })
    expect(served.find((span) => span.attributes['http.response.status_code'] === 404)?.attributes).not.toHaveProperty(
      'http.route',
    )

    const polls = spans.filter((span) => span.kind === CLIENT && span.name === 'GET /api/client/features')
    expect(polls.length).toBeGreaterThan(0)
    const sent = new Set(upstream.requestsTo('/client/features').map((request) => request.headers.traceparent))
    for (const poll of polls) expect(sent).toContain(`00-${poll.traceId}-${poll.spanId}-01`)
    expect(polls[0]!.attributes).toMatchObject({ 'http.request.method': 'GET', 'server.address': '127.0.0.1' })
    // Registration and the metrics sent on stop are upstream calls too.
    const posts = spans.filter((span) => span.kind === CLIENT && span.name.startsWith('POST '))
    expect(posts.map((span) => span.name)).toContain('POST /api/client/register')
  })

  it("with WORKERS=2, exports each worker's requests and the primary's upstream calls, a new token's validation a child of the request that caused it", async () => {
    upstream.setValidTokens(VALID_TOKENS)
    receiver.exports.length = 0
    // A directory of its own: no backup from an earlier run knows the token already.
    const backups = tempDir('tracing-cluster')
    const proxy = await startCli({
      ...proxyEnv(),
      STORAGE_FILE_DIRECTORY: backups.path,
      WORKERS: '2',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    })
    await waitFor(
      async () => (await fetch(`${proxy.url}/proxy`, { headers: { authorization: CLIENT_KEY } })).status === 200,
      'the cluster to answer from its first fetch',
    )
    const answer = await fetch(`${proxy.url}/api/frontend`, {
      headers: { authorization: FRONTEND_TOKEN, traceparent: TRACEPARENT },
    })
    expect(answer.status).toBe(200)
    const exited = await proxy.stop()
    backups.remove()
    expect(exited.code, exited.stderr).toBe(0)
    expect(exited.stdout + exited.stderr).not.toContain('exports no traces')

    const spans = receiver.spans()
    const request = spans.find((span) => span.kind === SERVER && span.traceId === TRACE_ID)
    expect(request).toMatchObject({
      parentSpanId: PARENT_ID,
      name: 'GET /api/frontend',
      attributes: { 'http.route': '/api/frontend', 'http.response.status_code': 200 },
    })
    const validation = spans.find(
      (span) => span.kind === CLIENT && span.name === 'POST /edge/validate' && span.traceId === TRACE_ID,
    )
    expect(validation?.parentSpanId).toBe(request!.spanId)
    const sent = upstream.requestsTo('/edge/validate').map((call) => call.headers.traceparent)
    expect(sent).toContain(`00-${TRACE_ID}-${validation!.spanId}-01`)
    // The request was answered by a worker, the validation sent by the primary: two processes, one trace.
    expect(request!.resource['process.pid']).not.toBe(validation!.resource['process.pid'])
    expect(spans.some((span) => span.kind === CLIENT && span.name === 'GET /api/client/features')).toBe(true)
  })

  it('loads no OpenTelemetry module without them', async () => {
    const proxy = await startCli(proxyEnv())
    await waitFor(
      async () => (await fetch(`${proxy.url}/proxy`, { headers: { authorization: CLIENT_KEY } })).status === 200,
      'the proxy to answer from its first fetch',
    )
    const exited = await proxy.stop()
    expect(exited.code, exited.stderr).toBe(0)
    // prom-client's process CPU metric loads the API (for exemplars) in any proxy; no SDK module loads.
    expect(loadedModules(exited.stderr).filter((name) => name !== '@opentelemetry/api')).toEqual([])
    expect(exited.stdout + exited.stderr).not.toContain('Exporting traces')
  })

  it('refuses an OTLP protocol it cannot send, naming the variable', async () => {
    const proxy = await startCli({
      ...proxyEnv(),
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    })
    const exited = await proxy.stop()
    expect(exited.code).toBe(1)
    expect(exited.stderr).toContain('OTEL_EXPORTER_OTLP_PROTOCOL')
  })
})

describe('a frontend token seen first', () => {
  let upstream: FakeUpstream
  let receiver: OtlpReceiver
  let sdk: TracingSdk | undefined
  let proxy: RunningProxy | undefined
  beforeAll(async () => {
    upstream = await startFakeUpstream(FEATURES)
    upstream.setValidTokens(VALID_TOKENS)
    receiver = await startOtlpReceiver()
  })
  afterEach(async () => {
    await proxy?.close()
    await sdk?.shutdown()
    receiver.exports.length = 0
  })
  afterAll(async () => {
    await upstream.close()
    await receiver.close()
  })

  /** A traced proxy in this process, without a backup: the token is new to it, as on a first run. */
  async function startTraced(env: Record<string, string>): Promise<RunningProxy> {
    sdk = await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...env }, 'vexil-proxy')
    const config = await createProxyConfig(
      { host: '127.0.0.1', port: 0, serviceUrl: upstream.url, serviceApiToken: SERVER_TOKEN, clientKeys: [CLIENT_KEY] },
      { PATH: process.env.PATH },
    )
    proxy = await serveProxy(config, { tracing: sdk!.tracing('proxy'), storage: null }, false)
    const started = proxy
    await waitFor(
      async () => (await fetch(started.url, { headers: { authorization: CLIENT_KEY } })).status === 200,
      'the proxy to answer from its first fetch',
    )
    return started
  }

  it('is validated upstream by a traced call that carries its traceparent (protobuf by default)', async () => {
    proxy = await startTraced({})
    const frontend = proxy.url.replace(/\/proxy$/, '/api/frontend')
    const headers = { authorization: FRONTEND_TOKEN, traceparent: TRACEPARENT }
    // Its first use asks the upstream whether it is valid.
    await fetch(frontend, { headers })
    await upstream.waitFor((requests) => requests.some((request) => request.path === '/edge/validate'))
    const [validation] = upstream.requests.filter((request) => request.path === '/edge/validate')
    expect(validation?.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/)
    // Traced calls are still counted for Prometheus.
    const scrape = await (await fetch(proxy.url.replace(/\/proxy$/, '/internal-backstage/metrics'))).text()
    expect(scrape).toMatch(/^vexil_proxy_upstream_requests_total\{kind="validation",outcome="ok"\} [1-9]/m)
    await proxy.close()
    proxy = undefined
    await sdk!.shutdown()
    sdk = undefined
    expect(receiver.exports.length).toBeGreaterThan(0)
    expect(receiver.exports.every((received) => received.contentType === 'application/x-protobuf')).toBe(true)
    const body = Buffer.concat(receiver.exports.map((received) => received.body))
    expect(body.includes(Buffer.from(TRACE_ID, 'hex'))).toBe(true)
    expect(body.includes(Buffer.from(validation!.headers.traceparent!.toString().split('-')[1]!, 'hex'))).toBe(true)
  })

  it("is the parent of the validation and the token's check, in the caller's trace", async () => {
    proxy = await startTraced({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })
    const frontend = proxy.url.replace(/\/proxy$/, '/api/frontend')
    expect(
      (await fetch(frontend, { headers: { authorization: FRONTEND_TOKEN, traceparent: TRACEPARENT } })).status,
    ).toBe(200)
    // Known now: the second request causes no upstream call and gets its span after the fact.
    expect((await fetch(frontend, { headers: { authorization: FRONTEND_TOKEN } })).status).toBe(200)
    await proxy.close()
    proxy = undefined
    await sdk!.shutdown()
    sdk = undefined

    const spans = receiver.spans()
    const request = spans.find((span) => span.kind === SERVER && span.traceId === TRACE_ID)!
    expect(request).toMatchObject({ parentSpanId: PARENT_ID, name: 'GET /api/frontend' })
    const caused = spans.filter((span) => span.kind === CLIENT && span.parentSpanId === request.spanId)
    expect(caused.map((span) => span.name).sort()).toEqual([
      'GET /api/frontend/features/vexil-token-check',
      'POST /edge/validate',
    ])
    expect(caused.every((span) => span.traceId === TRACE_ID)).toBe(true)
    // The poll and the registration belong to no request: each starts a trace of its own.
    const own = spans.filter((span) => span.kind === CLIENT && span.name === 'GET /api/client/features')
    expect(own.length).toBeGreaterThan(0)
    expect(own.every((span) => span.parentSpanId === undefined)).toBe(true)
    expect(spans.filter((span) => span.kind === SERVER && span.name === 'GET /api/frontend')).toHaveLength(2)
  })
})

describe('the Cloudflare Worker bundle', () => {
  it('contains no module of the OpenTelemetry SDK', async () => {
    const dir = tempDir('worker-bundle-tracing')
    try {
      const bundle = await bundleWorker({ outfile: `${dir.path}/worker.js`, fromSource: true })
      const inputs = Object.keys(bundle.metafile.inputs)
      expect(inputs.some((path) => path.includes('server-kit/src/index.ts'))).toBe(true)
      // prom-client (the Prometheus scrape) brings the API package, as it always has; nothing of the SDK comes.
      const traced = inputs.filter(
        (path) =>
          path.includes('/tracing/') ||
          (path.includes('@opentelemetry/') && !path.startsWith('node_modules/@opentelemetry/api/')),
      )
      expect(traced).toEqual([])
      for (const sdkPackage of ['sdk-trace', 'exporter-trace-otlp', 'otlp-transformer', 'resources'])
        expect(readFileSync(bundle.outfile, 'utf8')).not.toContain(`@opentelemetry/${sdkPackage}`)
    } finally {
      dir.remove()
    }
  }, 60_000)
})
