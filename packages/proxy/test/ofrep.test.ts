// OFREP on the proxy (README, "OpenFeature (OFREP)"): the protocol's two routes over a real
// listening proxy, first byte by byte (statuses, bodies, ETag and 304, credentials, CORS, the
// context mapping), then through the real OpenFeature server SDK with the OFREP provider that npm
// serves today (@openfeature/ofrep-provider 0.1.3; reference/openfeature-ofrep.md section 3).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorCode, OpenFeature, type Client } from '@openfeature/server-sdk'
import { OFREPProvider } from '@openfeature/ofrep-provider'
import { type FakeUpstream, startFakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { waitFor } from '@vexil/test-fixtures/wait-for.ts'
import { CLIENT_KEY, startTestProxy, type TestProxy } from './helpers/proxy.js'

const CLIENT_TOKEN = '*:development.ofrep-client-1'
const FRONTEND = '*:development.ofrep-front-1'
const P1_FRONTEND = 'p1:development.ofrep-p1-front-1'
const ADMIN = '*:*.ofrep-admin-1'
const TOKENS = [
  { token: CLIENT_TOKEN, type: 'client', projects: ['*'], environment: 'development' },
  { token: FRONTEND, type: 'frontend', projects: ['*'], environment: 'development' },
  { token: P1_FRONTEND, type: 'frontend', projects: ['p1'], environment: 'development' },
  { token: ADMIN, type: 'admin', projects: ['*'], environment: '*' },
] as const

const DEFAULT = { name: 'default', parameters: {} }
const one = (name: string, type: string, value: string) => [
  { name, weight: 1000, stickiness: 'default', weightType: 'variable', payload: { type, value } },
]
const FEATURES = {
  version: 2,
  features: [
    { name: 'bool-on', project: 'p1', enabled: true, strategies: [DEFAULT] },
    { name: 'bool-off', project: 'p1', enabled: false, strategies: [DEFAULT] },
    {
      name: 'for-user-7',
      project: 'p2',
      enabled: true,
      strategies: [{ name: 'userWithId', parameters: { userIds: '7' } }],
    },
    {
      name: 'pro-plan',
      project: 'p2',
      enabled: true,
      impressionData: true,
      strategies: [{ ...DEFAULT, constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }] }],
    },
    {
      name: 'copy',
      project: 'p1',
      enabled: true,
      strategies: [DEFAULT],
      variants: one('hello', 'string', 'Hello there'),
    },
    { name: 'limit', project: 'p2', enabled: true, strategies: [DEFAULT], variants: one('ten', 'number', '10.5') },
    {
      name: 'theme',
      project: 'p2',
      enabled: true,
      strategies: [DEFAULT],
      variants: one('dark', 'json', '{"background":"#000","sizes":[1,2]}'),
    },
    { name: 'typed-off', project: 'p2', enabled: false, strategies: [DEFAULT], variants: one('x', 'string', 'never') },
    { name: 'bad-number', project: 'p2', enabled: true, strategies: [DEFAULT], variants: one('n', 'number', 'ten') },
  ],
  segments: [],
}
const ALL_NAMES = FEATURES.features.map((f) => f.name)
const P1_NAMES = FEATURES.features.filter((f) => f.project === 'p1').map((f) => f.name)

let upstream: FakeUpstream
let proxy: TestProxy

beforeAll(async () => {
  upstream = await startFakeUpstream(FEATURES)
  upstream.setValidTokens([...TOKENS])
  proxy = await startTestProxy(upstream.url, { tokens: [CLIENT_TOKEN], cors: { origin: ['https://app.example'] } })
})
afterAll(async () => {
  await OpenFeature.close()
  await proxy?.close()
  await upstream?.close()
})

const BULK = '/ofrep/v1/evaluate/flags'
function post(path: string, body: unknown, headers: Record<string, string> = { authorization: FRONTEND }) {
  return fetch(proxy.at(path), {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}
type Item = {
  key: string
  value?: unknown
  variant?: string
  reason?: string
  metadata?: Record<string, unknown>
  errorCode?: string
  errorDetails?: string
}
const byKey = (items: Item[]) => Object.fromEntries(items.map((item) => [item.key, item]))

describe('OFREP bulk evaluation', () => {
  it('answers every flag of the scope, enabled or not, with values by type, variants, reasons and metadata', async () => {
    const response = await post(BULK, { context: { targetingKey: '7', plan: 'pro' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    const etag = response.headers.get('etag')!
    expect(etag).toMatch(/^"[0-9a-f]+-[A-Za-z0-9+/]{16}"$/)
    const { flags } = (await response.json()) as { flags: Item[] }
    expect(flags.map((f) => f.key)).toEqual(ALL_NAMES)
    expect(byKey(flags)).toEqual({
      'bool-on': {
        key: 'bool-on',
        reason: 'STATIC',
        variant: 'enabled',
        value: true,
        metadata: { enabled: true, impressionData: false },
      },
      'bool-off': {
        key: 'bool-off',
        reason: 'DISABLED',
        variant: 'disabled',
        value: false,
        metadata: { enabled: false, impressionData: false },
      },
      'for-user-7': {
        key: 'for-user-7',
        reason: 'TARGETING_MATCH',
        variant: 'enabled',
        value: true,
        metadata: { enabled: true, impressionData: false },
      },
      'pro-plan': {
        key: 'pro-plan',
        reason: 'TARGETING_MATCH',
        variant: 'enabled',
        value: true,
        metadata: { enabled: true, impressionData: true },
      },
      copy: {
        key: 'copy',
        reason: 'STATIC',
        variant: 'hello',
        value: 'Hello there',
        metadata: { enabled: true, impressionData: false },
      },
      limit: {
        key: 'limit',
        reason: 'STATIC',
        variant: 'ten',
        value: 10.5,
        metadata: { enabled: true, impressionData: false },
      },
      theme: {
        key: 'theme',
        reason: 'STATIC',
        variant: 'dark',
        value: { background: '#000', sizes: [1, 2] },
        metadata: { enabled: true, impressionData: false },
      },
      'typed-off': { key: 'typed-off', reason: 'DISABLED', metadata: { enabled: false, impressionData: false } },
      'bad-number': {
        key: 'bad-number',
        errorCode: 'PARSE_ERROR',
        errorDetails: expect.stringContaining('not a finite number'),
      },
    })
  })

  it('answers 304 without a body to the same context with its ETag, and 200 with a new ETag when the context changes the answer', async () => {
    const first = await post(BULK, { context: { targetingKey: 'u1', plan: 'free' } })
    const etag = first.headers.get('etag')!
    const again = await post(
      BULK,
      { context: { targetingKey: 'u1', plan: 'free' } },
      { authorization: FRONTEND, 'if-none-match': etag },
    )
    expect(again.status).toBe(304)
    expect(again.headers.get('etag')).toBe(etag)
    expect(await again.text()).toBe('')
    // The web provider keeps its ETag while the targetingKey stays: a new plan must not be a 304.
    const changed = await post(
      BULK,
      { context: { targetingKey: 'u1', plan: 'pro' } },
      { authorization: FRONTEND, 'if-none-match': etag },
    )
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).not.toBe(etag)
    expect(byKey(((await changed.json()) as { flags: Item[] }).flags)['pro-plan']!.value).toBe(true)
    // A context that changes nothing evaluated keeps the ETag (it is the body's).
    const same = await post(
      BULK,
      { context: { targetingKey: 'u2', plan: 'free' } },
      { authorization: FRONTEND, 'if-none-match': etag },
    )
    expect(same.status).toBe(304)
  })

  it('a token of one project sees only that project', async () => {
    const { flags } = (await (await post(BULK, { context: {} }, { authorization: P1_FRONTEND })).json()) as {
      flags: Item[]
    }
    expect(flags.map((f) => f.key)).toEqual(P1_NAMES)
  })

  it('a client key answers from the /proxy scope: the flags enabled for it, as /proxy lists them (ENABLE_ALL_ENDPOINT=false)', async () => {
    const enabled = ALL_NAMES.filter((name) => !['bool-off', 'typed-off', 'pro-plan'].includes(name))
    for (const headers of [
      { authorization: CLIENT_KEY },
      { 'x-api-key': CLIENT_KEY },
      { authorization: `Bearer ${CLIENT_KEY}` },
    ] as Array<Record<string, string>>) {
      const response = await post(BULK, { context: { targetingKey: '7' } }, headers)
      expect(response.status, JSON.stringify(headers)).toBe(200)
      expect(((await response.json()) as { flags: Item[] }).flags.map((f) => f.key)).toEqual(enabled)
    }
  })
})

describe('OFREP single-flag evaluation', () => {
  it('answers one flag; 404 FLAG_NOT_FOUND for a name outside the scope', async () => {
    const response = await post(`${BULK}/for-user-7`, { context: { targetingKey: '7' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('etag')).toBeNull()
    expect(await response.json()).toEqual({
      key: 'for-user-7',
      reason: 'TARGETING_MATCH',
      variant: 'enabled',
      value: true,
      metadata: { enabled: true, impressionData: false },
    })
    for (const [path, token] of [
      [`${BULK}/nope`, FRONTEND],
      [`${BULK}/for-user-7`, P1_FRONTEND],
    ] as const) {
      const missing = await post(path, { context: {} }, { authorization: token })
      expect(missing.status).toBe(404)
      expect(await missing.json()).toEqual({
        key: path.split('/').pop(),
        errorCode: 'FLAG_NOT_FOUND',
        errorDetails: expect.any(String),
      })
    }
  })

  it('a payload that does not fit its type is 400 PARSE_ERROR with the key', async () => {
    const response = await post(`${BULK}/bad-number`, { context: {} })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      key: 'bad-number',
      errorCode: 'PARSE_ERROR',
      errorDetails: expect.stringContaining('ten'),
    })
  })

  it('counts each evaluation for usage metrics, sent upstream with the scope token', async () => {
    const counting = await startTestProxy(upstream.url, { tokens: [CLIENT_TOKEN], metricsInterval: 60_000 })
    for (let i = 0; i < 3; i++) {
      const answer = await fetch(counting.at(`${BULK}/for-user-7`), {
        method: 'POST',
        headers: { authorization: FRONTEND, 'content-type': 'application/json' },
        body: JSON.stringify({ context: { targetingKey: String(6 + i) } }),
      })
      expect(answer.status, await answer.text()).toBe(200)
    }
    await fetch(counting.at(`${BULK}/bool-on`), { method: 'POST', headers: { 'x-api-key': CLIENT_KEY } })
    const before = upstream.requestsTo('/client/metrics').length
    await counting.close()
    const sent = upstream
      .requestsTo('/client/metrics')
      .slice(before)
      .map((r) => JSON.parse(r.body) as { bucket: { toggles: Record<string, { yes: number; no: number }> } })
    const toggles = sent.map((m) => m.bucket.toggles)
    expect(toggles).toContainEqual(
      expect.objectContaining({ 'for-user-7': expect.objectContaining({ yes: 1, no: 2 }) }),
    )
    expect(toggles).toContainEqual(expect.objectContaining({ 'bool-on': expect.objectContaining({ yes: 1, no: 0 }) }))
  })
})

describe('OFREP requests the proxy refuses', () => {
  it.each([
    ['a body that is not JSON', '{"context":', 400, { errorCode: 'PARSE_ERROR' }],
    ['a body that is an array', '[]', 400, { errorCode: 'PARSE_ERROR' }],
    ['a context that is not an object', '{"context":[1]}', 400, { errorCode: 'INVALID_CONTEXT' }],
    ['a targetingKey that is not a string', '{"context":{"targetingKey":7}}', 400, { errorCode: 'INVALID_CONTEXT' }],
  ])('%s: %s', async (_name, body, status, expected) => {
    const bulk = await post(BULK, body)
    expect(bulk.status).toBe(status)
    expect(await bulk.json()).toEqual({ ...expected, errorDetails: expect.any(String) })
    const single = await post(`${BULK}/copy`, body)
    expect(single.status).toBe(status)
    expect(await single.json()).toEqual({ key: 'copy', ...expected, errorDetails: expect.any(String) })
  })

  it('a missing body or context is an empty context', async () => {
    expect((await fetch(proxy.at(BULK), { method: 'POST', headers: { authorization: FRONTEND } })).status).toBe(200)
    expect((await post(BULK, {})).status).toBe(200)
    expect((await post(BULK, { context: null })).status).toBe(200)
  })

  it('401 without a known key, 403 for a token of another type, 405 for another method; all in JSON', async () => {
    for (const [headers, status] of [
      [{}, 401],
      [{ authorization: 'garbage' }, 401],
      [{ 'x-api-key': '*:development.unknown-1' }, 401],
      [{ authorization: CLIENT_TOKEN }, 403],
      [{ 'x-api-key': ADMIN }, 403],
    ] as const) {
      const response = await post(BULK, { context: {} }, headers)
      expect(response.status, JSON.stringify(headers)).toBe(status)
      expect(response.headers.get('content-type')).toMatch(/^application\/json/)
      expect(await response.json()).toEqual({ errorDetails: expect.any(String) })
    }
    const get = await fetch(proxy.at(BULK), { headers: { authorization: FRONTEND } })
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST, OPTIONS')
  })

  it('answers a browser preflight and exposes the ETag to the configured origin only', async () => {
    const preflight = await fetch(proxy.at(BULK), {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,if-none-match',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(preflight.headers.get('access-control-allow-headers')).toBe(
      'Authorization, X-API-Key, Content-Type, If-None-Match',
    )
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS')
    const answer = await post(BULK, { context: {} }, { authorization: FRONTEND, origin: 'https://app.example' })
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(answer.headers.get('access-control-expose-headers')).toBe('ETag, Retry-After')
    const refused = await post(BULK, { context: {} }, { origin: 'https://app.example' })
    expect(refused.headers.get('access-control-allow-origin')).toBe('https://app.example')
    const stranger = await post(BULK, { context: {} }, { authorization: FRONTEND, origin: 'https://evil.example' })
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe('OFREP context mapping', () => {
  const value = async (key: string, context: unknown) =>
    ((await (await post(`${BULK}/${key}`, { context })).json()) as Item).value
  it('targetingKey is the userId unless one is given; other keys are properties', async () => {
    expect(await value('for-user-7', { targetingKey: '7' })).toBe(true)
    expect(await value('for-user-7', { targetingKey: '7', userId: '8' })).toBe(false)
    expect(await value('for-user-7', { userId: 7 })).toBe(true)
    expect(await value('pro-plan', { plan: 'pro' })).toBe(true)
    expect(await value('pro-plan', { properties: { plan: 'pro' } })).toBe(true)
    expect(await value('pro-plan', { plan: 'free', properties: { plan: 'pro' } })).toBe(true)
    expect(await value('pro-plan', { plan: ['pro'] })).toBe(false)
  })
})

describe('the OpenFeature server SDK with @openfeature/ofrep-provider 0.1.3', () => {
  let client: Client
  beforeAll(async () => {
    await OpenFeature.setProviderAndWait(
      'ofrep',
      new OFREPProvider({ baseUrl: proxy.url, headers: [['Authorization', `Bearer ${FRONTEND}`]] }),
    )
    OpenFeature.setContext({ region: 'eu' })
    client = OpenFeature.getClient('ofrep')
  })

  it('gets values of every type with variant, reason and metadata', async () => {
    expect(await client.getBooleanDetails('for-user-7', false, { targetingKey: '7' })).toMatchObject({
      value: true,
      variant: 'enabled',
      reason: 'TARGETING_MATCH',
      flagMetadata: { enabled: true },
    })
    expect(await client.getBooleanValue('for-user-7', true, { targetingKey: '8' })).toBe(false)
    expect(await client.getStringDetails('copy', 'default')).toMatchObject({
      value: 'Hello there',
      variant: 'hello',
      reason: 'STATIC',
    })
    expect(await client.getNumberValue('limit', 0)).toBe(10.5)
    expect(await client.getObjectValue('theme', {})).toEqual({ background: '#000', sizes: [1, 2] })
    expect(await client.getBooleanValue('pro-plan', false, { targetingKey: 'x', plan: 'pro' })).toBe(true)
  })

  it('merges the global and invocation contexts', async () => {
    expect(await client.getBooleanValue('pro-plan', false, { plan: 'free' })).toBe(false)
    expect(await client.getBooleanValue('pro-plan', false, { plan: 'pro' })).toBe(true)
  })

  it('reports errors with the default value', async () => {
    expect(await client.getBooleanDetails('nope', true)).toMatchObject({
      value: true,
      reason: 'ERROR',
      errorCode: ErrorCode.FLAG_NOT_FOUND,
    })
    expect(await client.getNumberDetails('bad-number', 3)).toMatchObject({
      value: 3,
      reason: 'ERROR',
      errorCode: ErrorCode.PARSE_ERROR,
    })
    expect(await client.getNumberDetails('copy', 3)).toMatchObject({
      value: 3,
      reason: 'ERROR',
      errorCode: ErrorCode.TYPE_MISMATCH,
    })
    // A typed flag that is off sends no value (the caller's default): 0.1.3 returns the default
    // and calls it GENERAL; 0.2.x and the web provider return it with the reason DISABLED.
    expect(await client.getStringDetails('typed-off', 'fallback')).toMatchObject({ value: 'fallback' })
  })

  it('with a key the proxy does not know, every evaluation is the default', async () => {
    await OpenFeature.setProviderAndWait(
      'refused',
      new OFREPProvider({ baseUrl: proxy.url, headers: [['X-API-Key', 'wrong']] }),
    )
    expect(await OpenFeature.getClient('refused').getBooleanDetails('bool-on', false)).toMatchObject({
      value: false,
      reason: 'ERROR',
      errorCode: ErrorCode.GENERAL,
    })
  })

  it('a change upstream reaches the next evaluation', async () => {
    upstream.setFeatures({
      ...FEATURES,
      features: FEATURES.features.map((f) => (f.name === 'bool-on' ? { ...f, enabled: false } : f)),
    })
    const live = await startTestProxy(upstream.url, { tokens: [CLIENT_TOKEN], refreshInterval: 200 })
    try {
      await OpenFeature.setProviderAndWait(
        'live',
        new OFREPProvider({ baseUrl: live.url, headers: [['Authorization', FRONTEND]] }),
      )
      const liveClient = OpenFeature.getClient('live')
      expect(await liveClient.getBooleanValue('bool-on', true)).toBe(false)
      upstream.setFeatures(FEATURES)
      await waitFor(
        async () => (await liveClient.getBooleanValue('bool-on', false)) === true,
        'bool-on back on through the OFREP provider',
      )
    } finally {
      await live.close()
      upstream.setFeatures(FEATURES)
    }
  })
})
