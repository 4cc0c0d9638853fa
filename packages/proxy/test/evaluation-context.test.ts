// How the proxy builds the evaluation context (docs/old-proxy-compatibility.md section 2), seen
// through flags whose constraints reveal each field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeUpstream, type FakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { CLIENT_KEY, startTestProxy, type TestProxy } from './helpers/proxy.js'

const inList = (name: string, contextName: string, values: string[]) => ({
  name,
  enabled: true,
  strategies: [{ name: 'default', constraints: [{ contextName, operator: 'IN', values }] }],
})
const FEATURES = {
  version: 2,
  features: [
    inList('region.eu', 'region', ['eu']),
    inList('tenant.acme', 'tenantId', ['acme']),
    inList('env.production', 'environment', ['production']),
    inList('app.mobile', 'appName', ['mobile']),
    inList('app.default', 'appName', ['service-proxy']),
    inList('ip.local', 'remoteAddress', ['127.0.0.1']),
    inList('ip.forwarded', 'remoteAddress', ['203.0.113.9']),
    inList('ip.hop', 'remoteAddress', ['10.1.1.1']),
    {
      name: 'date.future',
      enabled: true,
      strategies: [
        {
          name: 'default',
          constraints: [{ contextName: 'currentTime', operator: 'DATE_AFTER', value: '2030-01-01T00:00:00Z' }],
        },
      ],
    },
    {
      name: 'session.rollout',
      enabled: true,
      strategies: [{ name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'sessionId', groupId: 's' } }],
    },
  ],
}

const enabled = async (proxy: TestProxy, path: string, init: RequestInit = {}) => {
  const res = await fetch(proxy.at(path), {
    ...init,
    headers: { authorization: CLIENT_KEY, 'content-type': 'application/json', ...(init.headers ?? {}) },
  })
  expect(res.status).toBe(200)
  return ((await res.json()) as { toggles: Array<{ name: string }> }).toggles.map((t) => t.name)
}

let upstream: FakeUpstream
let proxy: TestProxy
beforeAll(async () => {
  upstream = await startFakeUpstream(FEATURES)
  proxy = await startTestProxy(upstream.url)
})
afterAll(async () => {
  await proxy?.close()
  await upstream?.close()
})

describe('context from the query string', () => {
  it('reads properties[x]=y (also URL-encoded) and moves unknown keys into properties', async () => {
    expect(await enabled(proxy, '/proxy?properties[region]=eu')).toContain('region.eu')
    expect(await enabled(proxy, '/proxy?properties%5Bregion%5D=eu')).toContain('region.eu')
    expect(await enabled(proxy, '/proxy?tenantId=acme')).toContain('tenant.acme')
  })

  it('an explicit properties entry wins over a loose key of the same name', async () => {
    expect(await enabled(proxy, '/proxy?region=us&properties[region]=eu')).toContain('region.eu')
  })

  it("environment and appName from the request apply when not pinned; the app name defaults to the proxy's", async () => {
    expect(await enabled(proxy, '/proxy?environment=production')).toContain('env.production')
    expect(await enabled(proxy, '/proxy?appName=mobile')).toContain('app.mobile')
    expect(await enabled(proxy, '/proxy')).toContain('app.default')
  })

  it('currentTime from the request is used by DATE constraints; an invalid one is dropped', async () => {
    expect(await enabled(proxy, '/proxy?currentTime=2031-01-01T00:00:00Z')).toContain('date.future')
    expect(await enabled(proxy, '/proxy?currentTime=garbage')).not.toContain('date.future')
  })

  it("remoteAddress defaults to the caller's address (IPv4, not ::ffff:) and the request can set it", async () => {
    expect(await enabled(proxy, '/proxy')).toContain('ip.local')
    expect(await enabled(proxy, '/proxy?remoteAddress=203.0.113.9')).toContain('ip.forwarded')
  })
})

describe('context from the POST body', () => {
  it('reads context fields and properties', async () => {
    const names = await enabled(proxy, '/proxy', {
      method: 'POST',
      body: JSON.stringify({ context: { environment: 'production', properties: { region: 'eu' }, tenantId: 'acme' } }),
    })
    expect(names).toEqual(expect.arrayContaining(['env.production', 'region.eu', 'tenant.acme']))
  })

  // Regression (found by http-fuzz.test.ts): `new Date({"toString":1})` throws, which answered 500.
  it('a currentTime that cannot become a date is dropped like an invalid one, not a 500', async () => {
    for (const currentTime of [{ toString: 1 }, [{ valueOf: 1, toString: 1 }], { toString: {} }]) {
      expect(
        await enabled(proxy, '/proxy', { method: 'POST', body: JSON.stringify({ context: { currentTime } }) }),
      ).not.toContain('date.future')
    }
    expect(
      await enabled(proxy, '/proxy', {
        method: 'POST',
        body: JSON.stringify({ context: { currentTime: '2031-01-01T00:00:00Z' } }),
      }),
    ).toContain('date.future')
  })
})

describe('sessionId', () => {
  it('is generated per request when missing, so a sessionId rollout varies between requests', async () => {
    const seen = new Set<boolean>()
    for (let i = 0; i < 40; i++) seen.add((await enabled(proxy, '/proxy')).includes('session.rollout'))
    expect(seen).toEqual(new Set([true, false]))
  })

  it('is kept when given, so the answer is stable', async () => {
    const first = (await enabled(proxy, '/proxy?sessionId=fixed-1')).includes('session.rollout')
    for (let i = 0; i < 10; i++)
      expect((await enabled(proxy, '/proxy?sessionId=fixed-1')).includes('session.rollout')).toBe(first)
  })
})

describe('environment pinning', () => {
  it("the configured environment overrides the request's", async () => {
    const pinned = await startTestProxy(upstream.url, { environment: 'production' })
    try {
      expect(await enabled(pinned, '/proxy?environment=staging')).toContain('env.production')
      expect(
        await enabled(pinned, '/proxy', {
          method: 'POST',
          body: JSON.stringify({ context: { environment: 'staging' } }),
        }),
      ).toContain('env.production')
    } finally {
      await pinned.close()
    }
  })
})

describe('trustProxy', () => {
  const forwarded = { 'x-forwarded-for': '203.0.113.9, 10.1.1.1' }
  it.each([
    [undefined, 'ip.local'],
    [false, 'ip.local'],
    [true, 'ip.forwarded'],
    ['loopback', 'ip.hop'],
    ['127.0.0.1', 'ip.hop'],
    ['10.0.0.0/8,127.0.0.1', 'ip.forwarded'],
    [['10.0.0.0/8', '127.0.0.0/8'], 'ip.forwarded'],
  ] as const)(
    'trustProxy %j gives the remoteAddress of %s (X-Forwarded-For: 203.0.113.9, 10.1.1.1)',
    async (trustProxy, flag) => {
      const trusting = await startTestProxy(
        upstream.url,
        trustProxy === undefined ? {} : { trustProxy: trustProxy as never },
      )
      try {
        expect(await enabled(trusting, '/proxy', { headers: forwarded })).toContain(flag)
      } finally {
        await trusting.close()
      }
    },
  )

  it('an explicit remoteAddress still wins', async () => {
    const trusting = await startTestProxy(upstream.url, { trustProxy: true })
    try {
      expect(await enabled(trusting, '/proxy?remoteAddress=10.1.1.1', { headers: forwarded })).toContain('ip.hop')
    } finally {
      await trusting.close()
    }
  })
})

describe('custom enrichers', () => {
  it('run in order on the normalised context, before pinning', async () => {
    const enriching = await startTestProxy(upstream.url, {
      expCustomEnrichers: [
        (context) => ({ ...context, properties: { ...(context.properties as object), region: 'eu' } }),
        async (context) => ({ ...context, properties: { ...(context.properties as object), tenantId: 'acme' } }),
      ],
    })
    try {
      expect(await enabled(enriching, '/proxy')).toEqual(expect.arrayContaining(['region.eu', 'tenant.acme']))
    } finally {
      await enriching.close()
    }
  })
})
