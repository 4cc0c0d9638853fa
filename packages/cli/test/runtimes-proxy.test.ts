// The built proxy (packages/proxy/dist/cli.js, as users run it) under Bun and Deno (issue 23),
// beside the same proxy under Node, all three against one fake upstream with the 200-flag
// workload: every request of the list below goes to each, in the same order, and each runtime's
// answers must equal Node's: status, every header but the date, and the body (decompressed, and
// with the few values that are the runtime's or the clock's own left out, each saying why). The
// list covers every route family and error status; the route table's own examples add each route
// with and without its credential. What each proxy sent the upstream is compared too.
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { brotliDecompressSync, deflateSync, gunzipSync, gzipSync, inflateSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Context } from '@vexil/engine'
import type { RouteInstrument } from '@vexil/proxy'
import { type FakeUpstream, startFakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { freePort } from '@vexil/test-fixtures/ports.ts'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'
import { makeContexts, makeFeatures } from '@vexil/test-fixtures/workload.ts'
import {
  type Answer,
  answers,
  BUILT,
  OTHER_RUNTIMES,
  requireBuilt,
  type Runtime,
  type RuntimeServer,
  runtimeSuiteRuns,
  type Sent,
  send,
  startRuntimeServer,
} from './helpers/runtimes.js'

const CLIENT_KEY = 'runtimes-client-key'
const CLIENT_TOKEN = '*:development.runtimes-client-token'
const FRONTEND_TOKEN = '*:development.runtimes-frontend-token'
const SERVER_TOKEN = 'runtimes-server-side-token'
const ORIGIN = 'https://app.example'

const runtimes = OTHER_RUNTIMES.filter((runtime) => runtimeSuiteRuns(runtime, 'runtimes-proxy'))

// --- The requests ---

// Every request names a sessionId: without one the proxy invents a random one (as Unleash does),
// and no two answers could be compared.
const contexts = makeContexts(24, 23)
const query = (context: Context) => {
  const params = new URLSearchParams({
    appName: context.appName!,
    userId: context.userId!,
    sessionId: context.sessionId!,
    remoteAddress: context.remoteAddress!,
  })
  for (const [key, value] of Object.entries(context.properties ?? {}))
    params.append(`properties[${key}]`, String(value))
  return params.toString()
}
const KEY = { authorization: CLIENT_KEY }
const FRONTEND = { authorization: FRONTEND_TOKEN }
const CLIENT = { authorization: CLIENT_TOKEN }
const JSON_TYPE = { 'content-type': 'application/json' }
const get = (path: string, headers: Record<string, string> = {}): Sent => ({ method: 'GET', path, headers })
const post = (path: string, body: unknown, headers: Record<string, string> = {}): Sent => ({
  method: 'POST',
  path,
  headers: { ...JSON_TYPE, ...headers },
  body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
})
const preflight = (path: string, method = 'POST'): Sent => ({
  method: 'OPTIONS',
  path,
  headers: {
    origin: ORIGIN,
    'access-control-request-method': method,
    'access-control-request-headers': 'authorization,content-type',
  },
})
const metrics = {
  appName: 'runtimes',
  instanceId: 'runtimes-1',
  bucket: {
    start: '2026-01-01T00:00:00.000Z',
    stop: '2026-01-01T00:01:00.000Z',
    toggles: { 'web.feature-0': { yes: 3, no: 1, variants: {} } },
  },
}
const registration = {
  appName: 'runtimes',
  instanceId: 'runtimes-1',
  sdkVersion: 'unleash-client-js:3.0.0',
  strategies: ['default'],
  started: '2026-01-01T00:00:00.000Z',
  interval: 15000,
}
const context = { context: contexts[0] }
/** 150 kB of JSON: over the 100 kB body limit. */
const oversize = JSON.stringify({ context: { userId: '1', properties: { padding: 'x'.repeat(150 * 1024) } } })

/** One request of the list: a name for the test, what is sent, and how its answer is read. */
interface Step {
  name: string
  request: Sent
  /** Send it a second time with If-None-Match set to the first answer's ETag (the test compares both answers). */
  conditional?: boolean
  /** An event stream: its first event is the answer. */
  stream?: boolean
}

/** The end of a server-sent event. */
const firstEvent = (body: Buffer) => body.includes('\n\n')

const STEPS: Step[] = [
  ...contexts
    .slice(0, 6)
    .map((c, i) => ({ name: `GET /proxy, context ${i} in the query`, request: get(`/proxy?${query(c)}`, KEY) })),
  ...contexts.slice(6, 12).map((c, i) => ({
    name: `POST /proxy, context ${i + 6} in the body`,
    request: post('/proxy', { context: c }, KEY),
  })),
  { name: 'GET /proxy/all', request: get(`/proxy/all?${query(contexts[12]!)}`, KEY) },
  { name: 'POST /proxy/all', request: post('/proxy/all', { context: contexts[13] }, KEY) },
  { name: 'HEAD /proxy', request: { method: 'HEAD', path: `/proxy?${query(contexts[14]!)}`, headers: KEY } },
  { name: 'HEAD /proxy/all', request: { method: 'HEAD', path: '/proxy/all?userId=42&sessionId=42', headers: KEY } },
  {
    name: 'GET /proxy, then 304 with If-None-Match',
    request: get('/proxy?userId=42&sessionId=42', KEY),
    conditional: true,
  },
  {
    name: 'GET /proxy, gzip answer',
    request: get(`/proxy?${query(contexts[15]!)}`, { ...KEY, 'accept-encoding': 'gzip' }),
  },
  {
    name: 'GET /proxy, brotli answer',
    request: get(`/proxy?${query(contexts[15]!)}`, { ...KEY, 'accept-encoding': 'br, gzip' }),
  },
  {
    name: 'GET /proxy, deflate answer',
    request: get(`/proxy?${query(contexts[15]!)}`, { ...KEY, 'accept-encoding': 'deflate' }),
  },
  {
    name: 'GET /proxy from an allowed origin (CORS)',
    request: get('/proxy?userId=7&sessionId=7', { ...KEY, origin: ORIGIN }),
  },
  {
    name: 'GET /proxy from another origin (CORS)',
    request: get('/proxy?userId=7&sessionId=7', { ...KEY, origin: 'https://elsewhere.example' }),
  },
  { name: 'OPTIONS /proxy preflight', request: preflight('/proxy') },
  { name: 'OPTIONS /api/frontend preflight', request: preflight('/api/frontend') },
  { name: 'OPTIONS /ofrep/v1/evaluate/flags preflight', request: preflight('/ofrep/v1/evaluate/flags') },
  {
    name: 'POST /proxy, gzip request body',
    request: post('/proxy', gzipSync(JSON.stringify(context)), { ...KEY, 'content-encoding': 'gzip' }),
  },
  {
    name: 'POST /proxy, deflate request body',
    request: post('/proxy', deflateSync(JSON.stringify(context)), { ...KEY, 'content-encoding': 'deflate' }),
  },
  {
    name: 'POST /proxy, corrupt gzip body: 400',
    request: post('/proxy', Buffer.from('not gzip at all'), { ...KEY, 'content-encoding': 'gzip' }),
  },
  {
    name: 'POST /proxy, brotli request body: 415',
    request: post('/proxy', Buffer.from('{}'), { ...KEY, 'content-encoding': 'br' }),
  },
  {
    name: 'POST /proxy, text/plain: 415',
    request: post('/proxy', 'userId=42', { ...KEY, 'content-type': 'text/plain' }),
  },
  {
    name: 'POST /proxy, latin-1 charset: 415',
    request: post('/proxy', '{}', { ...KEY, 'content-type': 'application/json; charset=latin1' }),
  },
  { name: 'POST /proxy, bad JSON: 400', request: post('/proxy', '{"context": {"userId": ', KEY) },
  { name: 'POST /proxy, not an object: 400', request: post('/proxy', '"a string"', KEY) },
  { name: 'POST /proxy, 150 kB body: 413', request: post('/proxy', oversize, KEY) },
  {
    name: 'POST /proxy, gzip body over the limit once decompressed: 413',
    request: post('/proxy', gzipSync(oversize), { ...KEY, 'content-encoding': 'gzip' }),
  },
  { name: 'GET /proxy without a key: 401', request: get('/proxy?userId=1') },
  { name: 'GET /proxy with a wrong key: 401', request: get('/proxy?userId=1', { authorization: 'wrong' }) },
  // A method no route has is 404 on the Unleash APIs, as Express answered it; OFREP answers 405.
  {
    name: 'PUT /proxy: 404',
    request: { method: 'PUT', path: '/proxy', headers: { ...KEY, ...JSON_TYPE }, body: '{}' },
  },
  { name: 'DELETE /api/frontend: 404', request: { method: 'DELETE', path: '/api/frontend', headers: FRONTEND } },
  { name: 'GET OFREP bulk: 405', request: get('/ofrep/v1/evaluate/flags', FRONTEND) },
  { name: 'GET an unknown path: 404', request: get('/no/such/path', KEY) },
  { name: 'GET /proxy/unknown: 404', request: get('/proxy/unknown', KEY) },
  { name: 'POST /proxy/client/metrics', request: post('/proxy/client/metrics', metrics, KEY) },
  {
    name: 'POST /proxy/client/metrics without a bucket: 400',
    request: post('/proxy/client/metrics', { appName: 'runtimes', instanceId: 'i' }, KEY),
  },
  { name: 'POST /proxy/client/register', request: post('/proxy/client/register', registration, KEY) },
  {
    name: 'GET /proxy/client/features with the server-side token',
    request: get('/proxy/client/features', { authorization: SERVER_TOKEN }),
  },
  { name: 'GET /proxy/health', request: get('/proxy/health') },
  { name: 'GET /proxy/internal-backstage/prometheus', request: get('/proxy/internal-backstage/prometheus') },
  { name: 'GET /internal-backstage/health', request: get('/internal-backstage/health') },
  { name: 'GET /internal-backstage/ready', request: get('/internal-backstage/ready') },
  { name: 'GET /internal-backstage/tokens', request: get('/internal-backstage/tokens') },
  { name: 'GET /api/frontend', request: get(`/api/frontend?${query(contexts[16]!)}`, FRONTEND) },
  { name: 'POST /api/frontend', request: post('/api/frontend', { context: contexts[17] }, FRONTEND) },
  {
    name: 'GET /api/frontend, then 304 with If-None-Match',
    request: get('/api/frontend?userId=42&sessionId=1', FRONTEND),
    conditional: true,
  },
  { name: 'GET /api/frontend/all', request: get(`/api/frontend/all?${query(contexts[18]!)}`, FRONTEND) },
  {
    name: 'GET /api/frontend/features/<name>',
    request: get('/api/frontend/features/web.feature-1?userId=user-1&sessionId=1', FRONTEND),
  },
  {
    name: 'GET /api/frontend/features/<unknown>: 404',
    request: get('/api/frontend/features/no-such-flag?userId=1&sessionId=1', FRONTEND),
  },
  { name: 'GET /api/frontend with a client key: 401', request: get('/api/frontend?userId=1', KEY) },
  {
    name: 'GET /api/frontend with an unknown token: 401',
    request: get('/api/frontend?userId=1', { authorization: '*:development.unknown' }),
  },
  { name: 'POST /api/frontend/client/metrics', request: post('/api/frontend/client/metrics', metrics, FRONTEND) },
  {
    name: 'POST /api/frontend/client/register',
    request: post('/api/frontend/client/register', registration, FRONTEND),
  },
  { name: 'GET /api/client/features', request: get('/api/client/features', CLIENT) },
  {
    name: 'GET /api/client/features, then 304 with If-None-Match',
    request: get('/api/client/features', CLIENT),
    conditional: true,
  },
  {
    name: 'GET /api/client/features, gzip answer',
    request: get('/api/client/features', { ...CLIENT, 'accept-encoding': 'gzip' }),
  },
  { name: 'GET /api/client/features/<name>', request: get('/api/client/features/web.feature-3', CLIENT) },
  { name: 'GET /api/client/features/<unknown>: 404', request: get('/api/client/features/no-such-flag', CLIENT) },
  { name: 'GET /api/client/features without a token: 401', request: get('/api/client/features') },
  { name: 'GET /api/client/delta', request: get('/api/client/delta', CLIENT) },
  { name: 'GET /api/client/streaming: the first event', request: get('/api/client/streaming', CLIENT), stream: true },
  { name: 'POST /api/client/metrics', request: post('/api/client/metrics', metrics, CLIENT) },
  {
    name: 'POST /api/client/metrics/bulk',
    request: post('/api/client/metrics/bulk', { applications: [], metrics: [] }, CLIENT),
  },
  { name: 'POST /api/client/register', request: post('/api/client/register', registration, CLIENT) },
  {
    name: 'POST OFREP bulk with the frontend token',
    request: post(
      '/ofrep/v1/evaluate/flags',
      { context: { targetingKey: 'user-1', sessionId: '1', tenant: 'acme' } },
      FRONTEND,
    ),
  },
  {
    name: 'POST OFREP bulk with the client key, then 304 with If-None-Match',
    request: post('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'user-2', sessionId: '2' } }, KEY),
    conditional: true,
  },
  {
    name: 'POST OFREP one flag',
    request: post(
      '/ofrep/v1/evaluate/flags/web.feature-5',
      { context: { targetingKey: 'user-3', sessionId: '3' } },
      FRONTEND,
    ),
  },
  {
    name: 'POST OFREP an unknown flag: 404',
    request: post('/ofrep/v1/evaluate/flags/no-such-flag', { context: { targetingKey: 'user-3' } }, FRONTEND),
  },
  { name: 'POST OFREP bad JSON: 400', request: post('/ofrep/v1/evaluate/flags', '{"context":', FRONTEND) },
  { name: 'POST OFREP without a token: 401', request: post('/ofrep/v1/evaluate/flags', { context: {} }) },
  {
    name: 'POST /edge/validate',
    request: post('/edge/validate', { tokens: [FRONTEND_TOKEN, CLIENT_TOKEN, '*:development.bogus'] }),
  },
  { name: 'GET /docs/openapi.json', request: get('/docs/openapi.json') },
  { name: 'GET /docs/openapi: 301 to the Swagger UI', request: get('/docs/openapi') },
  { name: 'GET /docs/openapi/ (the Swagger UI page)', request: get('/docs/openapi/') },
  {
    name: 'GET /docs/openapi/swagger-ui.css (a file of swagger-ui-dist)',
    request: get('/docs/openapi/swagger-ui.css', { 'accept-encoding': 'gzip' }),
  },
  { name: 'GET /internal-backstage/metrics (after the requests above)', request: get('/internal-backstage/metrics') },
]

/** Who may call a route (route-declaration.ts's `access`), as the credential the requests send. */
const CREDENTIAL: Record<string, Record<string, string>> = {
  'client-key': KEY,
  'client-key-or-server-token': { authorization: SERVER_TOKEN },
  'server-token': { authorization: SERVER_TOKEN },
  'frontend-token': FRONTEND,
  'client-key-or-frontend-token': KEY,
  'client-token': CLIENT,
  open: {},
}

/**
 * The route table's example of every route, with its credential and without: routes added later
 * are compared too. The stream (`/api/client/streaming`) is a step of its own above.
 */
async function routeSteps(): Promise<Step[]> {
  // The built package (its `default` export, what the runtimes run), not the source vitest resolves.
  const built = pathToFileURL(createRequire(import.meta.url).resolve('@vexil/proxy')).href
  const { createProxyApp, createProxyConfig }: typeof import('@vexil/proxy') = await import(built)
  const config = await createProxyConfig(
    {
      serviceUrl: 'http://127.0.0.1:9/api',
      serviceApiToken: CLIENT_TOKEN,
      clientKeys: [CLIENT_KEY],
      enableAllEndpoint: true,
      enableOAS: true,
      metricsInterval: 0,
    },
    {},
  )
  // The route table as the app declares it, one entry per method.
  const declared: Array<Parameters<RouteInstrument>[0]> = []
  createProxyApp({ config, storage: null, instrumentRoute: (route, handle) => (declared.push(route), handle) })
  const steps: Step[] = []
  for (const route of declared.flatMap((route) => route.methods.map((method) => ({ ...route, method })))) {
    if (route.path === '/api/client/streaming') continue
    // The examples' contexts name a userId; a sessionId is added (see `contexts` above).
    const path = (route.example.path ?? route.path).replace('userId=42', 'userId=42&sessionId=42')
    const body =
      route.method === 'POST'
        ? (route.example.body ?? '{}').replace(/"(userId|targetingKey)":"42"/, '"$1":"42","sessionId":"42"')
        : undefined
    const credential = CREDENTIAL[route.access]
    if (!credential) throw new Error(`no credential for access "${route.access}" of ${route.method} ${route.path}`)
    const request = (headers: Record<string, string>): Sent => ({
      method: route.method,
      path,
      headers: body === undefined ? headers : { ...JSON_TYPE, ...headers },
      ...(body === undefined ? {} : { body }),
    })
    steps.push({ name: `route table: ${route.method} ${path}`, request: request(credential) })
    if (route.access !== 'open')
      steps.push({ name: `route table: ${route.method} ${path} without a credential`, request: request({}) })
  }
  return steps
}

// --- Comparing answers ---

/**
 * Every header is compared but `date` (the clock) and the `content-length` of a compressed body
 * (compressed bytes differ, below).
 */
const OWN_HEADERS = new Set(['date'])

/** What is compared of an answer: status, headers and body, made comparable as the comments say. */
function comparable(answer: Answer, step: Step): { status: number; headers: Record<string, string>; body: string } {
  const encoding = answer.headers['content-encoding']
  const headers = Object.fromEntries(
    Object.entries(answer.headers).filter(
      ([name]) => !OWN_HEADERS.has(name) && !(encoding && name === 'content-length'),
    ),
  )
  // Compressed bytes depend on each runtime's zlib and brotli: the decompressed body is compared.
  const raw =
    encoding === 'gzip'
      ? gunzipSync(answer.body)
      : encoding === 'br'
        ? brotliDecompressSync(answer.body)
        : encoding === 'deflate'
          ? inflateSync(answer.body)
          : answer.body
  let body = raw.toString('utf8')
  // An event stream's answer is its first event, however the runtime cut it into chunks.
  if (step.stream) body = body.slice(0, body.indexOf('\n\n') + 2)
  if (step.name.includes('bad JSON')) {
    // The 400 passes on the runtime's own JSON.parse message: V8's (Node, Deno) and
    // JavaScriptCore's (Bun) word it differently. The rest of the body is compared; its ETag and
    // length are those of the runtime's wording.
    body = body.replace(JSON_PARSE_MESSAGES, '<JSON.parse message>')
    delete headers.etag
    delete headers['content-length']
  }
  if (step.request.path.endsWith('/prometheus') || step.request.path === '/internal-backstage/metrics') {
    // The last fetch and update times are the clock's: the values are left out, and with them
    // the body's ETag and length.
    body = body.replace(/(_timestamp_ms(\{[^}]*\})?) \d+/g, '$1 <time>')
    // The process metrics are the process's own (CPU, memory, the runtime's event loop and heap),
    // and each runtime reports them as it can: their names and values are left out.
    body = body.replace(/^# (HELP|TYPE) (process|nodejs)_.*\n|^(process|nodejs)_.*\n/gm, '')
    // Request durations are the runtime's: which bucket a request falls in, and the sum, are left
    // out; how many requests each route saw (`_count`, the `+Inf` bucket) is compared.
    // The readiness probes were polled until the proxy answered: how often is the start's timing.
    body = body.replace(/^http_server_duration_milliseconds_\w+\{[^\n]*endpoint="[^"]*\/(health|ready)".*\n/gm, '')
    body = body.replace(/^(http_server_duration_milliseconds_bucket\{.*le="[0-9.]+"\}) \d+$/gm, '$1 <n>')
    body = body.replace(/^(http_server_duration_milliseconds_sum\{.*\}) [0-9.e+-]+$/gm, '$1 <ms>')
    body = body.replace(
      /^(http_requests_total|http_response_size_\w+)\{[^\n]*endpoint="[^"]*\/(health|ready)".*\n/gm,
      '',
    )
    // So are the upstream calls' durations, and the answers' sizes (each runtime's compression and
    // messages; Bun keeps no length it computed itself): how many there were is compared.
    body = body.replace(
      /^((?:client_feature_fetch|client_metrics_upload|http_response_size)_bucket\{.*le="[0-9.]+"\}) \d+$/gm,
      '$1 <n>',
    )
    body = body.replace(
      /^((?:client_feature_fetch|client_metrics_upload|http_response_size)_sum\{.*\}) [0-9.e+-]+$/gm,
      '$1 <n>',
    )
    // Edge's metrics carry the instance id, set per runtime.
    body = body.replace(/instance_id="runtimes-(node|bun|deno)"/g, 'instance_id="<instance>"')
    // What was left out leaves blank lines behind, as many as the runtime has process metrics.
    body = body.replace(/\n{3,}/g, '\n\n')
    delete headers.etag
    delete headers['content-length']
  }
  return { status: answer.status, headers, body }
}

/** JSON.parse's message for a body cut short, as each runtime words it. */
const JSON_PARSE_MESSAGES = /Unexpected end of JSON input|JSON Parse error: Unexpected EOF/

/**
 * What one proxy sent the upstream, in a stable order: method, path, body and headers, without the
 * ids that tell the proxies apart (the instance id set per runtime, a random connection id).
 */
/**
 * Each request the runtime's proxy sent upstream, headers in name order. Under Bun the upstream
 * calls go through Bun's fetch (its `undici` cannot send), which asks for the encodings it can
 * decode itself: accept-encoding is compared everywhere but there.
 */
function upstreamTraffic(runtime: Runtime): string[] {
  return upstream.requests
    .filter((request) => request.headers['unleash-instanceid'] === `runtimes-${runtime}`)
    .map(({ method, path, body, headers: { 'unleash-instanceid': _, 'unleash-connection-id': __, ...headers } }) => {
      const compared = Object.entries(headers).filter(([name]) => name !== 'accept-encoding' || runtime !== 'bun')
      return JSON.stringify({ method, path, body, headers: compared.sort(([a], [b]) => a.localeCompare(b)) })
    })
    .sort()
}

function withoutAcceptEncoding(request: string): string {
  const parsed = JSON.parse(request) as { headers: Array<[string, string]> }
  return JSON.stringify({ ...parsed, headers: parsed.headers.filter(([name]) => name !== 'accept-encoding') })
}

// --- Servers ---

const work = tempDir('runtimes-proxy')
let upstream: FakeUpstream
const servers = new Map<Runtime, { server: RuntimeServer; url: string }>()
/** Each runtime's answers, step by step (a conditional step has two: the first and the 304). */
const answered = new Map<Runtime, Answer[][]>()
let steps: Step[] = []

async function startProxy(runtime: Runtime, startTimeoutMs = 60_000): Promise<void> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const server = await startRuntimeServer(runtime, BUILT.proxyCli, [], {
    cwd: work.path,
    env: {
      HOST: '127.0.0.1',
      PORT: String(port),
      SERVICE_URL: upstream.url,
      SERVICE_API_TOKEN: CLIENT_TOKEN,
      TOKENS: CLIENT_TOKEN,
      SERVICE_PROXY_CLIENT_KEYS: CLIENT_KEY,
      EXP_SERVER_SIDE_SDK_CONFIG_TOKENS: SERVER_TOKEN,
      SERVICE_INSTANCE_ID: `runtimes-${runtime}`,
      SERVICE_FETCH_INTERVAL: '60000',
      SERVICE_METRICS_INTERVAL: '0',
      ENABLE_ALL_ENDPOINT: 'true',
      ENABLE_OAS: 'true',
      CORS_ORIGIN: ORIGIN,
      STORAGE_FILE_DIRECTORY: `${work.path}/${runtime}`,
    },
    ready: () => answers(`${url}/proxy/health`),
    startTimeoutMs,
  })
  servers.set(runtime, { server, url })
}

beforeAll(async () => {
  if (runtimes.length === 0) return
  requireBuilt(BUILT.proxyCli)
  upstream = await startFakeUpstream(makeFeatures(200))
  upstream.setValidTokens([
    { token: CLIENT_TOKEN, type: 'client', projects: ['*'], environment: 'development' },
    { token: FRONTEND_TOKEN, type: 'frontend', projects: ['*'], environment: 'development' },
  ])
  steps = [...STEPS, ...(await routeSteps())]
  const results = await Promise.allSettled((['node', ...runtimes] as Runtime[]).map((runtime) => startProxy(runtime)))
  const failed = results.find((result) => result.status === 'rejected')
  if (failed) throw failed.reason
  // The same requests in the same order to every proxy: counters (usage, Prometheus) agree too.
  for (const step of steps) {
    for (const [runtime, { url }] of servers) {
      const first = await send(url, step.request, step.stream ? { until: firstEvent } : {})
      const all = [first]
      if (step.conditional)
        all.push(
          await send(url, {
            ...step.request,
            headers: { ...step.request.headers, 'if-none-match': first.headers.etag ?? '' },
          }),
        )
      if (!answered.has(runtime)) answered.set(runtime, [])
      answered.get(runtime)!.push(all)
    }
  }
}, 120_000)

afterAll(async () => {
  await Promise.allSettled([...servers.values()].map(({ server }) => server.stop()))
  await upstream?.close()
  work.remove()
})

for (const runtime of OTHER_RUNTIMES) {
  describe.runIf(runtimes.includes(runtime))(`the proxy under ${runtime} answers as under Node`, () => {
    it('runs the same list: every route family and every error status', () => {
      const statuses = new Set(
        answered
          .get('node')!
          .flat()
          .map((a) => a.status),
      )
      for (const status of [200, 202, 204, 304, 400, 401, 404, 405, 413, 415])
        expect(statuses, `no step answered ${status}`).toContain(status)
      expect(answered.get(runtime)).toHaveLength(steps.length)
    })

    it.each(STEPS.map((step, index) => ({ ...step, index })))('$name', ({ index }) => {
      const step = steps[index]!
      expect(answered.get(runtime)![index]!.map((a) => comparable(a, step))).toEqual(
        answered.get('node')![index]!.map((a) => comparable(a, step)),
      )
    })

    it('every route of the route table, with its credential and without, answers as under Node', () => {
      for (let index = STEPS.length; index < steps.length; index++) {
        const step = steps[index]!
        expect(
          answered.get(runtime)![index]!.map((a) => comparable(a, step)),
          step.name,
        ).toEqual(answered.get('node')![index]!.map((a) => comparable(a, step)))
      }
    })

    it('sent the upstream the same requests as under Node: token validations, the stream and the features fetch', () => {
      expect(upstreamTraffic(runtime)).toEqual(
        upstreamTraffic('node').map((request) => (runtime === 'bun' ? withoutAcceptEncoding(request) : request)),
      )
    })

    it('stops on SIGTERM with exit code 0', async () => {
      expect(await servers.get(runtime)!.server.stop()).toBe(0)
    })

    it('restarted while the upstream fails, serves the flags from the backup it wrote, as Node did live', async () => {
      upstream.fail({ status: 503 })
      try {
        // Ready only once it has flags: here, those of the backup.
        await startProxy(runtime, 15_000)
        const { url } = servers.get(runtime)!
        for (let index = 0; index < 6; index++) {
          const step = steps[index]!
          expect(comparable(await send(url, step.request), step), step.name).toEqual(
            comparable(answered.get('node')![index]![0]!, step),
          )
        }
      } finally {
        upstream.fail(undefined)
      }
    }, 30_000)
  })
}
