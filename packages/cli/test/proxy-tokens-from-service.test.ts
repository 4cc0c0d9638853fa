// The Vexil proxy as an Unleash Edge successor, end to end through real things only: the real
// Vexil service (PGlite) as the upstream, real proxies listening on 127.0.0.1, and the real SDKs
// from npm (unleash-proxy-client in Node and in headless Chromium, unleash-client). Covers: one
// proxy serving frontend tokens of two environments at once, a server SDK with a one-project
// client token whose metrics reach the service, two proxies chained, revocation upstream, strict
// mode, and a flood of random tokens that must not turn into a flood of validations upstream.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { isDeepStrictEqual } from 'node:util'
import type { Page } from 'playwright-core'
import { InMemoryStorageProvider, UnleashClient } from 'unleash-proxy-client'
import { InMemStorageProvider, Unleash } from 'unleash-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger, createProxyApp, createProxyConfig, type ProxyApp, type ProxyOptions } from '@vexil/proxy'
import { chromiumAvailable, launchChromium, type LaunchedBrowser } from '@vexil/test-fixtures/chromium.ts'
import { type TestService, startTestService } from '@vexil/test-fixtures/vexil-service.ts'
import { waitFor } from '@vexil/test-fixtures/wait-for.ts'
import { type CountingForwarder, startCountingForwarder } from './helpers/counting-forwarder.js'
import { serviceAdmin } from '@vexil/test-fixtures/service-admin.ts'

const ADMIN = '*:*.edge-successor-admin-secret-0123456789abcdef'
const LEGACY_KEY = 'edge-successor-legacy-client-key'

// --- Servers ---

interface EdgeProxy {
  url: string
  at(path: string): string
  app: ProxyApp
  logs: string[]
  close(): Promise<void>
}

/** A real Vexil proxy on 127.0.0.1 with `options` (no backup storage); resolves once it is ready. */
async function startEdgeProxy(options: ProxyOptions): Promise<EdgeProxy> {
  const logs: string[] = []
  const config = await createProxyConfig(
    {
      metricsInterval: 300,
      logger: createLogger({ level: 'info', json: false, write: (line) => logs.push(line) }),
      ...options,
    },
    {},
  )
  const app = createProxyApp({ config, storage: null })
  const server: Server = createServer(app.listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  await app.start()
  await waitFor(async () => app.ready, `the proxy to be ready: ${logs.join('\n')}`)
  return {
    url,
    at: (path) => `${url}${path}`,
    app,
    logs,
    async close() {
      await app.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

let service: TestService
let forwarder: CountingForwarder
/** Tokens of two environments in `tokens`, dynamic mode: the main proxy of these tests. */
let main: EdgeProxy
const stopAfter: Array<() => Promise<void> | void> = []

/** Calls the admin API with the admin token; fails the test on a non-2xx answer. */
const admin = serviceAdmin(() => service.url, ADMIN)

interface Token {
  id: number
  secret: string
}
const newToken = async (
  tokenName: string,
  type: 'client' | 'frontend',
  environment: string,
  projects: string[] = ['*'],
): Promise<Token> => {
  const { id, secret } = await admin('POST', '/api/admin/api-tokens', { tokenName, type, environment, projects })
  return { id, secret }
}

type Counts = { yes: number; no: number; variants: Record<string, number> }
/** What the service has counted for `flag`, per environment (every hourly row of the last hour summed). */
async function usage(flag: string): Promise<Record<string, Counts>> {
  const { data: rows } = (await admin('GET', `/api/admin/client-metrics/features/${encodeURIComponent(flag)}/raw`)) as {
    data: Array<{ environment: string; yes: number; no: number; variants: Record<string, number> }>
  }
  const byEnvironment: Record<string, Counts> = {}
  for (const row of rows) {
    const counts = (byEnvironment[row.environment] ??= { yes: 0, no: 0, variants: {} })
    counts.yes += Number(row.yes)
    counts.no += Number(row.no)
    for (const [variant, n] of Object.entries(row.variants))
      counts.variants[variant] = (counts.variants[variant] ?? 0) + Number(n)
  }
  return byEnvironment
}
const zero = (): Counts => ({ yes: 0, no: 0, variants: {} })
/** `after - before` per environment, for the counts a test produced itself. */
function delta(before: Record<string, Counts>, after: Record<string, Counts>): Record<string, Counts> {
  const out: Record<string, Counts> = {}
  for (const [environment, now] of Object.entries(after)) {
    const was = before[environment] ?? zero()
    const variants: Record<string, number> = {}
    for (const [variant, n] of Object.entries(now.variants))
      if (n - (was.variants[variant] ?? 0) !== 0) variants[variant] = n - (was.variants[variant] ?? 0)
    const d = { yes: now.yes - was.yes, no: now.no - was.no, variants }
    if (d.yes !== 0 || d.no !== 0 || Object.keys(variants).length > 0) out[environment] = d
  }
  return out
}

const get = (proxy: EdgeProxy, path: string, token?: string) =>
  fetch(proxy.at(path), { headers: token ? { authorization: token } : {} })
const toggleNames = async (res: Response) =>
  ((await res.json()) as { toggles: Array<{ name: string }> }).toggles.map((t) => t.name).sort()
/** The tokens a proxy lists as validated (Edge's /internal-backstage/tokens: each with its secret hidden). */
const validatedTokens = async (proxy: EdgeProxy) =>
  ((await (await get(proxy, '/internal-backstage/tokens')).json()) as { tokenValidationStatus: unknown[] })
    .tokenValidationStatus
const featureNames = async (res: Response) =>
  ((await res.json()) as { features: Array<{ name: string }> }).features.map((f) => f.name).sort()

// --- The flags: two environments that differ, and a second project ---

let DEV_CLIENT: Token
let PROD_CLIENT: Token
let DEV_FRONTEND: Token
let PROD_FRONTEND: Token
/** A valid development frontend token that no proxy is configured with. */
let DEV_FRONTEND_2: Token
/** A client token of the `shop` project only. */
let SHOP_CLIENT: Token

const DEV_PAYLOAD = { type: 'json', value: '{"env":"development"}' }
const PROD_PAYLOAD = { type: 'json', value: '{"env":"production"}' }

/** What a frontend token of each environment sees for userId u-1 (enabled toggles). */
const DEV_TOGGLES = ['edge.banner', 'edge.dev-only', 'edge.everywhere', 'edge.not-for-shop']
const PROD_TOGGLES = ['edge.banner', 'edge.everywhere', 'edge.prod-only']

async function createFlags(): Promise<void> {
  const flag = (project: string, name: string) =>
    admin('POST', `/api/admin/projects/${project}/features`, { name, type: 'release' })
  const strategy = (project: string, name: string, environment: string, body: unknown) =>
    admin('POST', `/api/admin/projects/${project}/features/${name}/environments/${environment}/strategies`, body)
  const on = (project: string, name: string, environment: string) =>
    admin('POST', `/api/admin/projects/${project}/features/${name}/environments/${environment}/on`)

  // On in both environments, with a strategy variant whose payload differs per environment.
  await flag('default', 'edge.everywhere')
  const variant = (name: string, payload: unknown) => [
    { name, weight: 1000, weightType: 'variable', stickiness: 'default', payload },
  ]
  await strategy('default', 'edge.everywhere', 'development', {
    name: 'flexibleRollout',
    parameters: { rollout: '100', stickiness: 'default', groupId: 'edge.everywhere' },
    variants: variant('dev-blue', DEV_PAYLOAD),
  })
  await strategy('default', 'edge.everywhere', 'production', {
    name: 'flexibleRollout',
    parameters: { rollout: '100', stickiness: 'default', groupId: 'edge.everywhere' },
    variants: variant('prod-red', PROD_PAYLOAD),
  })
  await on('default', 'edge.everywhere', 'development')
  await on('default', 'edge.everywhere', 'production')
  // Environment variants (not strategy variants), one string payload per environment.
  await flag('default', 'edge.banner')
  for (const [environment, text] of [
    ['development', 'Hello dev'],
    ['production', 'Hello prod'],
  ] as const) {
    await strategy('default', 'edge.banner', environment, { name: 'default' })
    await admin(
      'PUT',
      `/api/admin/projects/default/features/edge.banner/environments/${environment}/variants`,
      variant('banner', { type: 'string', value: text }),
    )
    await on('default', 'edge.banner', environment)
  }
  // On in one environment only (a strategy in both).
  for (const [name, enabledIn] of [
    ['edge.dev-only', 'development'],
    ['edge.prod-only', 'production'],
  ] as const) {
    await flag('default', name)
    await strategy('default', name, 'development', { name: 'default' })
    await strategy('default', name, 'production', { name: 'default' })
    await on('default', name, enabledIn)
  }
  // A default-project flag the shop project's SDK may ask about but never sees.
  await flag('default', 'edge.not-for-shop')
  await on('default', 'edge.not-for-shop', 'development')

  // The second project: a constrained flexibleRollout and a userWithId, in development.
  await admin('POST', '/api/admin/projects', { id: 'shop', name: 'Shop' })
  await flag('shop', 'shop.checkout')
  await strategy('shop', 'shop.checkout', 'development', {
    name: 'flexibleRollout',
    parameters: { rollout: '100', stickiness: 'default', groupId: 'shop.checkout' },
    constraints: [{ contextName: 'country', operator: 'IN', values: ['NO'] }],
  })
  await on('shop', 'shop.checkout', 'development')
  await flag('shop', 'shop.vip')
  await strategy('shop', 'shop.vip', 'development', { name: 'userWithId', parameters: { userIds: 'u-42,u-43' } })
  await on('shop', 'shop.vip', 'development')
}

beforeAll(async () => {
  service = await startTestService('edge-successor', { adminToken: ADMIN })
  forwarder = await startCountingForwarder(service.url)
  await createFlags()
  DEV_CLIENT = await newToken('edge-dev-client', 'client', 'development')
  PROD_CLIENT = await newToken('edge-prod-client', 'client', 'production')
  DEV_FRONTEND = await newToken('edge-dev-frontend', 'frontend', 'development')
  PROD_FRONTEND = await newToken('edge-prod-frontend', 'frontend', 'production')
  DEV_FRONTEND_2 = await newToken('edge-dev-frontend-2', 'frontend', 'development')
  SHOP_CLIENT = await newToken('edge-shop-client', 'client', 'development', ['shop'])
  main = await startEdgeProxy({
    serviceUrl: `${service.url}/api`,
    tokens: [DEV_CLIENT.secret, PROD_CLIENT.secret],
    refreshInterval: 1_000,
    metricsInterval: 300,
  })
})

afterAll(async () => {
  for (const stop of stopAfter.reverse()) await stop()
  await main?.close()
  await forwarder?.close()
  await service?.close()
})

// --- 1. The frontend SDK, two environments on one proxy ---

describe('unleash-proxy-client (Node) on /api/frontend: two environments on one proxy at once', () => {
  it("each environment's client sees its own flags and variant payloads, and its metrics reach the service in its environment", async () => {
    const errors: unknown[] = []
    const sdk = (token: Token, appName: string) => {
      const client = new UnleashClient({
        url: main.at('/api/frontend'),
        clientKey: token.secret,
        appName,
        context: { userId: 'u-1' },
        refreshInterval: 1,
        disableMetrics: false,
        metricsInterval: 1,
        metricsIntervalInitial: 1,
        storageProvider: new InMemoryStorageProvider(),
        fetch: globalThis.fetch,
      })
      client.on('error', (error: unknown) => errors.push(error))
      stopAfter.push(() => client.stop())
      return client
    }
    const flags = ['edge.everywhere', 'edge.dev-only', 'edge.prod-only', 'edge.banner']
    const before = Object.fromEntries(await Promise.all(flags.map(async (f) => [f, await usage(f)] as const)))
    const dev = sdk(DEV_FRONTEND, 'edge-web-dev')
    const prod = sdk(PROD_FRONTEND, 'edge-web-prod')
    await Promise.all([dev.start(), prod.start()])
    expect(dev.isReady() && prod.isReady()).toBe(true)

    expect(
      dev
        .getAllToggles()
        .map((t) => t.name)
        .sort(),
    ).toEqual(DEV_TOGGLES)
    expect(
      prod
        .getAllToggles()
        .map((t) => t.name)
        .sort(),
    ).toEqual(PROD_TOGGLES)
    // Development.
    expect(dev.isEnabled('edge.everywhere')).toBe(true)
    expect(dev.getVariant('edge.everywhere')).toMatchObject({ name: 'dev-blue', enabled: true, payload: DEV_PAYLOAD })
    expect(dev.isEnabled('edge.dev-only')).toBe(true)
    expect(dev.isEnabled('edge.prod-only')).toBe(false)
    expect(dev.getVariant('edge.banner')).toMatchObject({
      name: 'banner',
      enabled: true,
      payload: { type: 'string', value: 'Hello dev' },
    })
    // Production, from the same proxy at the same time.
    expect(prod.isEnabled('edge.everywhere')).toBe(true)
    expect(prod.getVariant('edge.everywhere')).toMatchObject({ name: 'prod-red', enabled: true, payload: PROD_PAYLOAD })
    expect(prod.isEnabled('edge.dev-only')).toBe(false)
    expect(prod.isEnabled('edge.prod-only')).toBe(true)
    expect(prod.getVariant('edge.banner')).toMatchObject({
      name: 'banner',
      enabled: true,
      payload: { type: 'string', value: 'Hello prod' },
    })

    // The SDKs post their counts to /api/frontend/client/metrics every second; the proxy sends
    // them on with the client token of the same environment.
    const expected: Record<string, Record<string, Counts>> = {
      'edge.everywhere': {
        development: { yes: 2, no: 0, variants: { 'dev-blue': 1 } },
        production: { yes: 2, no: 0, variants: { 'prod-red': 1 } },
      },
      'edge.dev-only': { development: { yes: 1, no: 0, variants: {} }, production: { yes: 0, no: 1, variants: {} } },
      'edge.prod-only': { development: { yes: 0, no: 1, variants: {} }, production: { yes: 1, no: 0, variants: {} } },
      'edge.banner': {
        development: { yes: 1, no: 0, variants: { banner: 1 } },
        production: { yes: 1, no: 0, variants: { banner: 1 } },
      },
    }
    const now = async () =>
      Object.fromEntries(await Promise.all(flags.map(async (f) => [f, delta(before[f]!, await usage(f))] as const)))
    await waitFor(
      async () => isDeepStrictEqual(await now(), expected),
      'the SDK metrics to reach the service',
      10_000,
    ).catch(async (error) => {
      expect(await now()).toEqual(expected)
      throw error
    })
    dev.stop()
    prod.stop()
    expect(errors).toEqual([])
  })

  it("the same answers on the wire: Bearer tokens, each environment's own variant payload", async () => {
    const [dev, prod] = await Promise.all([
      get(main, '/api/frontend?userId=u-1', `Bearer ${DEV_FRONTEND.secret}`),
      get(main, '/api/frontend?userId=u-1', PROD_FRONTEND.secret),
    ])
    expect(dev.status).toBe(200)
    expect(prod.status).toBe(200)
    const devBody = (await dev.json()) as { toggles: Array<{ name: string; variant: { payload?: unknown } }> }
    const prodBody = (await prod.json()) as { toggles: Array<{ name: string; variant: { payload?: unknown } }> }
    expect(devBody.toggles.find((t) => t.name === 'edge.everywhere')!.variant.payload).toEqual(DEV_PAYLOAD)
    expect(prodBody.toggles.find((t) => t.name === 'edge.everywhere')!.variant.payload).toEqual(PROD_PAYLOAD)
    // The service-side token scope decides: a context claiming another environment changes nothing.
    expect(
      await toggleNames(await get(main, '/api/frontend?userId=u-1&environment=production', DEV_FRONTEND.secret)),
    ).toEqual(DEV_TOGGLES)
  })
})

// --- 2. The server SDK with a one-project client token ---

describe('unleash-client on /api/client/features with a client token of one project', () => {
  let sdk: Unleash
  const before: Record<string, Record<string, Counts>> = {}

  beforeAll(async () => {
    for (const flag of ['shop.checkout', 'shop.vip', 'edge.not-for-shop']) before[flag] = await usage(flag)
    sdk = new Unleash({
      url: main.at('/api'),
      appName: 'edge-successor-server',
      customHeaders: { Authorization: SHOP_CLIENT.secret },
      refreshInterval: 500,
      metricsInterval: 300,
      storageProvider: new InMemStorageProvider(),
    })
    sdk.on('error', () => {})
    sdk.on('warn', () => {})
    stopAfter.push(() => sdk.destroy())
    await new Promise<void>((resolve) => sdk.once('synchronized', () => resolve()))
  })

  it("sees only that project's flags, and evaluates them (constraint, userWithId)", async () => {
    expect(
      sdk
        .getFeatureToggleDefinitions()
        .map((f) => f.name)
        .sort(),
    ).toEqual(['shop.checkout', 'shop.vip'])
    expect(sdk.isEnabled('shop.checkout', { userId: 'u-1', properties: { country: 'NO' } })).toBe(true)
    expect(sdk.isEnabled('shop.checkout', { userId: 'u-1', properties: { country: 'SE' } })).toBe(false)
    expect(sdk.isEnabled('shop.vip', { userId: 'u-42' })).toBe(true)
    expect(sdk.isEnabled('shop.vip', { userId: 'u-1' })).toBe(false)
    // Another project's flag: unknown to this SDK, so off.
    expect(sdk.isEnabled('edge.not-for-shop', { userId: 'u-1' })).toBe(false)
    // On the wire: the proxy answers the token's scope, as the service does.
    const res = await get(main, '/api/client/features', SHOP_CLIENT.secret)
    expect(res.status).toBe(200)
    const body = (await res.json()) as { features: Array<{ name: string; project: string }>; query: unknown }
    expect(body.features.map((f) => f.name).sort()).toEqual(['shop.checkout', 'shop.vip'])
    expect(body.query).toMatchObject({ projects: ['shop'], environment: 'development' })
  })

  it('its metrics reach the service (the proxy forwards them with its own client token)', async () => {
    const expected = { development: { yes: 1, no: 1, variants: {} } }
    await waitFor(
      async () => {
        const [checkout, vip] = await Promise.all([usage('shop.checkout'), usage('shop.vip')])
        return (
          isDeepStrictEqual(delta(before['shop.checkout']!, checkout), expected) &&
          isDeepStrictEqual(delta(before['shop.vip']!, vip), expected)
        )
      },
      'the server SDK metrics to reach the service',
      10_000,
    )
    expect(delta(before['shop.checkout']!, await usage('shop.checkout'))).toEqual(expected)
    expect(delta(before['shop.vip']!, await usage('shop.vip'))).toEqual(expected)
  })

  // The service ignores counts a token posts for flags outside its projects (packages/service
  // README, "Client metrics"); going through the proxy must not change that. It does today: a
  // narrower token's view shares the covering sync's usage aggregator, which accepts any flag of
  // the wider payload and sends it upstream with the wider client token.
  it('counts posted with a one-project token for a flag outside its project are not counted upstream (as when it talks to the service directly)', async () => {
    // Reference: the same kind of post straight to the service is ignored for edge.not-for-shop.
    const now = new Date().toISOString()
    const bucket = (toggles: Record<string, Counts>) => ({ start: now, stop: now, toggles })
    const direct = await fetch(`${service.url}/api/client/metrics`, {
      method: 'POST',
      headers: { authorization: SHOP_CLIENT.secret, 'content-type': 'application/json' },
      body: JSON.stringify({
        appName: 'direct',
        instanceId: 'i',
        bucket: bucket({ 'edge.not-for-shop': { yes: 0, no: 5, variants: {} } }),
      }),
    })
    expect(direct.status).toBe(202)
    // A frontend token of the shop project posting a count of the same flag to the proxy.
    const shopFrontend = await newToken('edge-shop-frontend', 'frontend', 'development', ['shop'])
    const posted = await fetch(main.at('/api/frontend/client/metrics'), {
      method: 'POST',
      headers: { authorization: shopFrontend.secret, 'content-type': 'application/json' },
      body: JSON.stringify({
        appName: 'shop-web',
        instanceId: 'browser',
        bucket: bucket({ 'edge.not-for-shop': { yes: 3, no: 0, variants: {} } }),
      }),
    })
    expect(posted.status).toBe(200)
    // The server SDK's own count of edge.not-for-shop (no: 1, above) went to the proxy in the same
    // posts as the shop.* counts, which have arrived; the proxy sends every 300 ms.
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const counted = delta(before['edge.not-for-shop']!, await usage('edge.not-for-shop')).development ?? zero()
    expect
      .soft(
        counted.no,
        'no-counts of edge.not-for-shop: 5 posted directly (ignored by the service), 1 by the shop server SDK through the proxy',
      )
      .toBe(0)
    expect
      .soft(counted.yes, 'yes-counts of edge.not-for-shop: 3 posted by a shop frontend token through the proxy')
      .toBe(0)
  })
})

// --- 3. Two proxies chained ---

describe('two Vexil proxies chained: B -> A -> service', () => {
  let a: EdgeProxy
  let b: EdgeProxy

  beforeAll(async () => {
    // A: the old configuration (SERVICE_API_TOKEN and client keys for /proxy), learning every
    // other token from the service.
    a = await startEdgeProxy({
      serviceUrl: `${service.url}/api`,
      serviceApiToken: DEV_CLIENT.secret,
      clientKeys: [LEGACY_KEY],
      refreshInterval: 500,
    })
    stopAfter.push(() => a.close())
    // B: its upstream is A; its client token is validated by A (which asks the service).
    b = await startEdgeProxy({ serviceUrl: `${a.url}/api`, tokens: [DEV_CLIENT.secret], refreshInterval: 500 })
    stopAfter.push(() => b.close())
  })

  it('a frontend token works through B (validated by A, which asks the service), with the flags the service has', async () => {
    const viaB = await get(b, '/api/frontend?userId=u-1&sessionId=s', DEV_FRONTEND.secret)
    expect(viaB.status).toBe(200)
    const direct = await get(main, '/api/frontend?userId=u-1&sessionId=s', DEV_FRONTEND.secret)
    const body = await viaB.text()
    expect(body).toBe(await direct.text())
    expect(
      JSON.parse(body)
        .toggles.map((t: { name: string }) => t.name)
        .sort(),
    ).toEqual(DEV_TOGGLES)
    // Both proxies now list it as validated (A learned it when B asked).
    const devFrontend = expect.objectContaining({
      token: '*:development.*****',
      type: 'frontend',
      environment: 'development',
    })
    expect(await validatedTokens(b)).toContainEqual(devFrontend)
    expect(await validatedTokens(a)).toContainEqual(devFrontend)
    // And A's old /proxy route keeps working beside it.
    const legacy = await get(a, '/proxy?userId=u-1', LEGACY_KEY)
    expect(legacy.status).toBe(200)
    expect(await toggleNames(legacy)).toEqual(DEV_TOGGLES)
  })

  it("client tokens work on B's /api/client/features (the configured one, and a learned one-project one)", async () => {
    const all = await get(b, '/api/client/features', DEV_CLIENT.secret)
    expect(all.status).toBe(200)
    expect(await featureNames(all)).toEqual([
      'edge.banner',
      'edge.dev-only',
      'edge.everywhere',
      'edge.not-for-shop',
      'edge.prod-only',
      'shop.checkout',
      'shop.vip',
    ])
    const shop = await get(b, '/api/client/features', SHOP_CLIENT.secret)
    expect(shop.status).toBe(200)
    expect(await featureNames(shop)).toEqual(['shop.checkout', 'shop.vip'])
    // A token the service does not know is refused at B.
    expect((await get(b, '/api/client/features', '*:development.not-a-real-token')).status).toBe(401)
  })

  it('a client token of another environment, first seen at B, makes both proxies sync it; then its frontend tokens work at B', async () => {
    expect((await get(b, '/api/frontend?userId=u-1', PROD_FRONTEND.secret)).status).toBe(503)
    await waitFor(
      async () => (await get(b, '/api/client/features', PROD_CLIENT.secret)).status === 200,
      'B to sync production through A',
    )
    const prod = await get(b, '/api/frontend?userId=u-1', PROD_FRONTEND.secret)
    expect(prod.status).toBe(200)
    const body = (await prod.json()) as { toggles: Array<{ name: string; variant: { payload?: unknown } }> }
    expect(body.toggles.map((t) => t.name).sort()).toEqual(PROD_TOGGLES)
    expect(body.toggles.find((t) => t.name === 'edge.everywhere')!.variant.payload).toEqual(PROD_PAYLOAD)
  })

  it("a token revoked at the service stops working at B within two refresh intervals (A's, then B's)", async () => {
    const revocable = await newToken('edge-chain-revocable', 'frontend', 'development')
    expect((await get(b, '/api/frontend', revocable.secret)).status).toBe(200)
    await admin('DELETE', `/api/admin/api-tokens/${revocable.id}`)
    const revokedAt = Date.now()
    await waitFor(
      async () => (await get(b, '/api/frontend', revocable.secret)).status === 401,
      'B to refuse the revoked token',
      6_000,
    )
    expect(Date.now() - revokedAt).toBeLessThan(4_000)
  })
})

// --- 4. Revocation ---

describe('revocation upstream', () => {
  it('a frontend and a client token deleted at the service are refused by the proxy within one refresh interval', async () => {
    const frontend = await newToken('edge-revocable-frontend', 'frontend', 'development')
    const client = await newToken('edge-revocable-client', 'client', 'development', ['shop'])
    expect((await get(main, '/api/frontend', frontend.secret)).status).toBe(200)
    expect((await get(main, '/api/client/features', client.secret)).status).toBe(200)
    await admin('DELETE', `/api/admin/api-tokens/${frontend.id}`)
    await admin('DELETE', `/api/admin/api-tokens/${client.id}`)
    const revokedAt = Date.now()
    const refused = async (path: string, secret: string) => {
      await waitFor(
        async () => (await get(main, path, secret)).status === 401,
        `the proxy to refuse the revoked token on ${path}`,
        5_000,
      )
      return Date.now() - revokedAt
    }
    const [frontendAfter, clientAfter] = await Promise.all([
      refused('/api/frontend', frontend.secret),
      refused('/api/client/features', client.secret),
    ])
    // refreshInterval 1000 ms: revalidated every second.
    expect(frontendAfter).toBeLessThan(3_000)
    expect(clientAfter).toBeLessThan(3_000)
    // Other tokens are unaffected.
    expect((await get(main, '/api/frontend', DEV_FRONTEND.secret)).status).toBe(200)
  })
})

// --- 5. Strict mode, and a flood of random tokens ---

const randomTokens = (count: number, tag: string) =>
  Array.from({ length: count }, (_, i) => `*:development.${tag}-${i}-${randomBytes(12).toString('hex')}`)

/** Sends one GET /api/frontend per token, at most `concurrency` at a time; the statuses in order. */
async function flood(proxy: EdgeProxy, tokens: string[], concurrency: number): Promise<number[]> {
  const statuses: number[] = new Array(tokens.length)
  let next = 0
  const worker = async () => {
    while (next < tokens.length) {
      const i = next++
      const res = await get(proxy, '/api/frontend', tokens[i])
      await res.arrayBuffer()
      statuses[i] = res.status
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return statuses
}

describe('strict mode and token floods (upstream validations counted by a forwarder in front of the service)', () => {
  let strict: EdgeProxy
  let dynamic: EdgeProxy
  const validationsWith = (tokens: Iterable<string>) => {
    const wanted = new Set(tokens)
    return forwarder.validations().filter((call) => call.tokens.some((t) => wanted.has(t)))
  }

  beforeAll(async () => {
    strict = await startEdgeProxy({
      serviceUrl: `${forwarder.url}/api`,
      strict: true,
      tokens: [DEV_CLIENT.secret, DEV_FRONTEND.secret],
      refreshInterval: 1_000,
    })
    stopAfter.push(() => strict.close())
    dynamic = await startEdgeProxy({
      serviceUrl: `${forwarder.url}/api`,
      tokens: [DEV_CLIENT.secret],
      refreshInterval: 1_000,
    })
    stopAfter.push(() => dynamic.close())
  })

  it('strict: only the configured tokens are accepted; valid upstream tokens that are not configured get 401 and are never asked about', async () => {
    expect(await toggleNames(await get(strict, '/api/frontend?userId=u-1', DEV_FRONTEND.secret))).toEqual(DEV_TOGGLES)
    expect((await get(strict, '/api/client/features', DEV_CLIENT.secret)).status).toBe(200)
    expect((await get(strict, '/api/frontend?userId=u-1', DEV_FRONTEND_2.secret)).status).toBe(401)
    expect((await get(strict, '/api/frontend?userId=u-1', `Bearer ${DEV_FRONTEND_2.secret}`)).status).toBe(401)
    expect((await get(strict, '/api/client/features', SHOP_CLIENT.secret)).status).toBe(401)
    // The same tokens work on a dynamic proxy, so the 401s are strict mode's.
    expect((await get(main, '/api/frontend?userId=u-1', DEV_FRONTEND_2.secret)).status).toBe(200)
    // A burst of random tokens at the strict proxy: all 401, none reaches the service.
    const random = randomTokens(200, 'strict')
    expect(new Set(await flood(strict, random, 50))).toEqual(new Set([401]))
    expect(validationsWith([DEV_FRONTEND_2.secret, SHOP_CLIENT.secret, ...random])).toEqual([])
  })

  it('dynamic: 2,000 random well-formed tokens at once are refused (401/503) with a bounded number of validations upstream; a real token works right after', async () => {
    const tokens = randomTokens(2_000, 'flood')
    const started = Date.now()
    const statuses = await flood(dynamic, tokens, 200)
    const took = Date.now() - started
    const counts: Record<number, number> = {}
    for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1
    expect(
      Object.keys(counts)
        .map(Number)
        .every((status) => status === 401 || status === 503),
      JSON.stringify(counts),
    ).toBe(true)
    const calls = validationsWith(tokens)
    // At most 100 tokens per validation, each token asked about at most once.
    expect(calls.every((call) => call.tokens.length <= 100)).toBe(true)
    const asked = calls.flatMap((call) => call.tokens.filter((t) => t.includes('.flood-')))
    expect(new Set(asked).size).toBe(asked.length)
    // At most one validation per 100 ms (minus a little for timer slack), mostly full: on a
    // loaded machine the flood arrives more slowly and a few validations go out part full.
    expect(calls.at(-1)!.at - calls[0]!.at).toBeGreaterThanOrEqual((calls.length - 1) * 90)
    expect(
      calls.length,
      `${calls.length} validations for 2,000 tokens in ${took} ms; statuses ${JSON.stringify(counts)}`,
    ).toBeLessThanOrEqual(Math.ceil((2_000 / 100) * 1.5))
    // The same tokens again: remembered as invalid, no new validation.
    const again = await flood(dynamic, tokens.slice(0, 300), 100)
    expect(new Set(again)).toEqual(new Set([401]))
    expect(validationsWith(tokens).length).toBe(calls.length)
    // A real token, never seen by this proxy, works right after.
    const real = await get(dynamic, '/api/frontend?userId=u-1', DEV_FRONTEND.secret)
    expect(real.status).toBe(200)
    expect(await toggleNames(real)).toEqual(DEV_TOGGLES)
  })
})

// --- 6. The frontend SDK's browser build in headless Chromium ---

interface PageGlobals {
  startClient(url: string, clientKey: string, appName: string): Promise<unknown>
  clients: Record<
    string,
    {
      getAllToggles(): Array<{ name: string }>
      isEnabled(name: string): boolean
      getVariant(name: string): { name: string; enabled: boolean; payload?: { type: string; value: string } }
      sendMetrics(): Promise<void>
      stop(): void
    }
  >
}

/** The SDK's own browser build (UMD, global `unleash`), as a page would load it from a CDN. */
function sdkBrowserBuild(): string {
  const entry = createRequire(import.meta.url).resolve('unleash-proxy-client')
  return readFileSync(join(dirname(entry), 'main.min.js'), 'utf8')
}

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Edge successor</title>
<script src="/unleash-proxy-client.min.js"></script>
<script>
window.clients = {}
window.startClient = async (url, clientKey, appName) => {
  const client = new unleash.UnleashClient({ url, clientKey, appName, context: { userId: 'u-1' }, refreshInterval: 1, metricsInterval: 60, metricsIntervalInitial: 60, storageProvider: new unleash.InMemoryStorageProvider() })
  window.clients[appName] = client
  await client.start()
  return client.isReady()
}
</script></head><body>edge successor</body></html>`

describe.runIf(chromiumAvailable())(
  'unleash-proxy-client (browser build) in headless Chromium on /api/frontend, two environments',
  () => {
    let pages: Server
    let origin: string
    let browser: LaunchedBrowser
    let tab: Page
    const problems: string[] = []

    beforeAll(async () => {
      const sdk = sdkBrowserBuild()
      pages = createServer((req, res) => {
        if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE)
        else if (req.url === '/unleash-proxy-client.min.js')
          res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(sdk)
        else res.writeHead(204).end()
      })
      await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve))
      origin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`
      browser = await launchChromium()
      tab = await browser.browser.newPage()
      tab.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
      tab.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console error: ${message.text()}`)
      })
      tab.on('requestfailed', async (request) => {
        // A 304 whose (empty) body nobody read is reported as ERR_ABORTED; it arrived.
        if (request.failure()?.errorText === 'net::ERR_ABORTED' && (await request.response())?.status() === 304) return
        problems.push(`failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`)
      })
      tab.on('response', (response) => {
        if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`)
      })
      await tab.goto(`${origin}/`)
    })

    afterAll(async () => {
      await tab
        ?.evaluate(() =>
          Object.values((globalThis as unknown as PageGlobals).clients).forEach((c) => {
            c.stop()
          }),
        )
        .catch(() => {})
      await browser?.close()
      pages?.closeAllConnections()
      await new Promise<void>((resolve) => (pages ? pages.close(() => resolve()) : resolve()))
    })

    it("a page on another origin: each environment's client sees its own flags and payloads, and its metrics reach the service", async () => {
      const before = await usage('edge.everywhere')
      const url = main.at('/api/frontend')
      const ready = await tab.evaluate(
        ([u, dev, prod]) =>
          Promise.all([
            (globalThis as unknown as PageGlobals).startClient(u, dev, 'browser-dev'),
            (globalThis as unknown as PageGlobals).startClient(u, prod, 'browser-prod'),
          ]),
        [url, DEV_FRONTEND.secret, PROD_FRONTEND.secret] as const,
      )
      expect(ready).toEqual([true, true])
      const seen = await tab.evaluate(() => {
        const { clients } = globalThis as unknown as PageGlobals
        const read = (c: PageGlobals['clients'][string]) => ({
          toggles: c
            .getAllToggles()
            .map((t) => t.name)
            .sort(),
          devOnly: c.isEnabled('edge.dev-only'),
          prodOnly: c.isEnabled('edge.prod-only'),
          everywhere: c.getVariant('edge.everywhere'),
          banner: c.getVariant('edge.banner').payload,
        })
        return { dev: read(clients['browser-dev']!), prod: read(clients['browser-prod']!) }
      })
      expect(seen.dev).toMatchObject({
        toggles: DEV_TOGGLES,
        devOnly: true,
        prodOnly: false,
        everywhere: { name: 'dev-blue', enabled: true, payload: DEV_PAYLOAD },
        banner: { type: 'string', value: 'Hello dev' },
      })
      expect(seen.prod).toMatchObject({
        toggles: PROD_TOGGLES,
        devOnly: false,
        prodOnly: true,
        everywhere: { name: 'prod-red', enabled: true, payload: PROD_PAYLOAD },
        banner: { type: 'string', value: 'Hello prod' },
      })

      await tab.evaluate(() =>
        Promise.all(Object.values((globalThis as unknown as PageGlobals).clients).map((c) => c.sendMetrics())),
      )
      const expected = {
        development: { yes: 1, no: 0, variants: { 'dev-blue': 1 } },
        production: { yes: 1, no: 0, variants: { 'prod-red': 1 } },
      }
      await waitFor(
        async () => isDeepStrictEqual(delta(before, await usage('edge.everywhere')), expected),
        'the browser SDK metrics to reach the service',
        10_000,
      ).catch(async (error) => {
        expect(delta(before, await usage('edge.everywhere'))).toEqual(expected)
        throw error
      })
      expect(problems).toEqual([])
    })
  },
)
