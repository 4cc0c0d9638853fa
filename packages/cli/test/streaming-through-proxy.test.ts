// The proxy follows the service's stream of changes (issue 18): a change made on the service
// reaches /proxy within a second although the proxy's poll interval is a minute; a service
// restart loses nothing; an upstream without a stream (or STREAMING=false) is polled.
import { once } from 'node:events'
import { InMemStorageProvider, Unleash } from 'unleash-client'
import { describe, expect, it } from 'vitest'
import { type RunningService, silentLogger, startService } from '@vexil/service'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'
import { timeUntil } from '@vexil/test-fixtures/wait-for.ts'
import { startVexilProxy, type VexilProxy } from './helpers/vexil-proxy.js'
import { serviceAdmin } from './helpers/service-admin.js'

const ADMIN = '*:*.streaming-proxy-admin-secret-0123456789abcdef'
const CLIENT = '*:development.streaming-proxy-client-secret-0123456789abcdef'

function start(dataDir: string, port = 0, env: Record<string, string> = {}): Promise<RunningService> {
  return startService({ port, host: '127.0.0.1', dataDir, logger: silentLogger, env: { INIT_ADMIN_API_TOKENS: ADMIN, INIT_CLIENT_API_TOKENS: CLIENT, ...env } })
}

async function flagOn(admin: ReturnType<typeof serviceAdmin>, name: string): Promise<void> {
  await admin('POST', '/api/admin/projects/default/features', { name })
  await admin('POST', `/api/admin/projects/default/features/${name}/environments/development/strategies`, { name: 'default' })
  await admin('POST', `/api/admin/projects/default/features/${name}/environments/development/on`)
}

/** The proxy's flag definitions equal the service's /api/client/features. */
async function expectSameFlags(proxy: VexilProxy, service: RunningService): Promise<void> {
  const upstream = await (await fetch(`${service.url}/api/client/features`, { headers: { authorization: CLIENT } })).json()
  const held = proxy.app.flags.current!.engine.getState().features
  expect([...held].sort((a, b) => a.name.localeCompare(b.name))).toEqual(upstream.features)
}

describe('the proxy on the service stream', () => {
  it('gets each change within a second though it polls once a minute', async () => {
    const data = tempDir('stream-proxy')
    const service = await start(data.path)
    const admin = serviceAdmin(() => service.url, ADMIN)
    const proxy = await startVexilProxy(service.url, CLIENT, { refreshInterval: 60_000 })
    try {
      expect(proxy.logs.join('\n')).toContain('Streaming flag changes from the upstream')
      const took: number[] = []
      for (let i = 0; i < 5; i++) {
        await flagOn(admin, `streamed-${i}`)
        took.push(await timeUntil(async () => (await proxy.enabled()).includes(`streamed-${i}`), `streamed-${i} on`, { timeoutMs: 2_000 }))
        await admin('POST', `/api/admin/projects/default/features/streamed-${i}/environments/development/off`)
        took.push(await timeUntil(async () => !(await proxy.enabled()).includes(`streamed-${i}`), `streamed-${i} off`, { timeoutMs: 2_000 }))
      }
      expect(Math.max(...took)).toBeLessThan(1_000)
      await expectSameFlags(proxy, service)
    } finally {
      await proxy.close()
      await service.close()
      data.remove()
    }
  }, 60_000)

  it('a service restart mid-stream loses no change: the proxy resumes from its last revision', async () => {
    const data = tempDir('stream-restart')
    let service = await start(data.path)
    const port = service.port
    const proxy = await startVexilProxy(service.url, CLIENT, { refreshInterval: 60_000 })
    try {
      await flagOn(serviceAdmin(() => service.url, ADMIN), 'before-restart')
      await timeUntil(async () => (await proxy.enabled()).includes('before-restart'), 'before-restart on', { timeoutMs: 2_000 })
      await service.close()
      service = await start(data.path, port)
      const admin = serviceAdmin(() => service.url, ADMIN)
      // Made before the proxy is back: it must come with the replay from Last-Event-ID.
      await flagOn(admin, 'during-reconnect')
      await admin('POST', '/api/admin/projects/default/features/before-restart/environments/development/off')
      await timeUntil(async () => {
        const enabled = await proxy.enabled()
        return enabled.includes('during-reconnect') && !enabled.includes('before-restart')
      }, 'the changes made during the reconnect', { timeoutMs: 10_000 })
      expect(proxy.logs.join('\n')).toMatch(/stream .*reconnecting/)
      await flagOn(admin, 'after-reconnect')
      await timeUntil(async () => (await proxy.enabled()).includes('after-reconnect'), 'after-reconnect on', { timeoutMs: 2_000 })
      await expectSameFlags(proxy, service)
    } finally {
      await proxy.close()
      await service.close()
      data.remove()
    }
  }, 60_000)

  it('the real unleash-client streams from the proxy: each change reaches it within a second, through a service restart', async () => {
    const data = tempDir('stream-sdk-proxy')
    let service = await start(data.path)
    const port = service.port
    let admin = serviceAdmin(() => service.url, ADMIN)
    const proxy = await startVexilProxy(service.url, CLIENT, { refreshInterval: 60_000 })
    const sdkRequests: string[] = []
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
    client.on('warn', (warning) => sdkRequests.push(`warn ${String(warning)}`))
    const modes: unknown[] = []
    client.on('mode', (mode) => modes.push(mode))
    const synchronized = once(client, 'synchronized')
    try {
      await synchronized
      expect(proxy.app.streams).toBe(1)
      const took: number[] = []
      for (let i = 0; i < 3; i++) {
        await flagOn(admin, `sdk-${i}`)
        took.push(await timeUntil(() => client.isEnabled(`sdk-${i}`), `sdk-${i} on in the SDK`, { timeoutMs: 2_000 }))
        await admin('POST', `/api/admin/projects/default/features/sdk-${i}/environments/development/off`)
        took.push(await timeUntil(() => !client.isEnabled(`sdk-${i}`), `sdk-${i} off in the SDK`, { timeoutMs: 2_000 }))
      }
      expect(Math.max(...took)).toBeLessThan(1_000)
      await admin('DELETE', '/api/admin/projects/default/features/sdk-0')
      await timeUntil(() => client.getFeatureToggleDefinition('sdk-0') === undefined, 'sdk-0 removed in the SDK')

      // The service restarts; a change made meanwhile reaches the SDK once the proxy catches up.
      await service.close()
      service = await start(data.path, port)
      admin = serviceAdmin(() => service.url, ADMIN)
      await flagOn(admin, 'after-restart')
      await timeUntil(() => client.isEnabled('after-restart'), 'after-restart on in the SDK', { timeoutMs: 10_000 })
      const upstream = (await (await fetch(`${service.url}/api/client/features`, { headers: { authorization: CLIENT } })).json()) as { features: Array<{ name: string }> }
      const held = upstream.features.map((feature) => [feature.name, client.getFeatureToggleDefinition(feature.name)])
      expect(held).toEqual(upstream.features.map((feature) => [feature.name, feature]))
      // Streaming all along: no failover to polling, one stream open.
      expect(modes).toEqual([])
      expect(proxy.app.streams).toBe(1)
    } finally {
      client.destroy()
      await proxy.close()
      await service.close()
      data.remove()
    }
  }, 60_000)

  it('polls an upstream without a stream, and polls when STREAMING=false', async () => {
    const data = tempDir('stream-off')
    const service = await start(data.path, 0, { STREAMING: 'false' })
    const admin = serviceAdmin(() => service.url, ADMIN)
    const noStream = await startVexilProxy(service.url, CLIENT, { refreshInterval: 200 })
    const off = await startVexilProxy(service.url, CLIENT, { refreshInterval: 200, streaming: false })
    try {
      expect(noStream.logs.join('\n')).toContain('The upstream offers no stream (404); polling every 200 ms')
      expect(off.logs.join('\n')).not.toMatch(/Streaming|no stream|the stream/)
      await flagOn(admin, 'polled')
      for (const proxy of [noStream, off]) await timeUntil(async () => (await proxy.enabled()).includes('polled'), 'polled on', { timeoutMs: 3_000 })
    } finally {
      await noStream.close()
      await off.close()
      await service.close()
      data.remove()
    }
  }, 60_000)
})
