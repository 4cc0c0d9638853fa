// OFREP callers upstream under their own app (docs/operations.md "What the upstream sees"): OFREP
// providers post no metrics, so where the evaluation context names an app the proxy counts a
// single-flag evaluation under it and registers it, and registers it on every bulk answer (from
// the response cache too); without a name the counts are the proxy's own. Through a real listening
// proxy and an upstream that takes Unleash's bulk metrics, for a client key and a frontend token,
// and a flood of made-up app names stays within the usage bounds.
import { describe, expect, it } from 'vitest'
import { MAX_APPLICATIONS } from '@vexil/sync'
import { waitFor } from '@vexil/test-fixtures/wait-for.ts'
import { type CachedResponse, createResponseCaches } from '../src/cache/response-cache.js'
import { impliedRegistrations } from '../src/protocols/ofrep-usage.js'
import { type Bulk, bulkRows, withBulk } from './helpers/bulk-upstream.js'
import { CLIENT_KEY, startTestProxy, startUpstreamWithTokens, type TestProxy, useServers } from './helpers/proxy.js'

const FEATURES = {
  version: 2,
  features: [
    { name: 'on', enabled: true, strategies: [{ name: 'default' }] },
    { name: 'off', enabled: false, strategies: [{ name: 'default' }] },
    {
      name: 'copy',
      enabled: true,
      strategies: [{ name: 'default' }],
      variants: [{ name: 'hello', weight: 1000, stickiness: 'default', weightType: 'variable' }],
    },
  ],
}
const CLIENT = '*:development.ofrep-apps-client'
const FRONTEND = '*:development.ofrep-apps-frontend'
const SINGLE = '/ofrep/v1/evaluate/flags'

const servers = useServers()

const callers = [
  { kind: 'a client key', headers: { authorization: CLIENT_KEY }, environment: 'development' },
  { kind: 'a frontend token', headers: { authorization: FRONTEND }, environment: 'development' },
] as const

async function start(metricsInterval = 200): Promise<{ proxy: TestProxy; bulks: Bulk[] }> {
  const upstream = await startUpstreamWithTokens(FEATURES, { client: CLIENT, frontend: FRONTEND })
  servers.defer(() => upstream.close())
  const recorded = await withBulk(upstream, servers.defer)
  const proxy = await startTestProxy(recorded.url, {
    serviceApiToken: CLIENT,
    tokens: [CLIENT],
    metricsInterval,
    serviceAppName: 'ofrep-vexil',
  })
  servers.defer(() => proxy.close())
  return { proxy, bulks: recorded.bulks }
}

const ofrep = (proxy: TestProxy, path: string, headers: Record<string, string>, context: object) =>
  fetch(proxy.at(path), {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ context }),
  })

const rowsOf = (bulks: Bulk[], appName: string, featureName: string) =>
  bulkRows(bulks).filter((row) => row.appName === appName && row.featureName === featureName)
const sumOf = (rows: { yes: number; no: number }[], field: 'yes' | 'no') => rows.reduce((n, row) => n + row[field], 0)
const applicationsOf = (bulks: Bulk[], appName: string) =>
  bulks.flatMap((bulk) => bulk.applications).filter((app) => app.appName === appName)

describe.each(callers)('OFREP usage per app for $kind', ({ headers, environment }) => {
  it('counts single-flag evaluations under the app the context names, and registers it', async () => {
    const { proxy, bulks } = await start()
    const server = { appName: 'ofrep-server', instanceId: 'pod-7' }
    for (let i = 0; i < 3; i++) await (await ofrep(proxy, `${SINGLE}/on`, headers, server)).text()
    for (let i = 0; i < 2; i++) await (await ofrep(proxy, `${SINGLE}/off`, headers, server)).text()
    expect((await ofrep(proxy, `${SINGLE}/copy`, headers, server)).status).toBe(200)
    expect((await ofrep(proxy, `${SINGLE}/on`, headers, { appName: 'ofrep-default-instance' })).status).toBe(200)

    await waitFor(
      async () =>
        sumOf(rowsOf(bulks, 'ofrep-server', 'on'), 'yes') >= 3 &&
        sumOf(rowsOf(bulks, 'ofrep-server', 'copy'), 'yes') >= 1 &&
        applicationsOf(bulks, 'ofrep-default-instance').length > 0,
      'the app counted and registered upstream',
      10_000,
    )
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(sumOf(rowsOf(bulks, 'ofrep-server', 'on'), 'yes')).toBe(3)
    expect(sumOf(rowsOf(bulks, 'ofrep-server', 'off'), 'no')).toBe(2)
    expect(rowsOf(bulks, 'ofrep-server', 'on')[0]).toMatchObject({ instanceId: 'pod-7', environment })
    const [copied] = rowsOf(bulks, 'ofrep-server', 'copy') as (Bulk['metrics'][number] & {
      variants: Record<string, number>
    })[]
    expect(copied!.variants).toEqual({ hello: 1 })
    expect(rowsOf(bulks, 'ofrep-vexil', 'on')).toEqual([])
    // Registered again in each report the app's evaluations fall in.
    expect(applicationsOf(bulks, 'ofrep-server')[0]).toEqual({
      appName: 'ofrep-server',
      instanceId: 'pod-7',
      environment,
      sdkType: 'backend',
      sdkVersion: 'ofrep',
      strategies: [],
      started: expect.any(String),
      interval: 200,
      connectVia: [{ appName: 'ofrep-vexil', instanceId: expect.any(String) }],
    })
    expect(applicationsOf(bulks, 'ofrep-default-instance')[0]).toMatchObject({ instanceId: 'ofrep' })
  })

  it('counts evaluations whose context names no app as the proxy own, and registers nothing', async () => {
    const { proxy, bulks } = await start()
    for (let i = 0; i < 2; i++) expect((await ofrep(proxy, `${SINGLE}/on`, headers, { userId: '1' })).status).toBe(200)
    expect((await ofrep(proxy, `${SINGLE}/on`, headers, { appName: '' })).status).toBe(200)
    await waitFor(async () => sumOf(rowsOf(bulks, 'ofrep-vexil', 'on'), 'yes') >= 3, 'the proxy own counts', 10_000)
    expect(bulkRows(bulks).filter((row) => row.appName !== 'ofrep-vexil')).toEqual([])
    expect(bulks.flatMap((bulk) => bulk.applications).filter((app) => app.appName !== 'ofrep-vexil')).toEqual([])
  })

  it('registers the app a bulk evaluation names on every answer, from the cache too, and counts nothing', async () => {
    const { proxy, bulks } = await start()
    const web = { appName: 'ofrep-web', instanceId: 'tab-1', targetingKey: '42' }
    const first = await ofrep(proxy, SINGLE, headers, web)
    expect(first.status).toBe(200)
    const etag = first.headers.get('etag')!
    await first.text()
    // The response cache admits an answer on its key's second sight.
    expect((await ofrep(proxy, SINGLE, headers, web)).status).toBe(200)
    await waitFor(async () => applicationsOf(bulks, 'ofrep-web').length > 0, 'the bulk caller registered', 10_000)
    const reportsBefore = bulks.length

    const hit = await ofrep(proxy, SINGLE, { ...headers, 'if-none-match': etag }, web)
    expect(hit.status).toBe(304)
    const scrape = await (await fetch(proxy.at('/proxy/internal-backstage/prometheus'))).text()
    expect(scrape).toMatch(/vexil_proxy_response_cache_total\{result="hit"\} [1-9]/)
    await waitFor(
      async () => applicationsOf(bulks.slice(reportsBefore), 'ofrep-web').length > 0,
      'the cached answer registered the caller again',
      10_000,
    )
    expect(applicationsOf(bulks, 'ofrep-web')[0]).toEqual({
      appName: 'ofrep-web',
      instanceId: 'tab-1',
      environment,
      sdkType: 'frontend',
      sdkVersion: 'ofrep',
      strategies: [],
      started: expect.any(String),
      interval: 200,
      connectVia: [{ appName: 'ofrep-vexil', instanceId: expect.any(String) }],
    })
    expect(bulkRows(bulks)).toEqual([])
  })
})

describe('OFREP app names a caller makes up', () => {
  it('a flood of app names costs at most MAX_APPLICATIONS apps and registrations; no count is lost', async () => {
    const { proxy, bulks } = await start(60_000)
    const flood = MAX_APPLICATIONS + 200
    const names = Array.from({ length: flood }, (_, i) => `made-up-app-${i}`)
    names.push('x'.repeat(300), `${'y'.repeat(300)}-bulk-only`)
    for (let i = 0; i < names.length; i += 20) {
      await Promise.all(
        names.slice(i, i + 20).map(async (appName) => {
          const single = await ofrep(proxy, `${SINGLE}/on`, { authorization: CLIENT_KEY }, { appName })
          expect(single.status).toBe(200)
          const bulk = await ofrep(proxy, SINGLE, { authorization: CLIENT_KEY }, { appName: `bulk-${appName}` })
          expect(bulk.status).toBe(200)
          await Promise.all([single.text(), bulk.text()])
        }),
      )
    }
    const scrape = await (await fetch(proxy.at('/proxy/internal-backstage/prometheus'))).text()
    await proxy.close()

    const rows = bulkRows(bulks).filter((row) => row.featureName === 'on')
    const apps = new Set(rows.map((row) => row.appName))
    expect(apps.size).toBeLessThanOrEqual(MAX_APPLICATIONS + 1)
    expect(apps.has('x'.repeat(300))).toBe(false)
    expect(sumOf(rows, 'yes')).toBe(names.length)
    const applications = bulks.flatMap((bulk) => bulk.applications)
    expect(applications.length).toBeLessThanOrEqual(MAX_APPLICATIONS)
    expect(applications.some((app) => app.appName.length > 255)).toBe(false)
    expect(scrape).toMatch(/vexil_proxy_usage_dropped_total\{reason="registration"\} [1-9]/)
    expect(scrape).toMatch(/vexil_proxy_usage_dropped_total\{reason="unattributed"\} [1-9]/)
  }, 60_000)
})

describe('the registration an OFREP caller implies', () => {
  const app = { appName: 'checkout', instanceId: 'pod-1', environment: 'development' }

  it('is one object per app, so that a repeat is one lookup in the registration store', () => {
    const registrationOf = impliedRegistrations('backend', 30_000)
    const first = registrationOf({ ...app })
    expect(first).toEqual({
      ...app,
      sdkType: 'backend',
      sdkVersion: 'ofrep',
      strategies: [],
      started: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      interval: 30_000,
    })
    expect(registrationOf({ ...app })).toBe(first)
    expect(registrationOf({ ...app, environment: 'production' })).not.toBe(first)
    expect(registrationOf({ appName: 'checkout', instanceId: 'pod-1' })).not.toBe(first)
    expect(impliedRegistrations('frontend', 30_000)(app)?.sdkType).toBe('frontend')
  })

  it('is none without an app, or for names the usage bounds would drop', () => {
    const registrationOf = impliedRegistrations('backend', 30_000)
    expect(registrationOf(undefined)).toBeUndefined()
    expect(registrationOf({ ...app, appName: 'x'.repeat(256) })).toBeUndefined()
    expect(registrationOf({ ...app, instanceId: 'x'.repeat(256) })).toBeUndefined()
    expect(registrationOf({ ...app, environment: 'x'.repeat(256) })).toBeUndefined()
  })

  it('remembers at most MAX_APPLICATIONS apps: a flood pushes out the oldest, not every app', () => {
    const registrationOf = impliedRegistrations('backend', 30_000)
    const first = registrationOf(app)
    const second = registrationOf({ ...app, appName: 'second' })
    for (let i = 2; i < MAX_APPLICATIONS; i++) registrationOf({ ...app, appName: `made-up-${i}` })
    const newest = registrationOf({ ...app, appName: `made-up-${MAX_APPLICATIONS - 1}` })
    expect(registrationOf(app)).toBe(first)
    registrationOf({ ...app, appName: 'one-too-many' })
    const again = registrationOf(app)
    expect(again).not.toBe(first)
    expect(again).toEqual(first)
    expect(registrationOf({ ...app, appName: 'second' })).not.toBe(second)
    expect(registrationOf({ ...app, appName: `made-up-${MAX_APPLICATIONS - 1}` })).toBe(newest)
    expect(Object.isFrozen(again)).toBe(true)
  })
})

describe('the response cache holding OFREP answers', () => {
  it('counts the names of the registration an answer carries against its byte budget', () => {
    const caches = createResponseCaches({ maxEntries: 10, maxBytes: 1024 * 1024 })!
    const cache = caches.forFlagSet()
    const answer = (registration?: CachedResponse['registration']): CachedResponse => ({
      body: '{"flags":[]}',
      bytes: 12,
      etag: '"x"',
      validUntil: Number.POSITIVE_INFINITY,
      registration,
    })
    for (let i = 0; i < 2; i++) cache.set('a', answer())
    const plain = caches.bytes
    const app = { appName: 'web'.repeat(50), instanceId: 'tab-1', environment: 'development' }
    for (let i = 0; i < 2; i++) cache.set('b', answer({ ...app, strategies: [] }))
    expect(caches.bytes - plain).toBe(plain + (150 + 5 + 11) * 2)
  })
})
