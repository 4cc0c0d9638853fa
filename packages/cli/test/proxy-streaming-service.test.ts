// The proxy follows the service's stream of changes (issue 18): a change made on the service
// reaches /proxy within a second although the proxy's poll interval is a minute; a service
// restart loses nothing; an upstream without a stream (or STREAMING=false) is polled.
import { once } from 'node:events'
import { InMemStorageProvider, Unleash } from 'unleash-client'
import { describe, expect, it } from 'vitest'
import type { RunningService } from '@vexil/service'
import { timeUntil } from '@vexil/test-fixtures/wait-for.ts'
import { SERVER_SIDE_TOKEN, startVexilProxy, type VexilProxy } from '@vexil/test-fixtures/vexil-proxy.ts'
import type { serviceAdmin } from '@vexil/test-fixtures/service-admin.ts'
import { startTestService } from '@vexil/test-fixtures/vexil-service.ts'

const ADMIN = '*:*.streaming-proxy-admin-secret-0123456789abcdef'
const CLIENT = '*:development.streaming-proxy-client-secret-0123456789abcdef'

type Admin = ReturnType<typeof serviceAdmin>

/** The service with the test's tokens (and `env`). */
const startStreamingService = (name: string, env: Record<string, string> = {}) =>
  startTestService(name, { adminToken: ADMIN, clientToken: CLIENT, env })

async function flagOn(admin: Admin, name: string): Promise<void> {
  await admin('POST', '/api/admin/projects/default/features', { name })
  await admin('POST', `/api/admin/projects/default/features/${name}/environments/development/strategies`, {
    name: 'default',
  })
  await admin('POST', `/api/admin/projects/default/features/${name}/environments/development/on`)
}

/** Makes `name` and turns it on, then off; the ms until `enabled` agrees, each time. */
async function onThenOff(admin: Admin, name: string, enabled: () => boolean | Promise<boolean>): Promise<number[]> {
  await flagOn(admin, name)
  const on = await timeUntil(enabled, `${name} on`, { timeoutMs: 2_000 })
  await admin('POST', `/api/admin/projects/default/features/${name}/environments/development/off`)
  const off = await timeUntil(async () => !(await enabled()), `${name} off`, { timeoutMs: 2_000 })
  return [on, off]
}

/** The proxy's flag definitions (what it gives server-side SDKs) equal the service's /api/client/features. */
async function expectSameFlags(proxy: VexilProxy, service: RunningService): Promise<void> {
  const upstream = await (
    await fetch(`${service.url}/api/client/features`, { headers: { authorization: CLIENT } })
  ).json()
  const held: Array<{ name: string }> = (
    await (await fetch(proxy.at('/proxy/client/features'), { headers: { authorization: SERVER_SIDE_TOKEN } })).json()
  ).features
  expect([...held].sort((a, b) => a.name.localeCompare(b.name))).toEqual(upstream.features)
}

describe('the proxy on the service stream', () => {
  it('gets each change within a second though it polls once a minute', async () => {
    const platform = await startStreamingService('stream-proxy')
    const proxy = await startVexilProxy(platform.service.url, CLIENT, { refreshInterval: 60_000 })
    try {
      expect(proxy.logs.join('\n')).toContain('Streaming flag changes from the upstream')
      const took: number[] = []
      for (let i = 0; i < 5; i++)
        took.push(
          ...(await onThenOff(platform.admin, `streamed-${i}`, async () =>
            (await proxy.enabled()).includes(`streamed-${i}`),
          )),
        )
      expect(Math.max(...took)).toBeLessThan(1_000)
      await expectSameFlags(proxy, platform.service)
    } finally {
      await proxy.close()
      await platform.close()
    }
  }, 60_000)

  it('a service restart mid-stream loses no change: the proxy resumes from its last revision', async () => {
    const platform = await startStreamingService('stream-restart')
    const { admin } = platform
    const proxy = await startVexilProxy(platform.service.url, CLIENT, { refreshInterval: 60_000 })
    try {
      await flagOn(admin, 'before-restart')
      await timeUntil(async () => (await proxy.enabled()).includes('before-restart'), 'before-restart on', {
        timeoutMs: 2_000,
      })
      await platform.restart()
      // Made before the proxy is back: it must come with the replay from Last-Event-ID.
      await flagOn(admin, 'during-reconnect')
      await admin('POST', '/api/admin/projects/default/features/before-restart/environments/development/off')
      await timeUntil(
        async () => {
          const enabled = await proxy.enabled()
          return enabled.includes('during-reconnect') && !enabled.includes('before-restart')
        },
        'the changes made during the reconnect',
        { timeoutMs: 10_000 },
      )
      expect(proxy.logs.join('\n')).toMatch(/stream .*reconnecting/)
      await flagOn(admin, 'after-reconnect')
      await timeUntil(async () => (await proxy.enabled()).includes('after-reconnect'), 'after-reconnect on', {
        timeoutMs: 2_000,
      })
      await expectSameFlags(proxy, platform.service)
    } finally {
      await proxy.close()
      await platform.close()
    }
  }, 60_000)

  it('the real unleash-client streams from the proxy: each change reaches it within a second, through a service restart', async () => {
    const platform = await startStreamingService('stream-sdk-proxy')
    const { admin } = platform
    const proxy = await startVexilProxy(platform.service.url, CLIENT, { refreshInterval: 60_000 })
    const client = new Unleash({
      url: proxy.at('/api/'),
      appName: 'streaming-through-proxy',
      customHeaders: { Authorization: CLIENT },
      disableMetrics: true,
      refreshInterval: 60_000,
      storageProvider: new InMemStorageProvider(),
      experimentalMode: { type: 'streaming' },
    })
    client.on('error', () => {})
    client.on('warn', () => {})
    const modes: unknown[] = []
    client.on('mode', (mode) => modes.push(mode))
    const synchronized = once(client, 'synchronized')
    try {
      await synchronized
      expect(proxy.app.streams).toBe(1)
      const took: number[] = []
      for (let i = 0; i < 3; i++) took.push(...(await onThenOff(admin, `sdk-${i}`, () => client.isEnabled(`sdk-${i}`))))
      expect(Math.max(...took)).toBeLessThan(1_000)
      await admin('DELETE', '/api/admin/projects/default/features/sdk-0')
      await timeUntil(() => client.getFeatureToggleDefinition('sdk-0') === undefined, 'sdk-0 removed in the SDK')

      // The service restarts; a change made meanwhile reaches the SDK once the proxy catches up.
      await platform.restart()
      await flagOn(admin, 'after-restart')
      await timeUntil(() => client.isEnabled('after-restart'), 'after-restart on in the SDK', { timeoutMs: 10_000 })
      const upstream = (await (
        await fetch(`${platform.service.url}/api/client/features`, { headers: { authorization: CLIENT } })
      ).json()) as { features: Array<{ name: string }> }
      const held = upstream.features.map((feature) => [feature.name, client.getFeatureToggleDefinition(feature.name)])
      expect(held).toEqual(upstream.features.map((feature) => [feature.name, feature]))
      // Streaming all along: no failover to polling, one stream open.
      expect(modes).toEqual([])
      expect(proxy.app.streams).toBe(1)
    } finally {
      client.destroy()
      await proxy.close()
      await platform.close()
    }
  }, 60_000)

  it('polls an upstream without a stream, and polls when STREAMING=false', async () => {
    const platform = await startStreamingService('stream-off', { STREAMING: 'false' })
    const noStream = await startVexilProxy(platform.service.url, CLIENT, { refreshInterval: 200 })
    const off = await startVexilProxy(platform.service.url, CLIENT, { refreshInterval: 200, streaming: false })
    try {
      expect(noStream.logs.join('\n')).toContain('The upstream offers no stream (404); polling every 200 ms')
      expect(off.logs.join('\n')).not.toMatch(/Streaming|no stream|the stream/)
      await flagOn(platform.admin, 'polled')
      for (const proxy of [noStream, off])
        await timeUntil(async () => (await proxy.enabled()).includes('polled'), 'polled on', { timeoutMs: 3_000 })
    } finally {
      await noStream.close()
      await off.close()
      await platform.close()
    }
  }, 60_000)
})
