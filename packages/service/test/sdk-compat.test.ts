import { once } from 'node:events'
import { InMemStorageProvider, Unleash } from 'unleash-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../src/logger.js'
import { type RunningService, startService } from '../src/server.js'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'

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
      expect(client.getVariant('sdk-flag', { userId: 'u2' })).toMatchObject({
        name: 'green',
        enabled: true,
        payload: { type: 'string', value: 'go' },
      })
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
})
