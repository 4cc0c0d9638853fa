// The real frontend SDK (unleash-proxy-client from npm) in Node against a real Vexil proxy and a
// fake upstream: it reads flags and variants for its context, revalidates with its ETag (304
// while nothing changed, 200 after an upstream change), and its usage metrics reach the
// upstream through the proxy.
import { isDeepStrictEqual } from 'node:util'
import { InMemoryStorageProvider, UnleashClient } from 'unleash-proxy-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeUpstream, type FakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { until } from './helpers/until.js'
import { CLIENT_KEY, startTestProxy, type TestProxy } from './helpers/proxy.js'
import {
  changedSdkFlags,
  createTally,
  forwardedCounts,
  SDK_CONTEXT,
  sdkFlags,
  sumMetrics,
} from './helpers/sdk-flags.js'

interface Call {
  method: string
  path: string
  query: URLSearchParams
  ifNoneMatch: string | undefined
  status: number
  etag: string | null
  at: number
}

let upstream: FakeUpstream
let proxy: TestProxy
let client: UnleashClient
const calls: Call[] = []
const errors: unknown[] = []
const tally = createTally()

/** The SDK's `fetch` option: Node 20's fetch, recording what the SDK sent and got. */
const recordingFetch = async (url: string, init: RequestInit = {}): Promise<Response> => {
  const response = await fetch(url, init)
  const headers = (init.headers ?? {}) as Record<string, string>
  calls.push({
    method: init.method ?? 'GET',
    path: new URL(url).pathname,
    query: new URL(url).searchParams,
    ifNoneMatch: headers['if-none-match'],
    status: response.status,
    etag: response.headers.get('etag'),
    at: Date.now(),
  })
  return response
}
const evaluations = () => calls.filter((c) => c.path === '/proxy')

/** Reads a flag as an app does, counting it as the SDK will. */
function isEnabled(name: string): boolean {
  const enabled = client.isEnabled(name)
  tally.enabled(name, enabled)
  return enabled
}
function getVariant(name: string) {
  const variant = client.getVariant(name)
  tally.variant(name, variant.feature_enabled ?? false, variant.name)
  return variant
}
/** The toggles the SDK holds, read without counting. */
const holds = (name: string) => client.getAllToggles().find((t) => t.name === name)

beforeAll(async () => {
  upstream = await startFakeUpstream(sdkFlags())
  proxy = await startTestProxy(upstream.url, { refreshInterval: 200, metricsInterval: 300 })
  client = new UnleashClient({
    url: proxy.at('/proxy'),
    clientKey: CLIENT_KEY,
    appName: 'sdk-node-test',
    refreshInterval: 1,
    metricsInterval: 1,
    metricsIntervalInitial: 1,
    storageProvider: new InMemoryStorageProvider(),
    fetch: recordingFetch,
  })
  client.on('error', (error: unknown) => errors.push(error))
  await client.start()
})
afterAll(async () => {
  client?.stop()
  await proxy?.close()
  await upstream?.close()
})

describe('unleash-proxy-client in Node through the Vexil proxy', () => {
  it('reads flags and variants (with payloads) for the context it sets', async () => {
    expect(client.isReady()).toBe(true)
    // Before the context is set, the targeted flags are off.
    expect(isEnabled('sdk.always')).toBe(true)
    expect(isEnabled('sdk.vip')).toBe(false)
    await client.updateContext(SDK_CONTEXT)
    expect(isEnabled('sdk.vip')).toBe(true)
    expect(isEnabled('sdk.region')).toBe(true)
    expect(isEnabled('sdk.later')).toBe(false)
    expect(isEnabled('sdk.unknown')).toBe(false)
    expect(getVariant('sdk.checkout')).toEqual({
      name: 'blue',
      enabled: true,
      feature_enabled: true,
      featureEnabled: true,
      payload: { type: 'json', value: '{"color":"blue","size":3}' },
    })
    expect(JSON.parse(getVariant('sdk.checkout').payload!.value)).toEqual({ color: 'blue', size: 3 })
    expect(getVariant('sdk.vip')).toMatchObject({ name: 'disabled', enabled: false, feature_enabled: true })
    // The context went out as query parameters, the client key in Authorization.
    const last = evaluations().at(-1)!
    expect(last).toMatchObject({ method: 'GET', status: 200 })
    expect(Object.fromEntries(last.query)).toMatchObject({
      appName: 'sdk-node-test',
      userId: 'vip-7731',
      'properties[region]': 'nordics-4410',
    })
    expect(errors).toEqual([])
  })

  it('revalidates with If-None-Match: 304 while nothing changed, 200 after the upstream changed', async () => {
    const etag = evaluations().at(-1)!.etag!
    expect(etag).toMatch(/^W\//)
    const since = calls.length
    await until(() => calls.slice(since).some((c) => c.path === '/proxy' && c.status === 304), 'a 304 to the SDK')
    const unchanged = calls.slice(since).filter((c) => c.path === '/proxy')
    expect(unchanged.every((c) => c.ifNoneMatch === etag && c.status === 304)).toBe(true)

    upstream.setFeatures(changedSdkFlags())
    await until(() => holds('sdk.later')?.enabled === true, 'the SDK to see the upstream change')
    const changed = evaluations().find((c) => c.at >= unchanged.at(-1)!.at && c.status === 200)!
    expect(changed.ifNoneMatch).toBe(etag)
    expect(changed.etag).not.toBe(etag)
    // The proxy polled with its own ETag too: 304s from the fake upstream, then the 200.
    expect(upstream.requestsTo('/client/features').some((r) => r.headers['if-none-match'])).toBe(true)

    expect(isEnabled('sdk.later')).toBe(true)
    expect(isEnabled('sdk.always')).toBe(false)
    expect(getVariant('sdk.checkout')).toEqual({
      name: 'green',
      enabled: true,
      feature_enabled: true,
      featureEnabled: true,
      payload: { type: 'string', value: 'go' },
    })
    // And 304 again once it holds the new state.
    const after = calls.length
    await until(
      () => calls.slice(after).some((c) => c.path === '/proxy' && c.status === 304 && c.ifNoneMatch === changed.etag),
      'a 304 for the new ETag',
    )
    expect(errors).toEqual([])
  })

  it("its usage metrics reach the upstream through the proxy, in the proxy's bucket", async () => {
    client.stop()
    await client.sendMetrics()
    const posted = calls.filter((c) => c.path === '/proxy/client/metrics')
    expect(posted.length).toBeGreaterThan(0)
    expect(posted.every((c) => c.method === 'POST' && c.status === 200)).toBe(true)

    // The SDK counted sdk.unknown; the proxy forwards it as an unknown flag, by name only.
    expect(tally.counts['sdk.unknown']).toEqual({ yes: 0, no: 1, variants: {} })
    const expected = forwardedCounts(tally.counts)
    expect(expected['sdk.unknown']).toEqual({ yes: 0, no: 1, variants: {} })
    const delivered = () => sumMetrics(upstream.requestsTo('/client/metrics').map((r) => r.body))
    await until(() => isDeepStrictEqual(delivered(), expected), `the upstream to receive ${JSON.stringify(expected)}`)
    expect(delivered()).toEqual(expected)
    expect(expected['sdk.checkout']).toEqual({ yes: 3, no: 0, variants: { blue: 2, green: 1 } })
    const body = JSON.parse(upstream.requestsTo('/client/metrics').at(-1)!.body)
    expect(body).toMatchObject({ appName: 'service-proxy' })
    expect(errors).toEqual([])
  })
})
