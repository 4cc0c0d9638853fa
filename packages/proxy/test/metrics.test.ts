// Usage metrics: what is counted, what is sent upstream and when, and that nothing is lost when
// a send fails or the proxy stops (DESIGN.md: counts that fail to send are kept and merged).
import { describe, expect, it } from 'vitest'
import type { FakeUpstream, RecordedRequest } from '@vexil/test-fixtures/fake-upstream.ts'
import { CLIENT_KEY, type TestProxy, type TestProxyOptions, useServers } from './helpers/proxy.js'

const FEATURES = { version: 2, features: [{ name: 'on', enabled: true, strategies: [{ name: 'default' }] }, { name: 'off', enabled: false, strategies: [] }] }
const json = { authorization: CLIENT_KEY, 'content-type': 'application/json' }

type Sent = { appName: string; instanceId: string; connectionId: string; bucket: { start: string; stop: string; toggles: Record<string, { yes: number; no: number; variants: Record<string, number> }> } }
const sent = (upstream: FakeUpstream): Sent[] => upstream.requestsTo('/client/metrics').map((r: RecordedRequest) => JSON.parse(r.body) as Sent)
const total = (bodies: Sent[], name: string) =>
  bodies.reduce((sum, b) => ({ yes: sum.yes + (b.bucket.toggles[name]?.yes ?? 0), no: sum.no + (b.bucket.toggles[name]?.no ?? 0) }), { yes: 0, no: 0 })

const servers = useServers()
async function setup(options: TestProxyOptions = {}): Promise<{ upstream: FakeUpstream; proxy: TestProxy }> {
  const upstream = await servers.upstream(FEATURES)
  return { upstream, proxy: await servers.proxy(upstream, { metricsInterval: 100, ...options }) }
}
const lookup = (proxy: TestProxy, toggles: string[]) => fetch(proxy.at('/proxy'), { method: 'POST', headers: json, body: JSON.stringify({ toggles }) })

describe('metrics', () => {
  it('registers, then sends lookups (yes/no) and client SDK metrics (with variants), not GET evaluations', async () => {
    const { upstream, proxy } = await setup({ serviceAppName: 'edge-proxy', serviceInstanceId: 'i-1' })
    await lookup(proxy, ['on', 'off', 'on'])
    await fetch(proxy.at('/proxy?userId=1'), { headers: { authorization: CLIENT_KEY } })
    const clientMetrics = { appName: 'web', instanceId: 'browser-1', bucket: { start: new Date().toISOString(), stop: new Date().toISOString(), toggles: { on: { yes: '2', no: 1, variants: { blue: 2 } } } } }
    expect((await fetch(proxy.at('/proxy/client/metrics'), { method: 'POST', headers: json, body: JSON.stringify(clientMetrics) })).status).toBe(200)
    expect((await fetch(proxy.at('/proxy/all/client/metrics'), { method: 'POST', headers: json, body: JSON.stringify(clientMetrics) })).status).toBe(200)

    await upstream.waitFor(() => total(sent(upstream), 'on').yes >= 6)
    const register = JSON.parse(upstream.requestsTo('/client/register')[0]!.body)
    expect(register).toMatchObject({ appName: 'edge-proxy', instanceId: 'i-1', interval: 100, strategies: expect.arrayContaining(['default', 'flexibleRollout']) })
    const bodies = sent(upstream)
    expect(bodies[0]).toMatchObject({ appName: 'edge-proxy', instanceId: 'i-1' })
    expect(total(bodies, 'on')).toEqual({ yes: 6, no: 2 })
    expect(total(bodies, 'off')).toEqual({ yes: 0, no: 1 })
    expect(bodies.reduce((n, b) => n + (b.bucket.toggles.on?.variants.blue ?? 0), 0)).toBe(4)
    const headers = upstream.requestsTo('/client/metrics')[0]!.headers
    expect(headers).toMatchObject({ authorization: 'upstream-token-secret', 'unleash-appname': 'edge-proxy', 'content-type': 'application/json' })
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
    const delivered = upstream.requestsTo('/client/metrics').slice(failedAttempts).map((r) => JSON.parse(r.body) as Sent)
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
    const post = (body: unknown, headers: Record<string, string> = json) => fetch(proxy.at('/proxy/client/metrics'), { method: 'POST', headers, body: JSON.stringify(body) })
    const missing = await post({ instanceId: 'i', bucket: {} })
    expect(missing.status).toBe(400)
    expect(((await missing.json()) as { validation: unknown[] }).validation[0]).toEqual({
      instancePath: '/body',
      schemaPath: '#/components/schemas/registerMetricsSchema/required',
      keyword: 'required',
      params: { missingProperty: 'appName' },
      message: "must have required property 'appName'",
    })
    const epoch = await post({ appName: 'a', instanceId: 'i', bucket: { start: 1700000000, stop: new Date().toISOString(), toggles: {} } })
    expect(epoch.status).toBe(400)
    const negative = await post({ appName: 'a', instanceId: 'i', bucket: { start: new Date().toISOString(), stop: new Date().toISOString(), toggles: { x: { yes: -1 } } } })
    expect(negative.status).toBe(400)
    const valid = { appName: 'a', instanceId: 'i', bucket: { start: new Date().toISOString(), stop: new Date().toISOString(), toggles: {} }, impactMetrics: [] }
    expect((await post(valid)).status).toBe(200)
    expect((await post(valid, { 'content-type': 'application/json' })).status).toBe(401)
  })
})
