// OFREP in a browser: the real @openfeature/web-sdk with @openfeature/ofrep-web-provider 0.4.3
// (npm, bundled with esbuild) in headless Chromium, on a page served from another origin than the
// proxy: CORS preflights with Authorization and If-None-Match, the exposed ETag sent back (304
// while nothing changed), values of every type, a context change, an upstream change, errors.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumAvailable, launchChromium, type LaunchedBrowser } from '@vexil/test-fixtures/chromium.ts'
import { type FakeUpstream, startFakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { bundleForBrowser, recordInto, type Seen, startPageServer } from './helpers/page-server.js'
import { startTestProxy, type TestProxy } from './helpers/proxy.js'
import { until } from './helpers/until.js'

const CLIENT_TOKEN = '*:development.browser-client-1'
const FRONTEND = '*:development.browser-front-1'
const DEFAULT = { name: 'default', parameters: {} }
const one = (name: string, type: string, value: string) => [
  { name, weight: 1000, stickiness: 'default', weightType: 'variable', payload: { type, value } },
]
const FEATURES = {
  version: 2,
  features: [
    { name: 'bool-on', enabled: true, strategies: [DEFAULT] },
    {
      name: 'pro-plan',
      enabled: true,
      strategies: [{ ...DEFAULT, constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }] }],
    },
    { name: 'copy', enabled: true, strategies: [DEFAULT], variants: one('hello', 'string', 'Hello there') },
    { name: 'limit', enabled: true, strategies: [DEFAULT], variants: one('ten', 'number', '10') },
    { name: 'theme', enabled: true, strategies: [DEFAULT], variants: one('dark', 'json', '{"background":"#000"}') },
    { name: 'typed-off', enabled: false, strategies: [DEFAULT], variants: one('x', 'string', 'never') },
  ],
  segments: [],
}

/** What the bundle puts on the page. */
interface PageGlobals {
  OF: {
    OpenFeature: {
      setProviderAndWait(provider: unknown, context?: unknown): Promise<void>
      setContext(context: unknown): Promise<void>
      getClient(): {
        getBooleanDetails(key: string, fallback: boolean): Details
        getStringDetails(key: string, fallback: string): Details
        getNumberDetails(key: string, fallback: number): Details
        getObjectDetails(key: string, fallback: object): Details
        providerStatus: string
      }
      addHandler(event: string, handler: (details?: { flagsChanged?: string[] }) => void): void
    }
    ProviderEvents: Record<string, string>
    OFREPWebProvider: new (options: unknown) => unknown
  }
  changed: string[][]
}
interface Details {
  value: unknown
  variant?: string
  reason?: string
  errorCode?: string
}

const page = (code: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>OFREP</title><script>${code}</script><script>window.changed = []</script></head><body>OFREP test page</body></html>`

describe.runIf(chromiumAvailable())(
  '@openfeature/web-sdk with the OFREP web provider in headless Chromium through the Vexil proxy',
  () => {
    let upstream: FakeUpstream
    let proxy: TestProxy
    let pages: { origin: string; close(): Promise<void> }
    let browser: LaunchedBrowser
    let tab: Page
    const seen: Seen[] = []
    const problems: string[] = []
    const bulk = () => seen.filter((s) => s.method === 'POST' && s.path === '/ofrep/v1/evaluate/flags')
    const details = (kind: 'Boolean' | 'String' | 'Number' | 'Object', key: string, fallback: unknown) =>
      tab.evaluate(
        ([k, name, f]) => {
          const client = (globalThis as unknown as PageGlobals).OF.OpenFeature.getClient() as unknown as Record<
            string,
            (name: string, fallback: unknown) => Details
          >
          return client[`get${k as string}Details`]!(name as string, f)
        },
        [kind, key, fallback] as const,
      )

    beforeAll(async () => {
      upstream = await startFakeUpstream(FEATURES)
      upstream.setValidTokens([
        { token: CLIENT_TOKEN, type: 'client', projects: ['*'], environment: 'development' },
        { token: FRONTEND, type: 'frontend', projects: ['*'], environment: 'development' },
      ])
      proxy = await startTestProxy(upstream.url, {
        tokens: [CLIENT_TOKEN],
        refreshInterval: 200,
        onRequest: recordInto(seen),
      })
      pages = await startPageServer(
        page(
          await bundleForBrowser(
            "export { OpenFeature, ProviderEvents } from '@openfeature/web-sdk'\nexport { OFREPWebProvider } from '@openfeature/ofrep-web-provider'",
            'OF',
          ),
        ),
      )
      browser = await launchChromium()
      tab = await browser.browser.newPage()
      tab.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
      tab.on('requestfailed', async (request) => {
        // A 304's (empty) body is never read, which Chromium reports as ERR_ABORTED after it arrived.
        if (request.failure()?.errorText === 'net::ERR_ABORTED' && (await request.response())?.status() === 304) return
        problems.push(`failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`)
      })
      await tab.goto(`${pages.origin}/`)
      await tab.evaluate(
        async ([baseUrl, token]) => {
          const page = globalThis as unknown as PageGlobals
          const { OpenFeature, OFREPWebProvider, ProviderEvents } = page.OF
          OpenFeature.addHandler(ProviderEvents.ConfigurationChanged!, (event) =>
            page.changed.push(event?.flagsChanged ?? []),
          )
          const provider = new OFREPWebProvider({
            baseUrl,
            headers: [['Authorization', token]],
            pollInterval: 300,
            changeDetection: 'polling',
            cacheMode: 'disabled',
          })
          await OpenFeature.setProviderAndWait(provider, { targetingKey: 'user-1', plan: 'free' })
        },
        [proxy.url, FRONTEND] as const,
      )
    })

    afterAll(async () => {
      await browser?.close()
      await pages?.close()
      await proxy?.close()
      await upstream?.close()
    })

    it('passes CORS: a preflight allowing Authorization, then the bulk evaluation from the page origin', () => {
      const preflight = seen.find((s) => s.method === 'OPTIONS' && s.path === '/ofrep/v1/evaluate/flags')
      expect(preflight).toMatchObject({ status: 204, headers: { origin: pages.origin } })
      expect(preflight!.headers['access-control-request-headers']?.split(',')).toContain('authorization')
      expect(bulk()[0]).toMatchObject({ status: 200, headers: { origin: pages.origin, authorization: FRONTEND } })
      expect(problems).toEqual([])
    })

    it('reads values of every type with variants and reasons', async () => {
      expect(await details('Boolean', 'bool-on', false)).toMatchObject({
        value: true,
        variant: 'enabled',
        reason: 'STATIC',
      })
      expect(await details('Boolean', 'pro-plan', true)).toMatchObject({ value: false, reason: 'DEFAULT' })
      expect(await details('String', 'copy', 'x')).toMatchObject({
        value: 'Hello there',
        variant: 'hello',
        reason: 'STATIC',
      })
      expect(await details('Number', 'limit', 0)).toMatchObject({ value: 10, variant: 'ten' })
      expect(await details('Object', 'theme', {})).toMatchObject({ value: { background: '#000' }, variant: 'dark' })
      // A typed flag that is off: the app's default, with the reason (OFREP's code default).
      expect(await details('String', 'typed-off', 'fallback')).toMatchObject({ value: 'fallback', reason: 'DISABLED' })
      expect(problems).toEqual([])
    })

    it('reports errors as the SDK defines them', async () => {
      expect(await details('Boolean', 'nope', true)).toMatchObject({
        value: true,
        reason: 'ERROR',
        errorCode: 'FLAG_NOT_FOUND',
      })
      expect(await details('Number', 'copy', 3)).toMatchObject({
        value: 3,
        reason: 'ERROR',
        errorCode: 'TYPE_MISMATCH',
      })
    })

    it('polls with the exposed ETag: 304 while nothing changed', async () => {
      const since = seen.length
      await until(
        () => seen.slice(since).some((s) => s.path === '/ofrep/v1/evaluate/flags' && s.status === 304),
        'a 304 to the browser',
      )
      const polls = seen.slice(since).filter((s) => s.method === 'POST' && s.path === '/ofrep/v1/evaluate/flags')
      expect(polls.every((s) => s.status === 304 && /^"[0-9a-f]+-/.test(String(s.headers['if-none-match'])))).toBe(true)
    })

    it('a context change with the same targetingKey re-evaluates (no stale 304)', async () => {
      const since = seen.length
      await tab.evaluate(() =>
        (globalThis as unknown as PageGlobals).OF.OpenFeature.setContext({ targetingKey: 'user-1', plan: 'pro' }),
      )
      expect(await details('Boolean', 'pro-plan', false)).toMatchObject({ value: true, reason: 'TARGETING_MATCH' })
      expect(
        seen.slice(since).find((s) => s.method === 'POST' && s.status === 200)?.headers['if-none-match'],
      ).toBeDefined()
    })

    it('sees an upstream change at the next poll, with the changed flags named', async () => {
      upstream.setFeatures({
        ...FEATURES,
        features: FEATURES.features.map((f) =>
          f.name === 'copy' ? { ...f, variants: one('bye', 'string', 'Goodbye') } : f,
        ),
      })
      await until(
        async () => (await details('String', 'copy', 'x')).value === 'Goodbye',
        'the browser to see the change',
      )
      expect(await tab.evaluate(() => (globalThis as unknown as PageGlobals).changed.flat())).toContain('copy')
      expect(problems).toEqual([])
    })

    it('a key the proxy refuses makes the provider fatal, every value the default', async () => {
      const outcome = await tab.evaluate(async (baseUrl) => {
        const { OpenFeature, OFREPWebProvider } = (globalThis as unknown as PageGlobals).OF
        const sdk = OpenFeature as unknown as {
          setProviderAndWait(domain: string, provider: unknown): Promise<void>
          getClient(domain: string): { getBooleanDetails(k: string, d: boolean): Details; providerStatus: string }
        }
        let error = ''
        try {
          await sdk.setProviderAndWait(
            'refused',
            new OFREPWebProvider({ baseUrl, headers: [['Authorization', 'wrong-key']], cacheMode: 'disabled' }),
          )
        } catch (e) {
          error = String(e)
        }
        const client = sdk.getClient('refused')
        return { error, status: client.providerStatus, details: client.getBooleanDetails('bool-on', false) }
      }, proxy.url)
      expect(outcome.error).not.toBe('')
      expect(outcome.status).toBe('FATAL')
      expect(outcome.details).toMatchObject({ value: false, reason: 'ERROR', errorCode: 'PROVIDER_FATAL' })
    })
  },
)
