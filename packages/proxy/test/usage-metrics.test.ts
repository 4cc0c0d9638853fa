// Usage metrics: what is counted, what is sent upstream and when, and that nothing is lost when
// a send fails or the proxy stops (docs/old-proxy-compatibility.md 5.3: counts that fail to send are kept and merged).
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { FakeUpstream, RecordedRequest } from '@vexil/test-fixtures/fake-upstream.ts'
import { MAX_UNKNOWN_FLAGS, METRICS_SEND_LIMIT_BYTES, splitBucket } from '@vexil/sync'
import { CLIENT_KEY, type TestProxy, type TestProxyOptions, useServers } from './helpers/proxy.js'

const FEATURES = {
  version: 2,
  features: [
    {
      name: 'on',
      enabled: true,
      strategies: [{ name: 'default' }],
      variants: [{ name: 'blue', weight: 1000, stickiness: 'default' }],
    },
    { name: 'off', enabled: false, strategies: [] },
    {
      name: 'split',
      enabled: true,
      strategies: [
        {
          name: 'flexibleRollout',
          parameters: { rollout: '100' },
          variants: [{ name: 'strategy-green', weight: 1000, stickiness: 'default' }],
        },
      ],
      variants: [{ name: 'red', weight: 1000 }],
    },
  ],
}
const json = { authorization: CLIENT_KEY, 'content-type': 'application/json' }

type Sent = {
  appName: string
  instanceId: string
  connectionId: string
  bucket: {
    start: string
    stop: string
    toggles: Record<string, { yes: number; no: number; variants: Record<string, number> }>
  }
}
const sent = (upstream: FakeUpstream): Sent[] =>
  upstream.requestsTo('/client/metrics').map((r: RecordedRequest) => JSON.parse(r.body) as Sent)
const total = (bodies: Sent[], name: string) =>
  bodies.reduce(
    (sum, b) => ({ yes: sum.yes + (b.bucket.toggles[name]?.yes ?? 0), no: sum.no + (b.bucket.toggles[name]?.no ?? 0) }),
    { yes: 0, no: 0 },
  )

const servers = useServers()
async function setup(options: TestProxyOptions = {}): Promise<{ upstream: FakeUpstream; proxy: TestProxy }> {
  const upstream = await servers.upstream(FEATURES)
  return { upstream, proxy: await servers.proxy(upstream, { metricsInterval: 100, ...options }) }
}
const lookup = (proxy: TestProxy, toggles: string[]) =>
  fetch(proxy.at('/proxy'), { method: 'POST', headers: json, body: JSON.stringify({ toggles }) })
type Posted = Record<string, { yes?: number | string; no?: number; variants?: Record<string, number> }>
const postMetrics = (proxy: TestProxy, toggles: Posted) =>
  fetch(proxy.at('/proxy/client/metrics'), {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      appName: 'web',
      instanceId: 'b',
      bucket: { start: new Date().toISOString(), stop: new Date().toISOString(), toggles },
    }),
  })
const names = (bodies: Sent[]) => [...new Set(bodies.flatMap((b) => Object.keys(b.bucket.toggles)))].sort()
const metricsSends = (upstream: FakeUpstream) => upstream.requestsTo('/client/metrics').length

describe('metrics', () => {
  it('registers, then sends lookups (yes/no) and client SDK metrics (with variants), not GET evaluations', async () => {
    const { upstream, proxy } = await setup({ serviceAppName: 'edge-proxy', serviceInstanceId: 'i-1' })
    await lookup(proxy, ['on', 'off', 'on'])
    await fetch(proxy.at('/proxy?userId=1'), { headers: { authorization: CLIENT_KEY } })
    const clientMetrics = {
      appName: 'web',
      instanceId: 'browser-1',
      bucket: {
        start: new Date().toISOString(),
        stop: new Date().toISOString(),
        toggles: { on: { yes: '2', no: 1, variants: { blue: 2 } } },
      },
    }
    expect(
      (
        await fetch(proxy.at('/proxy/client/metrics'), {
          method: 'POST',
          headers: json,
          body: JSON.stringify(clientMetrics),
        })
      ).status,
    ).toBe(200)
    expect(
      (
        await fetch(proxy.at('/proxy/all/client/metrics'), {
          method: 'POST',
          headers: json,
          body: JSON.stringify(clientMetrics),
        })
      ).status,
    ).toBe(200)

    await upstream.waitFor(() => total(sent(upstream), 'on').yes >= 6)
    const register = JSON.parse(upstream.requestsTo('/client/register')[0]!.body)
    expect(register).toMatchObject({
      appName: 'edge-proxy',
      instanceId: 'i-1',
      interval: 100,
      strategies: expect.arrayContaining(['default', 'flexibleRollout']),
    })
    const bodies = sent(upstream)
    expect(bodies[0]).toMatchObject({ appName: 'edge-proxy', instanceId: 'i-1' })
    expect(total(bodies, 'on')).toEqual({ yes: 6, no: 2 })
    expect(total(bodies, 'off')).toEqual({ yes: 0, no: 1 })
    expect(bodies.reduce((n, b) => n + (b.bucket.toggles.on?.variants.blue ?? 0), 0)).toBe(4)
    const headers = upstream.requestsTo('/client/metrics')[0]!.headers
    expect(headers).toMatchObject({
      authorization: 'upstream-token-secret',
      'unleash-appname': 'edge-proxy',
      'content-type': 'application/json',
    })
  })

  it('keeps counts that fail to send and sends them with the next bucket', async () => {
    const { upstream, proxy } = await setup()
    upstream.fail({ status: 503 }, '/client/metrics')
    await lookup(proxy, ['on', 'on'])
    await upstream.waitFor((r) => r.filter((q) => q.path === '/client/metrics').length >= 2)
    await lookup(proxy, ['on'])
    upstream.fail(undefined, '/client/metrics')
    const failedAttempts = upstream.requestsTo('/client/metrics').length
    await upstream.waitFor((r) => r.filter((q) => q.path === '/client/metrics').length > failedAttempts, 10_000)
    const delivered = upstream
      .requestsTo('/client/metrics')
      .slice(failedAttempts)
      .map((r) => JSON.parse(r.body) as Sent)
    expect(total(delivered, 'on')).toEqual({ yes: 3, no: 0 })
  })

  it('close() sends what is pending (SIGTERM/SIGINT call it)', async () => {
    const { upstream, proxy } = await setup({ metricsInterval: 60_000 })
    await lookup(proxy, ['on', 'off'])
    expect(upstream.requestsTo('/client/metrics')).toHaveLength(0)
    await proxy.proxy.close()
    expect(total(sent(upstream), 'on')).toEqual({ yes: 1, no: 0 })
    expect(total(sent(upstream), 'off')).toEqual({ yes: 0, no: 1 })
  })

  it('validates posted metrics like the old schema (first error) and requires a key', async () => {
    const { proxy } = await setup()
    const post = (body: unknown, headers: Record<string, string> = json) =>
      fetch(proxy.at('/proxy/client/metrics'), { method: 'POST', headers, body: JSON.stringify(body) })
    const missing = await post({ instanceId: 'i', bucket: {} })
    expect(missing.status).toBe(400)
    expect(((await missing.json()) as { validation: unknown[] }).validation[0]).toEqual({
      instancePath: '/body',
      schemaPath: '#/components/schemas/registerMetricsSchema/required',
      keyword: 'required',
      params: { missingProperty: 'appName' },
      message: "must have required property 'appName'",
    })
    const epoch = await post({
      appName: 'a',
      instanceId: 'i',
      bucket: { start: 1700000000, stop: new Date().toISOString(), toggles: {} },
    })
    expect(epoch.status).toBe(400)
    const negative = await post({
      appName: 'a',
      instanceId: 'i',
      bucket: { start: new Date().toISOString(), stop: new Date().toISOString(), toggles: { x: { yes: -1 } } },
    })
    expect(negative.status).toBe(400)
    const valid = {
      appName: 'a',
      instanceId: 'i',
      bucket: { start: new Date().toISOString(), stop: new Date().toISOString(), toggles: {} },
      impactMetrics: [],
    }
    expect((await post(valid)).status).toBe(200)
    expect((await post(valid, { 'content-type': 'application/json' })).status).toBe(401)
  })

  // The abuse this guards against: any client-key holder posted thousands of random names at a
  // time; each post grew the proxy's memory, and the upstream refused every later send (413), so
  // real metrics stopped for good. Names the payload lacks are Unleash's unknown flags: at most
  // MAX_UNKNOWN_FLAGS of them per bucket reach the upstream, by name only.
  it('counts at most 1,000 names the payload lacks per bucket, and only known flags in lookups', async () => {
    const { upstream, proxy } = await setup()
    for (let post = 0; post < 20; post++) {
      const random: Posted = Object.fromEntries(
        Array.from({ length: 2_400 }, () => [randomUUID().slice(0, 13), { yes: 1 }]),
      )
      expect((await postMetrics(proxy, { ...random, on: { yes: 1 } })).status).toBe(200)
    }
    await lookup(proxy, ['on', 'ghost', 'off', randomUUID()])
    await upstream.waitFor(() => total(sent(upstream), 'on').yes >= 21)
    expect(names(sent(upstream))).not.toContain('ghost')
    expect(total(sent(upstream), 'on')).toEqual({ yes: 21, no: 0 })
    expect(total(sent(upstream), 'off')).toEqual({ yes: 0, no: 1 })
    for (const body of sent(upstream)) {
      const unknown = Object.entries(body.bucket.toggles).filter(([name]) => name !== 'on' && name !== 'off')
      expect(unknown.length).toBeLessThanOrEqual(MAX_UNKNOWN_FLAGS)
      for (const [, counts] of unknown) expect(counts.variants).toEqual({})
    }
    for (const request of upstream.requestsTo('/client/metrics'))
      expect(request.body.length).toBeLessThan(MAX_UNKNOWN_FLAGS * 100)
  })

  // SDKs report the variants they were given, so a name the flag defines (or `disabled`) always
  // counts; a few others are let through too (an SDK's bucket may hold a variant the previous
  // payload defined, or a server SDK's fallback), but no more than 50 per flag per bucket, each
  // at most 100 characters.
  it('counts the variants a flag defines, plus at most 50 other short names per flag per bucket', async () => {
    const { upstream, proxy } = await setup({ metricsInterval: 60_000 })
    const made = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => [`made-up-${from + i}`, 1] as const)
    const first = Object.fromEntries([
      ['red', 1],
      ['strategy-green', 2],
      ['disabled', 3],
      ['x'.repeat(101), 9],
      ['blue', 4],
      ...made(0, 500),
    ])
    await postMetrics(proxy, { split: { yes: 1, variants: first }, on: { yes: 1, variants: { blue: 5, red: 6 } } })
    await postMetrics(proxy, { split: { yes: 1, variants: { red: 10, 'made-up-3': 1, 'made-up-900': 1 } } })
    await proxy.proxy.close()
    const bucket = (name: string) => sent(upstream)[0]!.bucket.toggles[name]!
    expect(bucket('split').variants).toEqual({
      red: 11,
      'strategy-green': 2,
      disabled: 3,
      blue: 4,
      ...Object.fromEntries(made(0, 49).map(([v, n]) => [v, v === 'made-up-3' ? n + 1 : n])),
    })
    expect(bucket('on').variants).toEqual({ blue: 5, red: 6 })
  })

  it('caps counts at the largest safe integer instead of overflowing', async () => {
    const { upstream, proxy } = await setup({ metricsInterval: 60_000 })
    for (const n of [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 1e308])
      await postMetrics(proxy, { on: { yes: n, no: 1e300, variants: { blue: n } } })
    await proxy.proxy.close()
    const sentOn = sent(upstream)[0]!.bucket.toggles.on!
    expect(sentOn).toEqual({
      yes: Number.MAX_SAFE_INTEGER,
      no: Number.MAX_SAFE_INTEGER,
      variants: { blue: Number.MAX_SAFE_INTEGER },
    })
  })

  it('splits a bucket into sends under 256 KiB each', async () => {
    const features = Array.from({ length: 3_000 }, (_, i) => ({
      name: `flag-${String(i).padStart(4, '0')}-${'n'.repeat(100)}`,
      enabled: true,
      strategies: [{ name: 'default' }],
    }))
    const upstream = await servers.upstream({ version: 2, features })
    const proxy = await servers.proxy(upstream, { metricsInterval: 60_000 })
    for (let from = 0; from < features.length; from += 500) {
      expect(
        (
          await lookup(
            proxy,
            features.slice(from, from + 500).map((f) => f.name),
          )
        ).status,
      ).toBe(200)
    }
    await proxy.proxy.close()
    const requests = upstream.requestsTo('/client/metrics')
    expect(requests.length).toBeGreaterThanOrEqual(2)
    for (const request of requests)
      expect(Buffer.byteLength(request.body)).toBeLessThanOrEqual(METRICS_SEND_LIMIT_BYTES)
    const bodies = sent(upstream)
    expect(names(bodies)).toHaveLength(3_000)
    expect(bodies.reduce((n, b) => n + Object.values(b.bucket.toggles).reduce((m, c) => m + c.yes, 0), 0)).toBe(3_000)
    // Every part keeps the bucket's time window.
    expect(new Set(bodies.map((b) => `${b.bucket.start} ${b.bucket.stop}`)).size).toBe(1)
  })

  it.each([400, 404, 413, 422])(
    'drops (and logs) a batch the upstream refuses with %i, and sends the next one',
    async (status) => {
      const { upstream, proxy } = await setup()
      upstream.fail({ status }, '/client/metrics')
      await lookup(proxy, ['on', 'on'])
      await upstream.waitFor(() => metricsSends(upstream) >= 1)
      upstream.fail(undefined, '/client/metrics')
      const refused = metricsSends(upstream)
      await lookup(proxy, ['off'])
      await upstream.waitFor(() => total(sent(upstream).slice(refused), 'off').no >= 1)
      expect(total(sent(upstream).slice(refused), 'on')).toEqual({ yes: 0, no: 0 })
      expect(
        proxy.logs.some(
          (line) => line.startsWith('ERROR:') && line.includes(`status ${status}`) && line.includes('dropped'),
        ),
      ).toBe(true)
    },
  )

  it.each([401, 403, 408, 429])(
    'keeps a batch the upstream refuses with %i and sends it again later',
    async (status) => {
      const { upstream, proxy } = await setup({ metricsInterval: 50 })
      upstream.fail({ status }, '/client/metrics')
      await lookup(proxy, ['on', 'on'])
      await upstream.waitFor(() => metricsSends(upstream) >= 1)
      upstream.fail(undefined, '/client/metrics')
      const refused = metricsSends(upstream)
      await upstream.waitFor(() => total(sent(upstream).slice(refused), 'on').yes >= 2, 10_000)
      expect(total(sent(upstream).slice(refused), 'on')).toEqual({ yes: 2, no: 0 })
    },
  )
})

describe('splitBucket', () => {
  const bucket = (toggles: Record<string, { yes: number; no: number; variants: Record<string, number> }>) => ({
    start: '2024-01-01T00:00:00.000Z',
    stop: '2024-01-01T00:00:10.000Z',
    toggles,
  })
  const counts = { yes: 1, no: 2, variants: { a: 3 } }

  it('keeps a bucket that fits as it is', () => {
    const small = bucket({ x: counts, y: counts })
    expect(splitBucket(small, 10_000)).toEqual([small])
  })

  it('splits by serialised size, each part with the same window, no flag lost or repeated', () => {
    const toggles = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`flag-${i}-${'é'.repeat(20)}`, counts]))
    const parts = splitBucket(bucket(toggles), 8_192)
    expect(parts.length).toBeGreaterThan(5)
    for (const part of parts) {
      expect(Buffer.byteLength(JSON.stringify(part))).toBeLessThanOrEqual(8_192)
      expect([part.start, part.stop]).toEqual(['2024-01-01T00:00:00.000Z', '2024-01-01T00:00:10.000Z'])
    }
    expect(parts.flatMap((p) => Object.keys(p.toggles))).toEqual(Object.keys(toggles))
  })

  it('sends a flag larger than a part on its own rather than losing it', () => {
    const big = { yes: 1, no: 0, variants: Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`v${i}`, i])) }
    const parts = splitBucket(bucket({ a: counts, huge: big, b: counts }), 1_024)
    expect(parts.map((p) => Object.keys(p.toggles))).toEqual([['a'], ['huge'], ['b']])
  })
})
