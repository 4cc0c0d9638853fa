// Usage per app behind a proxy: each SDK's counts and registration kept under its own name and
// forwarded in Unleash's bulk form, and every structure a caller grows bounded (flood tests).
import { describe, expect, it } from 'vitest'
import {
  createUsageAggregator,
  createUsageReporter,
  MAX_UNKNOWN_FLAGS,
  type MetricsBucket,
  splitBucket,
} from '@vexil/sync'
import {
  MAX_APP_COUNT_BYTES,
  MAX_APPLICATION_BYTES,
  MAX_APPLICATIONS,
  MAX_APPS,
  MAX_CONNECT_VIA,
} from '../src/usage/app-limits.js'
import { bulkBody, flattenBucket } from '../src/usage/bulk-body.js'

const KNOWN = new Set(['disabled', 'blue'])
const aggregator = () =>
  createUsageAggregator({
    countedVariants: (name) => (name.startsWith('flag') ? KNOWN : undefined),
    now: () => new Date(0),
  })
const web = { appName: 'web', instanceId: 'browser-1', environment: 'production' }
const api = { appName: 'api', instanceId: 'pod-1' }
const yesOf = (bucket: MetricsBucket | undefined, name: string) =>
  (bucket?.toggles[name]?.yes ?? 0) + (bucket?.apps ?? []).reduce((n, app) => n + (app.toggles[name]?.yes ?? 0), 0)

describe('usage per app', () => {
  it('keeps each app its own counts and registrations, and the proxy its own', () => {
    const usage = aggregator()
    usage.count('flag-a', true)
    usage.merge({ 'flag-a': { yes: 2, variants: { blue: 2 } } }, web)
    usage.merge({ 'flag-a': { no: 3 } }, api)
    usage.register({
      ...api,
      sdkVersion: 'unleash-client-node:6.0.0',
      strategies: ['default'],
      interval: 15000,
      started: '2026-01-01T00:00:00.000Z',
    })
    const bucket = usage.take(new Date(1000))
    expect(bucket).toEqual({
      start: '1970-01-01T00:00:00.000Z',
      stop: '1970-01-01T00:00:01.000Z',
      toggles: { 'flag-a': { yes: 1, no: 0, variants: {} } },
      apps: [
        { ...web, toggles: { 'flag-a': { yes: 2, no: 0, variants: { blue: 2 } } } },
        { ...api, toggles: { 'flag-a': { yes: 0, no: 3, variants: {} } } },
      ],
      applications: [
        {
          ...api,
          sdkVersion: 'unleash-client-node:6.0.0',
          strategies: ['default'],
          interval: 15000,
          started: '2026-01-01T00:00:00.000Z',
        },
      ],
    })
    expect(usage.isEmpty).toBe(true)
  })

  it('an implied registration never replaces a posted one', () => {
    const usage = aggregator()
    usage.register({ ...web, sdkVersion: 'unleash-client-js:3.0.0', sdkType: 'frontend', strategies: [] })
    usage.register({ ...web, sdkVersion: 'unknown', sdkType: 'frontend', strategies: [] }, true)
    expect(usage.take(new Date(1))?.applications).toEqual([
      { ...web, sdkVersion: 'unleash-client-js:3.0.0', sdkType: 'frontend', strategies: [] },
    ])
  })

  it('counts at most 1,000 unknown names per bucket, by name only, and drops long ones', () => {
    const usage = aggregator()
    const flood = Object.fromEntries(
      Array.from({ length: 3_000 }, (_, i) => [`made-up-${i}`, { yes: 1, variants: { v: 1 } }]),
    )
    usage.merge(flood, web)
    usage.merge({ ['x'.repeat(256)]: { yes: 1 }, 'made-up-0': { yes: 1 } })
    const bucket = usage.take(new Date(1))!
    const names = [...Object.keys(bucket.toggles), ...bucket.apps!.flatMap((app) => Object.keys(app.toggles))]
    expect(new Set(names).size).toBe(MAX_UNKNOWN_FLAGS)
    expect(bucket.apps![0]!.toggles['made-up-0']).toEqual({ yes: 1, no: 0, variants: {} })
    expect(usage.dropped.unknownFlags).toBe(3_000 - MAX_UNKNOWN_FLAGS + 1)
    usage.merge({ 'made-up-2999': { yes: 1 } })
    expect(Object.keys(usage.take(new Date(2))!.toggles)).toEqual(['made-up-2999'])
  })

  it('a flood of apps costs at most MAX_APPS apps; further counts are kept as the proxy own', () => {
    const usage = aggregator()
    for (let i = 0; i < 3 * MAX_APPS; i++)
      usage.merge({ 'flag-a': { yes: 1 } }, { appName: `app-${i}`, instanceId: 'i' })
    usage.merge({ 'flag-a': { yes: 1 } }, { appName: 'x'.repeat(256), instanceId: 'i' })
    const bucket = usage.take(new Date(1))!
    expect(bucket.apps).toHaveLength(MAX_APPS)
    expect(yesOf(bucket, 'flag-a')).toBe(3 * MAX_APPS + 1)
    expect(usage.dropped.unattributed).toBe(2 * MAX_APPS + 1)
  })

  it('a flood of flags across apps costs at most MAX_APP_COUNT_BYTES, and no count is lost', () => {
    const usage = aggregator()
    const flags = Object.fromEntries(
      Array.from({ length: 1_000 }, (_, i) => [`flag-${String(i).padStart(40, '0')}`, { yes: 1 }]),
    )
    for (let i = 0; i < 200; i++) usage.merge(flags, { appName: `app-${i}`, instanceId: 'i' })
    const bucket = usage.take(new Date(1))!
    const appBytes = JSON.stringify(bucket.apps).length
    expect(appBytes).toBeLessThan(MAX_APP_COUNT_BYTES * 1.5)
    expect(yesOf(bucket, `flag-${'0'.repeat(40)}`)).toBe(200)
    expect(usage.dropped.unattributed).toBeGreaterThan(0)
  })

  it('a flood of registrations costs at most MAX_APPLICATIONS and MAX_APPLICATION_BYTES', () => {
    const usage = aggregator()
    const strategies = Array.from({ length: 500 }, (_, i) => `strategy-${i}`.padEnd(200, '-'))
    for (let i = 0; i < 5_000; i++) usage.register({ appName: `app-${i}`, instanceId: 'i', strategies })
    for (let i = 0; i < 5_000; i++) usage.register({ appName: `small-${i}`, instanceId: 'i', strategies: [] })
    const applications = usage.take(new Date(1))!.applications!
    expect(applications.length).toBeLessThanOrEqual(MAX_APPLICATIONS)
    expect(JSON.stringify(applications).length).toBeLessThanOrEqual(MAX_APPLICATION_BYTES + applications.length)
    expect(usage.dropped.registrations).toBe(10_000 - applications.length)
  })

  it('keeps at most MAX_CONNECT_VIA proxies of a chain, nearest the SDK first, and none with a long name', () => {
    const usage = aggregator()
    const chain = Array.from({ length: 100 }, (_, i) => ({ appName: `proxy-${i}`, instanceId: 'i' }))
    chain.splice(1, 0, { appName: 'x'.repeat(300), instanceId: 'i' })
    usage.register({ ...api, strategies: [], connectVia: chain })
    const [registration] = usage.take(new Date(1))!.applications!
    expect(registration!.connectVia).toHaveLength(MAX_CONNECT_VIA)
    expect(registration!.connectVia![0]).toEqual({ appName: 'proxy-0', instanceId: 'i' })
    expect(registration!.connectVia![1]).toEqual({ appName: 'proxy-1', instanceId: 'i' })
    expect(
      bulkBody(
        { start: '', stop: '', toggles: {}, applications: [registration!] },
        {
          appName: 'vexil',
          instanceId: 'proxy-1',
          environment: 'development',
        },
      ).applications[0]!.connectVia.at(-1),
    ).toEqual({ appName: 'vexil', instanceId: 'proxy-1' })
  })

  it('counts handed from one aggregator to another (a worker to the primary) are there once', () => {
    const worker = aggregator()
    const primary = aggregator()
    worker.merge({ 'flag-a': { yes: 2 } }, web)
    worker.register({ ...api, strategies: ['default'] })
    primary.merge({ 'flag-a': { yes: 1 } }, web)
    primary.restore(worker.take(new Date(1))!)
    expect(worker.take(new Date(2))).toBeUndefined()
    const bucket = primary.take(new Date(2))!
    expect(bucket.apps).toEqual([{ ...web, toggles: { 'flag-a': { yes: 3, no: 0, variants: {} } } }])
    expect(bucket.applications).toEqual([{ ...api, strategies: ['default'] }])
  })
})

describe('bulk metrics', () => {
  const bucket: MetricsBucket = {
    start: '2026-01-01T00:00:00.000Z',
    stop: '2026-01-01T00:01:00.000Z',
    toggles: { 'flag-a': { yes: 1, no: 0, variants: {} } },
    apps: [{ ...web, toggles: { 'flag-a': { yes: 2, no: 1, variants: { blue: 2 } } } }],
    applications: [{ ...api, sdkVersion: 'unleash-client-node:6.0.0', strategies: ['default'], interval: 15000 }],
  }

  it('writes every app row under its own name, in the reporting token environment', () => {
    expect(bulkBody(bucket, { appName: 'vexil', instanceId: 'proxy-1', environment: 'development' })).toEqual({
      applications: [
        {
          ...api,
          environment: 'development',
          sdkVersion: 'unleash-client-node:6.0.0',
          strategies: ['default'],
          interval: 15000,
          connectVia: [{ appName: 'vexil', instanceId: 'proxy-1' }],
        },
      ],
      metrics: [
        {
          featureName: 'flag-a',
          appName: 'vexil',
          instanceId: 'proxy-1',
          environment: 'development',
          timestamp: bucket.start,
          yes: 1,
          no: 0,
          variants: {},
        },
        {
          featureName: 'flag-a',
          appName: 'web',
          instanceId: 'browser-1',
          environment: 'development',
          timestamp: bucket.start,
          yes: 2,
          no: 1,
          variants: { blue: 2 },
        },
      ],
    })
  })

  it('folds every app into the proxy own counts for an upstream without bulk', () => {
    expect(flattenBucket(bucket)).toEqual({
      start: bucket.start,
      stop: bucket.stop,
      toggles: { 'flag-a': { yes: 3, no: 1, variants: { blue: 2 } } },
    })
  })

  it('splits apps and registrations under the limit, each row once', () => {
    const usage = aggregator()
    for (let i = 0; i < 300; i++)
      usage.merge({ [`flag-${i}`]: { yes: 1 } }, { appName: `app-${i % 7}`, instanceId: 'i' })
    for (let i = 0; i < 50; i++) usage.register({ appName: `app-${i}`, instanceId: 'i', strategies: ['default'] })
    const whole = usage.take(new Date(1))!
    const parts = splitBucket(whole, 8 * 1024)
    expect(parts.length).toBeGreaterThan(1)
    const reporter = { appName: 'x'.repeat(255), instanceId: 'y'.repeat(255), environment: 'development' }
    for (const part of parts) expect(JSON.stringify(bulkBody(part, reporter)).length).toBeLessThanOrEqual(8 * 1024)
    expect(parts.flatMap((part) => part.applications ?? [])).toEqual(whole.applications)
    expect(parts.reduce((n, part) => n + yesOf(part, 'flag-299'), 0)).toBe(1)
    expect(parts.flatMap((part) => (part.apps ?? []).flatMap((app) => Object.keys(app.toggles))).sort()).toEqual(
      whole.apps!.flatMap((app) => Object.keys(app.toggles)).sort(),
    )
  })

  it('falls back to the plain metrics of the proxy itself when the upstream answers 404 to bulk, and says so once', async () => {
    const usage = aggregator()
    const sent: string[] = []
    const logged: string[] = []
    const upstream = {
      register: async () => ({ status: 202 }),
      sendBulk: async () => (sent.push('bulk'), { status: 404 }),
      sendMetrics: async (part: MetricsBucket) => (sent.push(JSON.stringify(part.toggles)), { status: 202 }),
    }
    const logger = {
      debug: () => undefined,
      info: (m: string) => logged.push(m),
      warn: () => undefined,
      error: () => undefined,
    }
    const reporter = createUsageReporter({
      upstream,
      aggregator: usage,
      logger,
      perApp: true,
      interval: 60_000,
      jitter: 0,
    })
    usage.merge({ 'flag-a': { yes: 2 } }, web)
    await reporter.flush()
    usage.merge({ 'flag-a': { yes: 1 } }, web)
    await reporter.flush()
    expect(sent).toEqual([
      'bulk',
      '{"flag-a":{"yes":2,"no":0,"variants":{}}}',
      '{"flag-a":{"yes":1,"no":0,"variants":{}}}',
    ])
    expect(logged).toHaveLength(1)
  })

  it('an SDK reporter (no perApp) sends its own counts plain, never bulk', async () => {
    const usage = aggregator()
    const sent: string[] = []
    const upstream = {
      register: async () => ({ status: 202 }),
      sendBulk: async () => (sent.push('bulk'), { status: 202 }),
      sendMetrics: async () => (sent.push('plain'), { status: 202 }),
    }
    const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined }
    usage.count('flag-a', true)
    await createUsageReporter({ upstream, aggregator: usage, logger, interval: 60_000, jitter: 0 }).flush()
    expect(sent).toEqual(['plain'])
  })
})
