import { once } from 'node:events'
import { InMemStorageProvider, Unleash } from 'unleash-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../src/logger.js'
import { type RunningService, startService } from '../src/server.js'
import { tempDir } from './helpers/temp-dir.js'
import { PROXY_CLIENT_KEY, SERVER_SIDE_TOKEN, startVexilProxy } from './helpers/vexil-proxy.js'

const ADMIN = '*:*.sdk-compat-admin-secret-0123456789abcdef'
const CLIENT = '*:development.sdk-compat-client-secret-0123456789abcdef'
const data = tempDir('sdk')
let service: RunningService

const admin = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: ADMIN, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  })
  expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBeLessThan(300)
  return response
}

beforeAll(async () => {
  service = await startService({
    port: 0,
    host: '127.0.0.1',
    dataDir: data.path,
    logger: silentLogger,
    env: { INIT_ADMIN_API_TOKENS: ADMIN, INIT_CLIENT_API_TOKENS: CLIENT },
  })
})
afterAll(async () => {
  await service.close()
  data.remove()
})

describe('server SDK compatibility', () => {
  it('unleash-client (the Node server SDK) syncs and evaluates a flag created through the admin API', async () => {
    await admin('POST', '/api/admin/projects', { id: 'web', name: 'Web' })
    await admin('POST', '/api/admin/projects/web/features', { name: 'sdk-flag', type: 'experiment' })
    await admin('POST', '/api/admin/projects/web/features/sdk-flag/environments/development/strategies', {
      name: 'flexibleRollout',
      parameters: { rollout: '100', stickiness: 'default' },
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1', 'u2'] }],
      variants: [{ name: 'green', weight: 1000, stickiness: 'default', payload: { type: 'string', value: 'go' } }],
    })
    await admin('POST', '/api/admin/projects/web/features/sdk-flag/environments/development/on')

    const client = new Unleash({
      url: `${service.url}/api/`,
      appName: 'sdk-compat-test',
      customHeaders: { Authorization: CLIENT },
      refreshInterval: 60_000,
      metricsInterval: 200,
      storageProvider: new InMemStorageProvider(),
    })
    try {
      client.on('error', () => {})
      await once(client, 'synchronized')
      expect(client.isEnabled('sdk-flag', { userId: 'u1' })).toBe(true)
      expect(client.isEnabled('sdk-flag', { userId: 'stranger' })).toBe(false)
      expect(client.getVariant('sdk-flag', { userId: 'u2' })).toMatchObject({ name: 'green', enabled: true, payload: { type: 'string', value: 'go' } })
      expect(client.isEnabled('no-such-flag')).toBe(false)

      // Its registration and metrics arrive too.
      let data: { yes: number; no: number }[] = []
      for (let i = 0; i < 50 && data.length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        data = (await (await admin('GET', '/api/admin/client-metrics/features/sdk-flag/raw')).json()).data
      }
      expect(data[0]).toMatchObject({ yes: 2, no: 1 })
      const apps = (await (await admin('GET', '/api/admin/metrics/applications')).json()).applications
      expect(apps.map((app: { appName: string }) => app.appName)).toContain('sdk-compat-test')
    } finally {
      client.destroy()
    }
  })

  it('the Vexil proxy syncs from the service and serves that flag; server-side SDKs get it with its segments', async () => {
    await admin('POST', '/api/admin/projects', { id: 'proxied', name: 'Proxied' })
    const segment = await (await admin('POST', '/api/admin/segments', { name: 'beta-plan', constraints: [{ contextName: 'plan', operator: 'IN', values: ['beta'] }] })).json()
    await admin('POST', '/api/admin/projects/proxied/features', { name: 'proxied-flag', type: 'release' })
    await admin('POST', '/api/admin/projects/proxied/features/proxied-flag/environments/development/strategies', {
      name: 'flexibleRollout',
      parameters: { rollout: '100', stickiness: 'default' },
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1', 'u2'] }],
      segments: [segment.id],
      variants: [{ name: 'teal', weight: 1000, stickiness: 'default', payload: { type: 'json', value: '{"tone":"teal"}' } }],
    })
    await admin('POST', '/api/admin/projects/proxied/features/proxied-flag/environments/development/on')
    // A client token for that project, made through the admin API, as an operator would.
    const token = await (await admin('POST', '/api/admin/api-tokens', { tokenName: 'vexil-proxy', type: 'client', environment: 'development', projects: ['proxied'] })).json()

    const proxy = await startVexilProxy(service.url, token.secret)
    try {
      expect(proxy.logs.join('\n')).toContain('flags loaded from the upstream')
      expect(await proxy.enabled('?userId=u1&properties[plan]=beta')).toEqual(['proxied-flag'])
      // The constraint and the segment both hold on the proxy.
      expect(await proxy.enabled('?userId=u1')).toEqual([])
      expect(await proxy.enabled('?userId=stranger&properties[plan]=beta')).toEqual([])
      // Only the token's project: the web project's flag is not there.
      expect(await proxy.enabled('?userId=u1&plan=beta')).not.toContain('sdk-flag')

      const evaluated = await fetch(proxy.at('/proxy'), {
        method: 'POST',
        headers: { authorization: PROXY_CLIENT_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ context: { userId: 'u2', properties: { plan: 'beta' } } }),
      })
      const { toggles } = await evaluated.json()
      expect(toggles).toEqual([{ name: 'proxied-flag', enabled: true, impressionData: false, variant: { name: 'teal', enabled: true, feature_enabled: true, featureEnabled: true, payload: { type: 'json', value: '{"tone":"teal"}' } } }])
      // Evaluation answers never carry the configuration.
      expect(JSON.stringify(toggles)).not.toMatch(/strategies|constraints|segments|"u2"/)

      // /proxy/client/features for a server-side token: the definitions, with the segments.
      const forServers = await fetch(proxy.at('/proxy/client/features'), { headers: { authorization: SERVER_SIDE_TOKEN } })
      expect(forServers.status).toBe(200)
      const payload = await forServers.json()
      expect(payload.features.map((f: { name: string }) => f.name)).toEqual(['proxied-flag'])
      expect(payload.features[0].strategies[0]).toMatchObject({ name: 'flexibleRollout', segments: [segment.id], constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1', 'u2'] }] })
      expect(payload.segments).toEqual([expect.objectContaining({ id: segment.id, constraints: [expect.objectContaining({ contextName: 'plan', operator: 'IN', values: ['beta'] })] })])
      expect((await fetch(proxy.at('/proxy/client/features'), { headers: { authorization: PROXY_CLIENT_KEY } })).status).toBe(401)
    } finally {
      await proxy.close()
    }
  })
})
