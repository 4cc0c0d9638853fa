// Issue 46: what the service shows of use through a Vexil proxy, through real things only: the
// Vexil service (PGlite), a Vexil proxy in front of it, unleash-proxy-client with a frontend token
// and unleash-client with a client token. Within two metric intervals the admin API shows the
// flag's last-hour counts and "last used" for both SDK tokens and the proxy's own; a flood of
// made-up tokens at the proxy leaves no trace upstream.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomBytes } from 'node:crypto'
import { InMemoryStorageProvider, UnleashClient } from 'unleash-proxy-client'
import { InMemStorageProvider, Unleash } from 'unleash-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger, createProxyApp, createProxyConfig, type ProxyApp } from '@vexil/proxy'
import { serviceAdmin } from '@vexil/test-fixtures/service-admin.ts'
import { type TestService, startTestService } from '@vexil/test-fixtures/vexil-service.ts'
import { waitFor } from '@vexil/test-fixtures/wait-for.ts'

const ADMIN = '*:*.token-use-admin-secret-0123456789abcdef'
const FLAG = 'use.banner'
const METRICS_INTERVAL_MS = 300

let service: TestService
let proxy: { url: string; app: ProxyApp; server: Server; logs: string[] }
const admin = serviceAdmin(() => service.url, ADMIN)
const tokens: Record<string, { id: number; secret: string }> = {}
const stopAfter: Array<() => void> = []

type ListedToken = { id: number; tokenName: string; seenAt: string | null }
const listed = async (): Promise<ListedToken[]> => (await admin('GET', '/api/admin/api-tokens')).tokens
const seenAt = async (name: string) => (await listed()).find((t) => t.tokenName === name)?.seenAt ?? null
const lastHourYes = async () =>
  ((await admin('GET', `/api/admin/client-metrics/features/${FLAG}`)).lastHourUsage as { yes: number }[]).reduce(
    (sum, row) => sum + row.yes,
    0,
  )

beforeAll(async () => {
  service = await startTestService('token-use', { adminToken: ADMIN })
  await admin('POST', '/api/admin/projects/default/features', { name: FLAG, type: 'release' })
  await admin('POST', `/api/admin/projects/default/features/${FLAG}/environments/development/strategies`, {
    name: 'default',
  })
  await admin('POST', `/api/admin/projects/default/features/${FLAG}/environments/development/on`)
  for (const [tokenName, type] of [
    ['proxy-own', 'client'],
    ['server-sdk', 'client'],
    ['web-frontend', 'frontend'],
  ] as const) {
    const { id, secret } = await admin('POST', '/api/admin/api-tokens', {
      tokenName,
      type,
      environment: 'development',
      projects: ['*'],
    })
    tokens[tokenName] = { id, secret }
  }
  const logs: string[] = []
  const config = await createProxyConfig(
    {
      serviceUrl: `${service.url}/api`,
      tokens: [tokens['proxy-own']!.secret],
      refreshInterval: 1_000,
      metricsInterval: METRICS_INTERVAL_MS,
      logger: createLogger({ level: 'info', json: false, write: (line) => logs.push(line) }),
    },
    {},
  )
  const app = createProxyApp({ config, storage: null })
  const server = createServer(app.listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  proxy = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, app, server, logs }
  await app.start()
  await waitFor(async () => app.ready, `the proxy to be ready: ${logs.join('\n')}`)
}, 180_000)

afterAll(async () => {
  for (const stop of stopAfter) stop()
  if (proxy) {
    await proxy.app.close()
    proxy.server.closeAllConnections()
    await new Promise<void>((resolve) => proxy.server.close(() => resolve()))
  }
  await service?.close()
})

describe('use through a Vexil proxy, as the service shows it', () => {
  it('counts the SDKs evaluations in lastHourUsage and marks both SDK tokens and the proxy token seen', async () => {
    const web = new UnleashClient({
      url: `${proxy.url}/api/frontend`,
      clientKey: tokens['web-frontend']!.secret,
      appName: 'use-web',
      refreshInterval: 1,
      metricsInterval: 1,
      metricsIntervalInitial: 1,
      storageProvider: new InMemoryStorageProvider(),
      fetch: globalThis.fetch,
    })
    stopAfter.push(() => web.stop())
    await web.start()
    const server = new Unleash({
      url: `${proxy.url}/api`,
      appName: 'use-server',
      customHeaders: { Authorization: tokens['server-sdk']!.secret },
      refreshInterval: 500,
      metricsInterval: 500,
      storageProvider: new InMemStorageProvider(),
    })
    server.on('error', () => undefined)
    stopAfter.push(() => server.destroy())
    await new Promise<void>((resolve) => server.once('synchronized', () => resolve()))

    for (let i = 0; i < 3; i++) expect(server.isEnabled(FLAG)).toBe(true)
    for (let i = 0; i < 2; i++) expect(web.isEnabled(FLAG)).toBe(true)
    await web.sendMetrics()
    await waitFor(async () => (await lastHourYes()) >= 5, 'the service to count both SDKs', 30_000)
    expect(await lastHourYes()).toBe(5)
    await waitFor(
      async () => (await seenAt('web-frontend')) !== null && (await seenAt('server-sdk')) !== null,
      'both SDK tokens to be marked seen',
      30_000,
    )

    // The proxy's own token: every metrics post marks it again, while the proxy runs.
    const first = await seenAt('proxy-own')
    expect(first).not.toBeNull()
    web.isEnabled(FLAG)
    await web.sendMetrics()
    await waitFor(
      async () => ((await seenAt('proxy-own')) ?? '') > (first ?? ''),
      "the proxy's token to be marked again",
      30_000,
    )
  }, 90_000)

  it('a flood of made-up tokens at the proxy leaves no trace upstream', async () => {
    const before = await listed()
    const statuses = await Promise.all(
      Array.from({ length: 200 }, async () => {
        const made = `*:development.${randomBytes(16).toString('hex')}`
        return (await fetch(`${proxy.url}/api/frontend`, { headers: { authorization: made } })).status
      }),
    )
    expect(statuses.every((status) => status === 401 || status === 403 || status === 503)).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 3 * METRICS_INTERVAL_MS))
    const after = await listed()
    expect(after.map((t) => t.id)).toEqual(before.map((t) => t.id))
    expect(proxy.logs.join('\n')).not.toContain('refused the metrics')
  }, 60_000)
})
