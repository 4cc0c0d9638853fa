// The apps behind a Vexil proxy, as a real Unleash 8.2 sees them (test-fixtures/src/unleash-server.ts):
// an unleash-client, an unleash-proxy-client and OFREP callers whose context names their app use
// the proxy; the proxy forwards their registrations and counts over /api/client/metrics/bulk, and
// Unleash's admin API lists every application and each one's counts of the flag. Outside CI a machine
// without the install skips with a message; under CI=true its absence fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InMemStorageProvider, Unleash } from 'unleash-client'
import { InMemoryStorageProvider, UnleashClient } from 'unleash-proxy-client'
import {
  startUnleashServer,
  type UnleashServer,
  unleashServerAvailable,
  unleashServerMissing,
} from '@vexil/test-fixtures/unleash-server.ts'
import { waitFor } from '@vexil/test-fixtures/wait-for.ts'
import { startTestProxy, type TestProxy } from './helpers/proxy.js'

const available = unleashServerAvailable()
if (!available)
  console.warn(
    `[unleash-apps] ${unleashServerMissing()}: the Unleash applications test is skipped (it fails under CI=true).`,
  )

const FLAG = 'apps-behind-vexil'
type RawMetrics = { data: { appName: string; environment: string; yes: number; no: number }[] }

describe.skipIf(!available)('Unleash 8.2 sees every app behind the proxy', () => {
  let unleash: UnleashServer
  let vexil: TestProxy
  let server: Unleash
  let web: UnleashClient
  let frontend: string

  beforeAll(async () => {
    unleash = await startUnleashServer()
    await unleash.admin.createFlag(FLAG)
    await unleash.admin.addStrategy(FLAG, 'development')
    await unleash.admin.enable(FLAG, 'development')
    const client = await unleash.clientToken('development')
    frontend = await unleash.frontendToken('development')
    vexil = await startTestProxy(`${unleash.url}/api`, {
      serviceApiToken: undefined,
      tokens: [client],
      refreshInterval: 500,
      metricsInterval: 500,
    })
    server = new Unleash({
      url: vexil.at('/api'),
      appName: 'apps-server',
      customHeaders: { Authorization: client },
      refreshInterval: 500,
      metricsInterval: 500,
      storageProvider: new InMemStorageProvider(),
    })
    server.on('error', () => undefined)
    await new Promise<void>((resolve) => server.once('synchronized', () => resolve()))
    web = new UnleashClient({
      url: vexil.at('/api/frontend'),
      clientKey: frontend,
      appName: 'apps-web',
      refreshInterval: 1,
      metricsInterval: 1,
      metricsIntervalInitial: 1,
      storageProvider: new InMemoryStorageProvider(),
    })
    await web.start()
  }, 180_000)

  afterAll(async () => {
    web?.stop()
    server?.destroy()
    await vexil?.close()
    await unleash?.stop()
  })

  it('lists every application and their counts of the flag', async () => {
    for (let i = 0; i < 3; i++) expect(server.isEnabled(FLAG)).toBe(true)
    for (let i = 0; i < 2; i++) expect(web.isEnabled(FLAG)).toBe(true)
    await web.sendMetrics()
    const ofrep = async (path: string, context: object) => {
      const answer = await fetch(vexil.at(`/ofrep/v1/evaluate/flags${path}`), {
        method: 'POST',
        headers: { authorization: frontend, 'content-type': 'application/json' },
        body: JSON.stringify({ context }),
      })
      expect(answer.status, await answer.text()).toBe(200)
    }
    for (let i = 0; i < 4; i++) await ofrep(`/${FLAG}`, { appName: 'apps-ofrep', instanceId: 'pod-1' })
    await ofrep('', { appName: 'apps-ofrep-web', targetingKey: '42' })
    const apps = async () =>
      (
        (await unleash.admin.call('GET', '/api/admin/metrics/applications')) as { applications: { appName: string }[] }
      ).applications.map((app) => app.appName)
    const counts = async () => {
      const raw = (await unleash.admin.call(
        'GET',
        `/api/admin/client-metrics/features/${FLAG}/raw?hoursBack=1`,
      )) as RawMetrics
      const byApp: Record<string, number> = {}
      for (const row of raw.data) byApp[row.appName] = (byApp[row.appName] ?? 0) + row.yes
      return byApp
    }
    await waitFor(
      async () => {
        const [listed, counted] = [await apps(), await counts()]
        return (
          ['apps-server', 'apps-web', 'apps-ofrep', 'apps-ofrep-web'].every((name) => listed.includes(name)) &&
          (counted['apps-server'] ?? 0) >= 3 &&
          (counted['apps-web'] ?? 0) >= 2 &&
          (counted['apps-ofrep'] ?? 0) >= 4
        )
      },
      'Unleash to list every app and their counts',
      90_000,
    ).catch(async (error) => {
      console.error(await apps(), await counts(), unleash.logs().slice(-4000), vexil.logs.join('\n'))
      throw error
    })
    const counted = await counts()
    expect(counted['apps-server']).toBe(3)
    expect(counted['apps-web']).toBe(2)
    expect(counted['apps-ofrep']).toBe(4)
    expect(counted['apps-ofrep-web']).toBeUndefined()
  }, 120_000)
})
