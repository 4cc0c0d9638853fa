// The proxy's routes through a real listening proxy and a real fake upstream, with the
// statuses, headers and bytes of the old proxy (docs/old-proxy-compatibility.md sections 1 and 3).
import { Agent, request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeUpstream, type FakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { CLIENT_KEY, startTestProxy, type TestProxy } from './helpers/proxy.js'

// The flags of the old proxy's documented example (section 3.3): the same upstream and context
// must give the same bytes.
const EXAMPLE_FEATURES = {
  version: 2,
  features: [
    { name: 'zeta.enabled', enabled: true, strategies: [{ name: 'default', parameters: {} }], impressionData: true },
    {
      name: 'beta.variants',
      enabled: true,
      strategies: [{ name: 'default' }],
      variants: [{ name: 'red', weight: 1000, payload: { type: 'string', value: 'r' } }],
    },
    { name: 'gamma.user', enabled: true, strategies: [{ name: 'userWithId', parameters: { userIds: '123' } }] },
    { name: 'delta.off', enabled: false, strategies: [{ name: 'default' }], impressionData: false },
  ],
  segments: [],
}
const EXAMPLE_BODY =
  '{"toggles":[{"name":"zeta.enabled","enabled":true,"variant":{"name":"disabled","enabled":false,"feature_enabled":true,"featureEnabled":true},"impressionData":true},{"name":"beta.variants","enabled":true,"variant":{"name":"red","payload":{"type":"string","value":"r"},"enabled":true,"feature_enabled":true,"featureEnabled":true}},{"name":"gamma.user","enabled":true,"variant":{"name":"disabled","enabled":false,"feature_enabled":true,"featureEnabled":true}}]}'

const auth = { authorization: CLIENT_KEY }

/** A request on a given agent (fetch hides which connection it uses). */
function rawRequest(
  agent: Agent,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const { port } = new URL(proxy.url)
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}
const json = { ...auth, 'content-type': 'application/json' }

let upstream: FakeUpstream
let proxy: TestProxy
beforeAll(async () => {
  upstream = await startFakeUpstream(EXAMPLE_FEATURES)
  proxy = await startTestProxy(upstream.url, {
    enableAllEndpoint: true,
    expServerSideSdkConfig: { tokens: ['server-token'] },
  })
})
afterAll(async () => {
  await proxy?.close()
  await upstream?.close()
})

describe('GET /proxy', () => {
  it('answers the old proxy example byte for byte, with its headers', async () => {
    const res = await fetch(proxy.at('/proxy?userId=123'), { headers: auth })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe(EXAMPLE_BODY)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('public, max-age=2')
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-expose-headers')).toBe('ETag')
    expect(res.headers.get('vary')).toBe('Accept-Encoding')
    // A weak ETag: the body's byte length, then a fingerprint of its toggles (serialize.ts).
    expect(res.headers.get('etag')).toMatch(/^W\/"[0-9a-f]+-[A-Za-z0-9+/]{16}"$/)
    expect(res.headers.get('etag')!.split('-')[0]).toBe(`W/"${Buffer.byteLength(EXAMPLE_BODY).toString(16)}`)
  })

  it('answers 304 to a matching If-None-Match, with the validators and no body', async () => {
    const first = await fetch(proxy.at('/proxy?userId=123'), { headers: auth })
    const etag = first.headers.get('etag')!
    for (const condition of [etag, `"other", ${etag}`, '*']) {
      const res = await fetch(proxy.at('/proxy?userId=123'), { headers: { ...auth, 'if-none-match': condition } })
      expect(res.status).toBe(304)
      expect(res.headers.get('etag')).toBe(etag)
      expect(res.headers.get('cache-control')).toBe('public, max-age=2')
      expect(await res.text()).toBe('')
    }
    const changed = await fetch(proxy.at('/proxy?userId=124'), { headers: { ...auth, 'if-none-match': etag } })
    expect(changed.status).toBe(200)
  })

  it('HEAD answers the headers of GET without a body', async () => {
    const res = await fetch(proxy.at('/proxy?userId=123'), { method: 'HEAD', headers: auth })
    expect(res.status).toBe(200)
    expect(res.headers.get('etag')).toBeTruthy()
    expect(await res.text()).toBe('')
  })

  it('matches routes case-insensitively and with a trailing slash, as Express did', async () => {
    for (const path of ['/PROXY?userId=123', '/proxy/?userId=123', '/Proxy/All/']) {
      expect((await fetch(proxy.at(path), { headers: auth })).status).toBe(200)
    }
  })

  it('compresses with gzip or br when asked, keeping the ETag of the uncompressed body', async () => {
    const bigUpstream = await startFakeUpstream({
      version: 2,
      features: Array.from({ length: 40 }, (_, i) => ({
        name: `big.${i}`,
        enabled: true,
        strategies: [{ name: 'default' }],
      })),
    })
    const big = await startTestProxy(bigUpstream.url)
    try {
      const plain = await fetch(big.at('/proxy?userId=9'), { headers: { ...auth, 'accept-encoding': 'identity' } })
      for (const encoding of ['gzip', 'br', 'deflate']) {
        const res = await fetch(big.at('/proxy?userId=9'), { headers: { ...auth, 'accept-encoding': encoding } })
        expect(res.headers.get('content-encoding')).toBe(encoding)
        expect(res.headers.get('etag')).toBe(plain.headers.get('etag'))
      }
      expect(plain.headers.get('content-encoding')).toBeNull()
    } finally {
      await big.close()
      await bigUpstream.close()
    }
  })
})

describe('POST /proxy', () => {
  it('without a list answers like GET, with impressionData as the definition has it', async () => {
    const res = await fetch(proxy.at('/proxy'), {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ context: { userId: '123' } }),
    })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe(EXAMPLE_BODY)
  })

  it('with a list evaluates exactly those names in order, unknown ones disabled, impressionData always present', async () => {
    const res = await fetch(proxy.at('/proxy'), {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ context: { userId: '1' }, toggles: ['gamma.user', 'nope', 'zeta.enabled', 'gamma.user'] }),
    })
    expect(await res.json()).toEqual({
      toggles: [
        {
          name: 'gamma.user',
          enabled: false,
          variant: { name: 'disabled', enabled: false, feature_enabled: false, featureEnabled: false },
          impressionData: false,
        },
        {
          name: 'nope',
          enabled: false,
          variant: { name: 'disabled', enabled: false, feature_enabled: false, featureEnabled: false },
          impressionData: false,
        },
        {
          name: 'zeta.enabled',
          enabled: true,
          variant: { name: 'disabled', enabled: false, feature_enabled: true, featureEnabled: true },
          impressionData: true,
        },
        {
          name: 'gamma.user',
          enabled: false,
          variant: { name: 'disabled', enabled: false, feature_enabled: false, featureEnabled: false },
          impressionData: false,
        },
      ],
    })
  })

  it('accepts a missing body, an empty object and unknown keys; never answers 304', async () => {
    for (const body of [undefined, '{}', '{"blah":"hello"}']) {
      const res = await fetch(proxy.at('/proxy'), { method: 'POST', headers: { ...json, 'if-none-match': '*' }, body })
      expect(res.status).toBe(200)
    }
  })

  // Regression (found by http-fuzz.test.ts): a POST without a body parsed its query string as JSON (400).
  it('ignores the query string, also when there is no body (spec 1.5)', async () => {
    for (const body of [undefined, '{"context":{"userId":"123"}}']) {
      const res = await fetch(proxy.at('/proxy?userId=1&properties[x]=y'), { method: 'POST', headers: json, body })
      expect(res.status).toBe(200)
      const names = ((await res.json()) as { toggles: Array<{ name: string }> }).toggles.map((t) => t.name)
      expect(names.includes('gamma.user')).toBe(body !== undefined)
    }
    const all = await fetch(proxy.at('/proxy/all?userId=123'), { method: 'POST', headers: auth })
    expect(all.status).toBe(200)
    expect(await all.text()).toContain('{"name":"gamma.user","enabled":false,')
  })

  it('coerces context values as the old schema did ("userId": 123 matches "123")', async () => {
    const res = await fetch(proxy.at('/proxy'), {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ context: { userId: 123, properties: { plan: 5, beta: true } } }),
    })
    expect(((await res.json()) as { toggles: Array<{ name: string }> }).toggles.map((t) => t.name)).toContain(
      'gamma.user',
    )
  })
})

describe('/proxy/all', () => {
  it("includes disabled toggles with the old proxy's variant shape (no featureEnabled)", async () => {
    const res = await fetch(proxy.at('/proxy/all?userId=1'), { headers: auth })
    const body = await res.text()
    expect(body).toContain(
      '{"name":"delta.off","enabled":false,"variant":{"name":"disabled","enabled":false,"feature_enabled":false},"impressionData":false}',
    )
    expect(body).toContain(
      '{"name":"gamma.user","enabled":false,"variant":{"name":"disabled","enabled":false,"feature_enabled":false}}',
    )
  })

  it('answers 501 (after authentication) when the endpoint is disabled', async () => {
    const other = await startTestProxy(upstream.url)
    try {
      const res = await fetch(other.at('/proxy/all'), { headers: auth })
      expect(res.status).toBe(501)
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(await res.text()).toMatch(/^The \/proxy\/all endpoint is disabled\./)
      expect((await fetch(other.at('/proxy/all'))).status).toBe(401)
      expect((await fetch(other.at('/proxy/all'), { method: 'POST', headers: json, body: '{}' })).status).toBe(501)
    } finally {
      await other.close()
    }
  })
})

describe('statuses for bad requests', () => {
  it('401 Unauthorized for a missing or wrong key', async () => {
    for (const headers of [{}, { authorization: 'wrong' }, { authorization: `Bearer ${CLIENT_KEY}` }] as Array<
      Record<string, string>
    >) {
      const res = await fetch(proxy.at('/proxy'), { headers })
      expect(res.status).toBe(401)
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
      expect(await res.text()).toBe('Unauthorized')
    }
  })

  // Vexil (deliberate): the old proxy read and validated the body first (415, 400, then 503 and
  // 401). The key is checked before a body is read, so a caller without one never gets its
  // body parsed: 401 whatever the body, and the connection is closed rather than drained.
  it('401 without a key, whatever the body: the key is checked before the body is read', async () => {
    for (const path of [
      '/proxy',
      '/proxy/all',
      '/proxy/client/metrics',
      '/proxy/all/client/metrics',
      '/proxy/client/register',
    ]) {
      for (const [type, body] of [
        ['application/json', '{"con'],
        ['text/plain', 'hello'],
        ['application/json', '[]'],
        ['application/json', JSON.stringify({ big: 'x'.repeat(110 * 1024) })],
      ]) {
        const res = await fetch(proxy.at(path), { method: 'POST', headers: { 'content-type': type! }, body })
        expect(res.status, `${path} ${type} ${body!.slice(0, 10)}`).toBe(401)
        expect(await res.text()).toBe('Unauthorized')
      }
    }
    const query = await fetch(proxy.at('/proxy?properties=eu'))
    expect(query.status).toBe(401)
  })

  it('415 for a body that is not JSON', async () => {
    const res = await fetch(proxy.at('/proxy'), {
      method: 'POST',
      headers: { ...auth, 'content-type': 'text/plain' },
      body: 'hello',
    })
    expect(res.status).toBe(415)
    expect(await res.text()).toBe('')
  })

  it('400 JSON for malformed JSON', async () => {
    const res = await fetch(proxy.at('/proxy'), { method: 'POST', headers: json, body: '{"con' })
    expect(res.status).toBe(400)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(((await res.json()) as { error: string }).error).toMatch(
      /^We were unable to parse the data you provided\. Please check it for syntax errors\. The message we got was: "/,
    )
  })

  it.each([
    ['/proxy?properties=eu', undefined, '/query/properties', 'must be object'],
    ['/proxy?userId=1&userId=2', undefined, '/query/userId', 'must be string'],
    ['/proxy', '[]', '/body', 'must be object'],
    ['/proxy', '{"toggles":"a"}', '/body/toggles', 'must be array'],
    ['/proxy', '{"context":"x"}', '/body/context', 'must be object'],
    ['/proxy', '{"context":{"properties":{"region":{"a":1}}}}', '/body/context/properties/region', 'must be string'],
  ])('400 with the validation error for %s %s', async (path, body, instancePath, message) => {
    const res = await fetch(
      proxy.at(path),
      body === undefined ? { headers: auth } : { method: 'POST', headers: json, body },
    )
    expect(res.status).toBe(400)
    const answer = (await res.json()) as { error: string; validation: Array<{ instancePath: string; message: string }> }
    expect(answer.error).toBe('Request validation failed')
    expect(answer.validation).toHaveLength(1)
    expect(answer.validation[0]).toMatchObject({ instancePath, message })
  })

  // Regression (found by http-fuzz.test.ts): a body that failed to decode was left half read on a
  // keep-alive connection, so the client's next request on it got ECONNRESET.
  it('400 for a body that fails to decode, and the connection stays usable', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      // Under the limit (90 kB arrives in more than one read); a compressed body over the limit is
      // 413 before any decoding (see below).
      for (const size of [10, 90_000]) {
        const body = Buffer.from(`{"context":{"userId":"${'u'.repeat(size)}"}}`)
        const bad = await rawRequest(agent, 'POST', '/proxy', { ...json, 'content-encoding': 'gzip' }, body)
        expect(bad.status).toBe(400)
        expect(bad.text).toContain('We were unable to parse the data you provided')
        expect(await rawRequest(agent, 'GET', '/proxy/health', {})).toMatchObject({ status: 200, text: 'ok' })
      }
    } finally {
      agent.destroy()
    }
  })

  it('413 JSON for a body over 100 kB', async () => {
    const res = await fetch(proxy.at('/proxy'), {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ context: { properties: { big: 'x'.repeat(110 * 1024) } } }),
    })
    expect(res.status).toBe(413)
    expect(((await res.json()) as { error: string; limit: number }).limit).toBe(102400)
  })

  // Vexil: the compressed bytes count too (empty deflate blocks inflate to nothing), so a
  // compressed body over the limit is 413 before it is decoded, whatever it would decode to.
  it('413 for a compressed body whose own bytes are over the limit', async () => {
    const body = Buffer.from(`{"context":{"userId":"${'u'.repeat(150_000)}"}}`)
    const res = await fetch(proxy.at('/proxy'), {
      method: 'POST',
      headers: { ...json, 'content-encoding': 'gzip' },
      body,
    })
    expect(res.status).toBe(413)
    expect(res.headers.get('connection')).toBe('close')
  })

  it('404 for unknown routes and methods, as Express answered', async () => {
    for (const [method, path] of [
      ['GET', '/nope'],
      ['PUT', '/proxy'],
      ['DELETE', '/proxy/all'],
      ['GET', '/proxy/client/metrics'],
    ] as const) {
      const res = await fetch(proxy.at(path), { method, headers: auth })
      expect(res.status).toBe(404)
      expect(await res.text()).toContain(`<pre>Cannot ${method} ${path}</pre>`)
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    }
  })
})

describe('operational routes', () => {
  it('health answers ok without a key', async () => {
    const res = await fetch(proxy.at('/proxy/health'))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await res.text()).toBe('ok')
    expect(res.headers.get('etag')).toBe('W/"2-eoX0dku9ba8cNUXvu/DyeabcC+s"')
  })

  it("prometheus exposes the old proxy's metrics", async () => {
    const res = await fetch(proxy.at('/proxy/internal-backstage/prometheus'))
    const text = await res.text()
    expect(res.status).toBe(200)
    expect(text).toContain('unleash_proxy_up 1')
    expect(text).toMatch(/last_metrics_update_epoch_timestamp_ms \d{13}/)
    expect(text).toMatch(/last_metrics_fetch_epoch_timestamp_ms \d{13}/)
  })

  it('prometheus counts evaluation requests answered from the response cache and evaluated', async () => {
    const scrape = async () => {
      const text = await (await fetch(proxy.at('/proxy/internal-backstage/prometheus'))).text()
      const count = (result: string) =>
        Number(new RegExp(`vexil_proxy_response_cache_total\\{result="${result}"\\} (\\d+)`).exec(text)?.[1] ?? 0)
      return { hit: count('hit'), miss: count('miss') }
    }
    const before = await scrape()
    const body = JSON.stringify({ context: { userId: 'cache-counter', sessionId: 's' } })
    // An answer is admitted on its second sight: two evaluations, then answers from the cache.
    for (let i = 0; i < 4; i++) await (await fetch(proxy.at('/proxy'), { method: 'POST', headers: json, body })).text()
    expect(await scrape()).toEqual({ hit: before.hit + 2, miss: before.miss + 2 })
  })

  it('/proxy/client/features serves definitions with segments to server-side tokens only, with ETag and 304', async () => {
    expect((await fetch(proxy.at('/proxy/client/features'), { headers: auth })).status).toBe(401)
    const res = await fetch(proxy.at('/proxy/client/features'), { headers: { authorization: 'server-token' } })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { version: number; features: unknown[]; segments: unknown[] }
    expect(body.version).toBe(2)
    expect(body.features).toEqual(EXAMPLE_FEATURES.features)
    expect(body.segments).toEqual([])
    const again = await fetch(proxy.at('/proxy/client/features'), {
      headers: { authorization: 'server-token', 'if-none-match': res.headers.get('etag')! },
    })
    expect(again.status).toBe(304)
  })

  it('register accepts client keys and server tokens, validates the body', async () => {
    const body = JSON.stringify({
      appName: 'web',
      interval: 10000,
      started: new Date().toISOString(),
      strategies: ['default'],
    })
    for (const key of [CLIENT_KEY, 'server-token']) {
      const res = await fetch(proxy.at('/proxy/client/register'), {
        method: 'POST',
        headers: { authorization: key, 'content-type': 'application/json' },
        body,
      })
      expect(res.status).toBe(200)
      expect(await res.text()).toBe('OK')
    }
    expect(
      (await fetch(proxy.at('/proxy/client/register'), { method: 'POST', headers: json, body: '{"appName":"web"}' }))
        .status,
    ).toBe(400)
    expect(
      (
        await fetch(proxy.at('/proxy/client/register'), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        })
      ).status,
    ).toBe(401)
  })
})

describe('CORS preflight', () => {
  it('answers OPTIONS on any path with 204 and the defaults', async () => {
    for (const path of ['/proxy', '/anything/else']) {
      const res = await fetch(proxy.at(path), {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      })
      expect(res.status).toBe(204)
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST')
      expect(res.headers.get('access-control-allow-headers')).toBe('authorization,content-type')
      expect(res.headers.get('access-control-max-age')).toBe('172800')
      expect(res.headers.get('access-control-expose-headers')).toBe('ETag')
      expect(res.headers.get('vary')).toBe('Access-Control-Request-Headers')
    }
  })
})
