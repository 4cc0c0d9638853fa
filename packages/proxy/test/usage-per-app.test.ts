// Usage per app through the proxy (@vexil/sync's usage/, docs/operations.md "What the upstream
// sees"): each SDK's counts reach an upstream that takes bulk metrics under the SDK's own app, a
// Vexil behind a Vexil keeps them so (nothing re-attributed to the downstream, nothing counted
// twice), and what the bounds drop is on the Prometheus scrape.
import { describe, expect, it } from 'vitest'
import { waitFor } from '@vexil/test-fixtures/wait-for.ts'
import { bulkRows, bulkYes, serverSdkRegistration, withBulk } from './helpers/bulk-upstream.js'
import { CLIENT_KEY, startTestProxy, startUpstreamWithTokens, useServers } from './helpers/proxy.js'

const FEATURES = { version: 2, features: [{ name: 'on', enabled: true, strategies: [{ name: 'default' }] }] }
const CLIENT = '*:development.chain-client-secret'
const FRONTEND = '*:development.chain-frontend-secret'

const servers = useServers()

const metricsBody = (appName: string, instanceId: string, yes: number) =>
  JSON.stringify({
    appName,
    instanceId,
    bucket: {
      start: new Date().toISOString(),
      stop: new Date().toISOString(),
      toggles: { on: { yes, no: 0 }, 'made-up': { yes: 1 } },
    },
  })

describe('usage per app', () => {
  it('a Vexil behind a Vexil: every app reaches the upstream under its own name, counted once', async () => {
    const upstream = await startUpstreamWithTokens(FEATURES, { client: CLIENT, frontend: FRONTEND })
    servers.defer(() => upstream.close())
    const recorded = await withBulk(upstream, servers.defer)
    const front = await startTestProxy(recorded.url, {
      serviceApiToken: undefined,
      tokens: [CLIENT],
      metricsInterval: 200,
      serviceAppName: 'front-vexil',
    })
    servers.defer(() => front.close())
    const edge = await startTestProxy(front.at('/api'), {
      serviceApiToken: CLIENT,
      metricsInterval: 200,
      serviceAppName: 'edge-vexil',
      serviceInstanceId: 'edge-1',
    })
    servers.defer(() => edge.close())

    const json = { 'content-type': 'application/json' }
    const posted = await fetch(edge.at('/proxy/client/metrics'), {
      method: 'POST',
      headers: { ...json, authorization: CLIENT_KEY },
      body: metricsBody('web', 'browser-1', 3),
    })
    expect(posted.status).toBe(200)
    const webRegistered = await fetch(edge.at('/proxy/client/register'), {
      method: 'POST',
      headers: { ...json, authorization: CLIENT_KEY },
      body: JSON.stringify(serverSdkRegistration('web', 'browser-1')),
    })
    expect(webRegistered.status).toBe(200)
    const registered = await fetch(front.at('/api/client/register'), {
      method: 'POST',
      headers: { ...json, authorization: CLIENT },
      body: JSON.stringify(serverSdkRegistration('api', 'pod-1')),
    })
    expect(registered.status).toBe(202)
    await fetch(front.at('/api/client/metrics'), {
      method: 'POST',
      headers: { ...json, authorization: CLIENT },
      body: metricsBody('api', 'pod-1', 2),
    })

    await waitFor(
      async () => bulkYes(bulkRows(recorded.bulks), 'web') >= 3 && bulkYes(bulkRows(recorded.bulks), 'api') >= 2,
      'both apps upstream',
      10_000,
    )
    await new Promise((resolve) => setTimeout(resolve, 500))
    const rows = bulkRows(recorded.bulks)
    expect(bulkYes(rows, 'web')).toBe(3)
    expect(bulkYes(rows, 'api')).toBe(2)
    expect(bulkYes(rows, 'edge-vexil') + bulkYes(rows, 'front-vexil')).toBe(0)
    expect(rows.find((row) => row.appName === 'web')).toMatchObject({
      instanceId: 'browser-1',
      environment: 'development',
    })
    expect(bulkYes(rows, 'web', 'made-up') + bulkYes(rows, 'api', 'made-up')).toBe(2)
    const applications = recorded.bulks.flatMap((bulk) => bulk.applications)
    expect(applications).toContainEqual({
      appName: 'api',
      instanceId: 'pod-1',
      environment: 'development',
      sdkType: 'backend',
      sdkVersion: 'unleash-client-node:6.0.0',
      strategies: ['default'],
      interval: 15000,
      started: expect.any(String),
      connectVia: [{ appName: 'front-vexil', instanceId: expect.any(String) }],
    })
    // The app registered at the edge came through both proxies: each named itself, nearest the SDK first.
    expect(applications.find((app) => app.appName === 'web')?.connectVia).toEqual([
      { appName: 'edge-vexil', instanceId: 'edge-1' },
      { appName: 'front-vexil', instanceId: expect.any(String) },
    ])
    expect(upstream.requestsTo('/client/metrics')).toHaveLength(0)
  })

  it('shows names the bounds drop on the Prometheus scrape', async () => {
    const upstream = await servers.upstream(FEATURES)
    const proxy = await servers.proxy(upstream, { metricsInterval: 60_000 })
    const toggles = Object.fromEntries(Array.from({ length: 1_200 }, (_, i) => [`made-up-${i}`, { yes: 1 }]))
    const body = JSON.stringify({
      appName: 'web',
      instanceId: 'b',
      bucket: { start: new Date().toISOString(), stop: new Date().toISOString(), toggles },
    })
    expect(
      (
        await fetch(proxy.at('/proxy/client/metrics'), {
          method: 'POST',
          headers: { authorization: CLIENT_KEY, 'content-type': 'application/json' },
          body,
        })
      ).status,
    ).toBe(200)
    const text = await (await fetch(proxy.at('/proxy/internal-backstage/prometheus'))).text()
    expect(text).toContain('vexil_proxy_usage_dropped_total{reason="unknown_flag"} 200')
    expect(text).toContain('vexil_proxy_usage_dropped_total{reason="registration"} 0')
  })
})
