import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseServiceConfig } from '../src/config.js'
import { startTestService, type TestService } from './helpers/service.js'
import { createSignalEndpoint, sendSignal, type TestEndpoint } from './helpers/signals.js'

// Issue 6, "Ingest": POST /api/signal-endpoint/<name> and every status it answers, the rate
// limit over time, the payload limit at the boundary, the limits' environment variables and
// the admin listings of received signals. 20 concurrent signals: database-conformance.test.ts,
// which runs them on every driver.

const BASE = '/api/admin/signal-endpoints'
const LIMIT = 100 * 1024

interface Sender {
  service: TestService
  endpoint: TestEndpoint
  token: string
  tokens: string[]
}

async function setUp(service: TestService, name: string, tokenNames = ['primary']): Promise<Sender> {
  const endpoint = await createSignalEndpoint(service, name, tokenNames)
  return { service, endpoint, token: endpoint.tokens[0] as string, tokens: endpoint.tokens }
}

const send = (
  sender: Sender,
  body?: string | object,
  headers: Record<string, string> = {},
  name = sender.endpoint.name,
) => sendSignal(sender.service, name, sender.token, body, headers)

/** A JSON body of exactly `bytes` UTF-8 bytes. */
function bodyOfBytes(bytes: number): string {
  const frame = '{"data":""}'
  return `{"data":"${'é'.repeat(Math.floor((bytes - frame.length) / 2))}${'x'.repeat((bytes - frame.length) % 2)}"}`
}

describe('POST /api/signal-endpoint/<name>', () => {
  let now = new Date('2026-03-01T10:00:00.000Z')
  /** Each accepted send needs a fresh rate-limit window: move the clock a second on. */
  const tick = () => {
    now = new Date(now.getTime() + 1000)
  }
  let service: TestService
  let sender: Sender
  beforeAll(async () => {
    service = await startTestService({ clock: () => now, actionRunner: false })
    sender = await setUp(service, 'alerts', ['grafana', 'datadog'])
  })
  afterAll(() => service.close())

  it('200: stores the signal with its endpoint, token, payload and time, and describes it', async () => {
    tick()
    const response = await send(sender, {
      type: 'alert',
      data: { severity: 'high', tags: ['a', 'b'], title: '🚨 Ünïcode' },
    })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      id: expect.any(Number),
      source: 'signal-endpoint',
      sourceId: sender.endpoint.id,
      sourceName: 'alerts',
      tokenName: 'grafana',
      createdAt: now.toISOString(),
    })
    const listed = await service.api('GET', `${BASE}/${sender.endpoint.id}/signals`)
    expect(listed.body.signalEndpointSignals[0]).toEqual({
      id: response.body.id,
      source: 'signal-endpoint',
      sourceId: sender.endpoint.id,
      createdAt: now.toISOString(),
      payload: { type: 'alert', data: { severity: 'high', tags: ['a', 'b'], title: '🚨 Ünïcode' } },
      tokenName: 'grafana',
    })
  })

  it('200: no body stores an empty object; a bare secret works without "Bearer"; JSON of any shape', async () => {
    tick()
    expect((await send(sender)).status).toBe(200)
    tick()
    expect((await send(sender, [1, 'two'], { authorization: sender.tokens[1] as string })).body.tokenName).toBe(
      'datadog',
    )
    tick()
    expect((await send(sender, '"just a string"', { authorization: `bearer ${sender.token}` })).status).toBe(200)
    tick()
    expect((await send(sender, '{}', { 'content-type': 'application/vnd.alerts+json; charset=utf-8' })).status).toBe(
      200,
    )
    const payloads = (
      await service.api('GET', `${BASE}/${sender.endpoint.id}/signals?limit=4`)
    ).body.signalEndpointSignals.map((s: { payload: unknown }) => s.payload)
    expect(payloads).toEqual([{}, 'just a string', [1, 'two'], {}])
  })

  it.each([
    ['no Authorization header', () => ''],
    ['an empty bearer', () => 'Bearer '],
    ['a wrong token', () => 'Bearer 0123456789abcdef'],
    ['an admin API token', () => service.admin],
  ])('401 with %s', async (_label, authorization) => {
    tick()
    const response = await send(sender, { a: 1 }, { authorization: authorization() })
    expect(response.status).toBe(401)
    expect(response.body).toMatchObject({
      id: expect.any(String),
      name: expect.stringMatching(/AuthenticationRequired|InvalidTokenError/),
      message: expect.any(String),
    })
  })

  it('401 with the token of another endpoint, which works on its own endpoint', async () => {
    const other = await setUp(service, 'other')
    tick()
    expect((await send({ ...sender, token: other.token }, { a: 1 })).status).toBe(401)
    expect((await send(other, { a: 1 })).status).toBe(200)
  })

  it('404 for an unknown endpoint and for a disabled one, 200 again once enabled', async () => {
    tick()
    expect((await send(sender, { a: 1 }, {}, 'no-such-endpoint')).status).toBe(404)
    await service.api('POST', `${BASE}/${sender.endpoint.id}/off`)
    const disabled = await send(sender, { a: 1 })
    expect(disabled.status).toBe(404)
    expect(disabled.body.name).toBe('NotFoundError')
    await service.api('POST', `${BASE}/${sender.endpoint.id}/on`)
    expect((await send(sender, { a: 1 })).status).toBe(200)
  })

  it('404 for a GET: signals are POSTed', async () => {
    expect((await service.api('GET', `/api/signal-endpoint/${sender.endpoint.name}`, { token: null })).status).toBe(404)
  })

  it('the payload limit is exactly 100 kb: 102400 bytes are stored, 102401 answer 413', async () => {
    tick()
    const atLimit = bodyOfBytes(LIMIT)
    expect(Buffer.byteLength(atLimit)).toBe(LIMIT)
    const accepted = await send(sender, atLimit)
    expect(accepted.status).toBe(200)
    tick()
    const over = bodyOfBytes(LIMIT + 1)
    expect(Buffer.byteLength(over)).toBe(LIMIT + 1)
    const refused = await send(sender, over)
    expect(refused.status).toBe(413)
    expect(refused.body).toMatchObject({ name: 'PayloadTooLargeError', message: expect.stringContaining('102400') })
    const stored = await service.db.query<{ n: number }>('SELECT count(*)::int AS n FROM signals WHERE id > $1', [
      accepted.body.id,
    ])
    expect(stored[0]?.n).toBe(0)
  })

  it('413 also for a streamed body without Content-Length that grows over the limit', async () => {
    tick()
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024))
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 10) controller.enqueue(sent === 1 ? new TextEncoder().encode('{"d":"') : chunk)
        else controller.close()
      },
    })
    const response = await fetch(`${service.url}/api/signal-endpoint/${sender.endpoint.name}`, {
      method: 'POST',
      headers: { authorization: sender.token, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit)
    expect(response.status).toBe(413)
  })

  it('400 for invalid JSON, for \\u0000 or a lone surrogate in a text and for nesting deeper than 100', async () => {
    tick()
    const invalid = await send(sender, '{"a": ')
    expect(invalid.status).toBe(400)
    expect(invalid.body).toMatchObject({ name: 'BadDataError', message: expect.stringContaining('JSON') })
    tick()
    expect((await send(sender, '{"a":"x\\u0000y"}')).status).toBe(400)
    tick()
    const surrogate = await send(sender, '{"a":"\\ud800"}')
    expect(surrogate.status).toBe(400)
    expect(surrogate.body.message).toContain('surrogate')
    tick()
    expect((await send(sender, `${'['.repeat(101)}${']'.repeat(101)}`)).status).toBe(400)
    tick()
    expect((await send(sender, `${'['.repeat(100)}${']'.repeat(100)}`)).status).toBe(200)
  })

  it.each([
    ['text/plain', 'hello'],
    ['application/x-www-form-urlencoded', 'a=1'],
    ['', '{"a":1}'],
  ])('415 for a body sent as "%s"', async (type, body) => {
    tick()
    const response = await send(sender, body, { 'content-type': type })
    expect(response.status).toBe(415)
    expect(response.body).toMatchObject({
      name: 'ContentTypeError',
      message: expect.stringContaining('application/json'),
    })
  })

  it('rate limit over time: the second request within a second gets 429 with Retry-After, one a second later succeeds', async () => {
    tick()
    const first = await send(sender, { n: 1 })
    expect(first.status).toBe(200)
    expect(first.headers.get('ratelimit-limit')).toBe('1')
    expect(first.headers.get('ratelimit-remaining')).toBe('0')
    now = new Date(now.getTime() + 999)
    const second = await send(sender, { n: 2 })
    expect(second.status).toBe(429)
    expect(second.headers.get('retry-after')).toBe('1')
    expect(second.headers.get('ratelimit-limit')).toBe('1')
    expect(second.headers.get('ratelimit-remaining')).toBe('0')
    expect(second.headers.get('ratelimit-reset')).toBe('1')
    expect(second.headers.get('ratelimit-policy')).toBe('1;w=1')
    expect(second.body).toMatchObject({ name: 'RateLimitError', message: expect.stringContaining('1 per second') })
    now = new Date(now.getTime() + 1)
    expect((await send(sender, { n: 3 })).status).toBe(200)
    const recent = (await service.api('GET', `${BASE}/${sender.endpoint.id}/signals?limit=2`)).body
      .signalEndpointSignals
    expect(recent.map((s: { payload: { n: number } }) => s.payload.n)).toEqual([3, 1])
  })

  it('the rate limit is per endpoint, whatever the token; a wrong token uses none of it', async () => {
    tick()
    expect((await send(sender, { a: 1 }, { authorization: 'Bearer wrong' })).status).toBe(401)
    expect((await send(sender, { a: 1 })).status).toBe(200)
    expect((await send(sender, { a: 2 }, { authorization: sender.tokens[1] as string })).status).toBe(429)
    const other = await setUp(service, 'independent')
    expect((await send(other, { a: 3 })).status).toBe(200)
  })

  it('signals of one endpoint: newest first, with limit and offset paging', async () => {
    const all = (await service.api('GET', `${BASE}/${sender.endpoint.id}/signals?limit=1000`)).body
      .signalEndpointSignals
    expect(all.length).toBeGreaterThan(10)
    const ids = all.map((s: { id: number }) => s.id)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    const page = (await service.api('GET', `${BASE}/${sender.endpoint.id}/signals?limit=3&offset=2`)).body
      .signalEndpointSignals
    expect(page.map((s: { id: number }) => s.id)).toEqual(ids.slice(2, 5))
    expect((await service.api('GET', `${BASE}/${sender.endpoint.id}/signals`)).body.signalEndpointSignals).toHaveLength(
      Math.min(50, all.length),
    )
    expect((await service.api('GET', `${BASE}/999/signals`)).status).toBe(404)
    expect((await service.api('GET', `${BASE}/${sender.endpoint.id}/signals?limit=0`)).status).toBe(400)
    expect((await service.api('GET', `${BASE}/${sender.endpoint.id}/signals?limit=1001`)).status).toBe(400)
  })

  it('signals of all endpoints within a time range, with the total', async () => {
    now = new Date('2026-03-05T12:00:00.000Z')
    expect((await send(sender, { day: 5 })).status).toBe(200)
    now = new Date('2026-03-07T23:59:59.000Z')
    expect((await send(sender, { day: 7 })).status).toBe(200)
    now = new Date('2026-03-09T00:00:00.000Z')
    expect((await send(sender, { day: 9 })).status).toBe(200)
    const ranged = await service.api('GET', '/api/admin/signals?from=IS:2026-03-05&to=IS:2026-03-07')
    expect(ranged.status).toBe(200)
    expect(ranged.body.total).toBe(2)
    expect(ranged.body.signals).toEqual([
      expect.objectContaining({
        payload: { day: 7 },
        sourceId: sender.endpoint.id,
        sourceName: 'alerts',
        sourceDescription: null,
        tokenName: 'grafana',
        createdBySourceTokenId: expect.any(Number),
      }),
      expect.objectContaining({ payload: { day: 5 } }),
    ])
    const plain = await service.api('GET', '/api/admin/signals?from=2026-03-06&to=2026-03-09T00:00:00.000Z&limit=1')
    expect(plain.body).toMatchObject({ total: 2, signals: [expect.objectContaining({ payload: { day: 9 } })] })
    const everything = await service.api('GET', '/api/admin/signals?limit=1000')
    expect(everything.body.total).toBe(everything.body.signals.length)
    expect((await service.api('GET', '/api/admin/signals?from=yesterday')).status).toBe(400)
    expect((await service.api('GET', '/api/admin/signals?limit=1001')).status).toBe(400)
  })

  it('deleting a token keeps its signals (tokenName null) and stops it working', async () => {
    const tokens = (await service.api('GET', `${BASE}/${sender.endpoint.id}/tokens`)).body.signalEndpointTokens
    const datadog = tokens.find((t: { name: string }) => t.name === 'datadog')
    expect((await service.api('DELETE', `${BASE}/${sender.endpoint.id}/tokens/${datadog.id}`)).status).toBe(200)
    tick()
    expect((await send(sender, { a: 1 }, { authorization: sender.tokens[1] as string })).status).toBe(401)
    const signals = (await service.api('GET', `${BASE}/${sender.endpoint.id}/signals?limit=1000`)).body
      .signalEndpointSignals
    expect(
      signals.some(
        (s: { payload: unknown; tokenName: string | null }) => Array.isArray(s.payload) && s.tokenName === null,
      ),
    ).toBe(true)
  })
})

describe('limits from environment variables', () => {
  const now = new Date('2026-04-01T00:00:00.000Z')
  let service: TestService
  let sender: Sender
  beforeAll(async () => {
    service = await startTestService({
      clock: () => now,
      actionRunner: false,
      env: {
        SIGNAL_ENDPOINT_RATE_LIMIT_PER_SECOND: '3',
        UNLEASH_SIGNAL_ENDPOINTS_LIMIT: '1',
        UNLEASH_SIGNAL_TOKENS_PER_ENDPOINT_LIMIT: '2',
        SIGNAL_ENDPOINT_PAYLOAD_LIMIT_BYTES: '1000',
      },
    })
    sender = await setUp(service, 'busy', ['a', 'b'])
  })
  afterAll(() => service.close())

  it('endpoints and tokens follow UNLEASH_SIGNAL_ENDPOINTS_LIMIT and UNLEASH_SIGNAL_TOKENS_PER_ENDPOINT_LIMIT', async () => {
    const second = await service.api('POST', BASE, { body: { name: 'second' } })
    expect(second.status).toBe(400)
    expect(second.body.message).toContain('limit of 1')
    const extra = await service.api('POST', `${BASE}/${sender.endpoint.id}/tokens`, { body: { name: 'one-too-many' } })
    expect(extra.status).toBe(400)
    expect(extra.body.message).toContain('limit of 2')
  })

  it('the rate follows SIGNAL_ENDPOINT_RATE_LIMIT_PER_SECOND and the payload limit SIGNAL_ENDPOINT_PAYLOAD_LIMIT_BYTES', async () => {
    const first = await send(sender, bodyOfBytes(1000))
    expect(first.status).toBe(200)
    expect(first.headers.get('ratelimit-remaining')).toBe('2')
    expect((await send(sender, bodyOfBytes(1001))).status).toBe(413)
    expect((await send(sender, { n: 3 })).status).toBe(200)
    const fourth = await send(sender, { n: 4 })
    expect(fourth.status).toBe(429)
    expect(fourth.headers.get('ratelimit-policy')).toBe('3;w=1')
  })

  it('bad values stop the start, naming the variable', () => {
    expect(() =>
      parseServiceConfig({ SIGNAL_ENDPOINT_RATE_LIMIT_PER_SECOND: 'fast', UNLEASH_SIGNAL_ENDPOINTS_LIMIT: '0' }),
    ).toThrow(/SIGNAL_ENDPOINT_RATE_LIMIT_PER_SECOND must be a positive integer[\s\S]*UNLEASH_SIGNAL_ENDPOINTS_LIMIT/)
    expect(() => parseServiceConfig({ SIGNAL_ENDPOINT_PAYLOAD_LIMIT_BYTES: String(2 * 1024 * 1024) })).toThrow(
      /SIGNAL_ENDPOINT_PAYLOAD_LIMIT_BYTES must be at most 1048576/,
    )
    expect(parseServiceConfig({}).signals).toEqual({
      ratePerSecond: 1,
      endpointsLimit: 5,
      tokensPerEndpointLimit: 5,
      payloadLimitBytes: 102400,
      actionSetsPerProjectLimit: 5,
      filtersPerActionSetLimit: 5,
      valuesPerFilterLimit: 25,
      actionsPerActionSetLimit: 10,
      sweepIntervalMs: 5000,
    })
  })
})

describe('the rate limit in real time', () => {
  it('a second request at once is refused, one a second later succeeds', async () => {
    const service = await startTestService({ actionRunner: false })
    try {
      const sender = await setUp(service, 'realtime')
      expect((await send(sender, { n: 1 })).status).toBe(200)
      const refused = await send(sender, { n: 2 })
      expect(refused.status).toBe(429)
      await new Promise((resolve) => setTimeout(resolve, Number(refused.headers.get('retry-after')) * 1000))
      expect((await send(sender, { n: 3 })).status).toBe(200)
    } finally {
      await service.close()
    }
  })
})
