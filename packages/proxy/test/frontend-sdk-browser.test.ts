// The real frontend SDK (unleash-proxy-client from npm, bundled for the browser with esbuild) in
// real headless Chromium, on a page served from another origin than the proxy, so CORS is
// exercised for real: preflights carrying Authorization, the ETag exposed to the SDK (it sends
// it back as If-None-Match), then flags, variants, an upstream change and usage metrics.
import { isDeepStrictEqual } from 'node:util'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumAvailable, launchChromium, type LaunchedBrowser } from '@vexil/test-fixtures/chromium.ts'
import { startFakeUpstream, type FakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { bundleForBrowser, recordInto, type Seen, startPageServer } from './helpers/page-server.js'
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

/** What the page holds: the SDK's client, built by the bundle and the inline script. */
interface PageGlobals {
  client: {
    start(): Promise<void>
    stop(): void
    updateContext(context: unknown): Promise<void>
    isEnabled(name: string): boolean
    getVariant(name: string): {
      name: string
      enabled: boolean
      feature_enabled?: boolean
      payload?: { type: string; value: string }
    }
    getAllToggles(): Array<{ name: string; enabled: boolean }>
    isReady(): boolean
    sendMetrics(): Promise<void>
  }
}

function page(sdk: string, proxyUrl: string): string {
  const options = {
    url: `${proxyUrl}/proxy`,
    clientKey: CLIENT_KEY,
    appName: 'sdk-browser-test',
    refreshInterval: 1,
    metricsInterval: 1,
    metricsIntervalInitial: 1,
  }
  return `<!doctype html><html><head><meta charset="utf-8"><title>SDK</title>
<script>${sdk}</script>
<script>window.client = new UnleashSdk.UnleashClient(${JSON.stringify(options)})</script>
</head><body>SDK test page</body></html>`
}

describe.runIf(chromiumAvailable())('unleash-proxy-client in headless Chromium through the Vexil proxy', () => {
  let upstream: FakeUpstream
  let proxy: TestProxy
  let pages: { origin: string; close(): Promise<void> }
  let browser: LaunchedBrowser
  let tab: Page
  const seen: Seen[] = []
  const problems: string[] = []
  const tally = createTally()

  const isEnabled = async (name: string) => {
    const enabled = await tab.evaluate((n) => (globalThis as unknown as PageGlobals).client.isEnabled(n), name)
    tally.enabled(name, enabled)
    return enabled
  }
  const getVariant = async (name: string) => {
    const variant = await tab.evaluate((n) => (globalThis as unknown as PageGlobals).client.getVariant(n), name)
    tally.variant(name, variant.feature_enabled ?? false, variant.name)
    return variant
  }
  const holds = (name: string) =>
    tab.evaluate(
      (n) => (globalThis as unknown as PageGlobals).client.getAllToggles().find((t) => t.name === n)?.enabled ?? false,
      name,
    )
  const evaluations = () => seen.filter((s) => s.method === 'GET' && s.path.startsWith('/proxy?'))

  beforeAll(async () => {
    upstream = await startFakeUpstream(sdkFlags())
    proxy = await startTestProxy(upstream.url, {
      refreshInterval: 200,
      metricsInterval: 300,
      onRequest: recordInto(seen),
    })
    pages = await startPageServer(
      page(await bundleForBrowser("export { UnleashClient } from 'unleash-proxy-client'", 'UnleashSdk'), proxy.url),
    )
    browser = await launchChromium()
    tab = await browser.browser.newPage()
    tab.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    tab.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`console ${message.type()}: ${message.text()}`)
    })
    tab.on('requestfailed', async (request) => {
      // The SDK never reads the (empty) body of a 304, and Chromium reports a response whose body
      // nobody read as ERR_ABORTED, even after it arrived in full (a plain fetch of any 304 does
      // the same). A 304 that arrived is not a failure.
      if (request.failure()?.errorText === 'net::ERR_ABORTED' && (await request.response())?.status() === 304) return
      problems.push(`failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`)
    })
    tab.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`)
    })
    await tab.goto(`${pages.origin}/`)
    await tab.evaluate(() => (globalThis as unknown as PageGlobals).client.start())
  })

  afterAll(async () => {
    await browser?.close()
    await pages?.close()
    await proxy?.close()
    await upstream?.close()
  })

  // Chromium skips its preflight cache for `cache: 'no-cache'` fetches, which the SDK makes, so
  // every poll is preflighted whatever Access-Control-Max-Age says (a plain page does the same).
  it('passes CORS: a preflight with Authorization, then GET /proxy from the page origin', async () => {
    expect(await tab.evaluate(() => (globalThis as unknown as PageGlobals).client.isReady())).toBe(true)
    const preflight = seen.find((s) => s.method === 'OPTIONS' && s.path.startsWith('/proxy?'))
    expect(preflight).toBeDefined()
    expect(preflight!.status).toBe(204)
    expect(preflight!.headers.origin).toBe(pages.origin)
    expect(preflight!.headers['access-control-request-headers']?.split(',')).toContain('authorization')
    const first = evaluations()[0]!
    expect(first).toMatchObject({ status: 200, headers: { origin: pages.origin, authorization: CLIENT_KEY } })
    expect(problems).toEqual([])
  })

  it('reads flags and variants (with payloads) for the context it sets', async () => {
    expect(await isEnabled('sdk.vip')).toBe(false)
    await tab.evaluate((context) => (globalThis as unknown as PageGlobals).client.updateContext(context), SDK_CONTEXT)
    const query = new URLSearchParams(evaluations().at(-1)!.path.split('?')[1])
    expect(Object.fromEntries(query)).toMatchObject({
      appName: 'sdk-browser-test',
      userId: 'vip-7731',
      'properties[region]': 'nordics-4410',
    })
    expect(await isEnabled('sdk.always')).toBe(true)
    expect(await isEnabled('sdk.vip')).toBe(true)
    expect(await isEnabled('sdk.region')).toBe(true)
    expect(await isEnabled('sdk.later')).toBe(false)
    expect(await getVariant('sdk.checkout')).toEqual({
      name: 'blue',
      enabled: true,
      feature_enabled: true,
      featureEnabled: true,
      payload: { type: 'json', value: '{"color":"blue","size":3}' },
    })
    expect(problems).toEqual([])
  })

  it('sends the exposed ETag back: 304 while nothing changed, 200 after an upstream change', async () => {
    const etag = evaluations().at(-1)!
    const since = seen.length
    await until(
      () => seen.slice(since).some((s) => s.path.startsWith('/proxy?') && s.status === 304),
      'a 304 to the browser',
    )
    const revalidations = seen.slice(since).filter((s) => s.method === 'GET' && s.path.startsWith('/proxy?'))
    expect(revalidations.length).toBeGreaterThan(0)
    // The SDK can only send the ETag back if CORS exposed it to the page.
    expect(revalidations.every((s) => s.headers['if-none-match'] !== undefined && s.status === 304)).toBe(true)
    expect(etag.status).toBe(200)

    upstream.setFeatures(changedSdkFlags())
    await until(() => holds('sdk.later'), 'the browser SDK to see the upstream change')
    const changed = evaluations()
      .filter((s) => s.status === 200)
      .at(-1)!
    expect(changed.headers['if-none-match']).toBe(revalidations[0]!.headers['if-none-match'])
    expect(await isEnabled('sdk.later')).toBe(true)
    expect(await isEnabled('sdk.always')).toBe(false)
    expect(await getVariant('sdk.checkout')).toMatchObject({ name: 'green', payload: { type: 'string', value: 'go' } })
    expect(problems).toEqual([])
  })

  it('its usage metrics reach the upstream through the proxy', async () => {
    await tab.evaluate(async () => {
      const sdk = (globalThis as unknown as PageGlobals).client
      sdk.stop()
      await sdk.sendMetrics()
    })
    const posted = seen.filter((s) => s.path === '/proxy/client/metrics')
    expect(posted.some((s) => s.method === 'OPTIONS' && s.status === 204)).toBe(true)
    expect(posted.filter((s) => s.method === 'POST').map((s) => s.status)).toEqual(expect.arrayContaining([200]))
    expect(
      posted.filter((s) => s.method === 'POST').every((s) => s.status === 200 && s.headers.origin === pages.origin),
    ).toBe(true)
    const delivered = () => sumMetrics(upstream.requestsTo('/client/metrics').map((r) => r.body))
    const expected = forwardedCounts(tally.counts)
    await until(() => isDeepStrictEqual(delivered(), expected), `the upstream to receive ${JSON.stringify(expected)}`)
    expect(delivered()).toEqual(expected)
    expect(problems).toEqual([])
  })
})
