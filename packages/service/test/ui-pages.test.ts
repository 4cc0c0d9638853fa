// Every page of the admin UI (the routes of ui/src/app.tsx) in real headless Chromium at 1280 and
// 390 px: each renders its heading with no sideways scroll of the document, no spinner left
// turning, no error note and no console error. Then the same pages while the admin API is down
// (its requests failed by Playwright's routing): each says so beside a "Try again" that, once the
// API is back, loads the page in place, with no spinner left turning and no reload.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumAvailable, launchChromium, type LaunchedBrowser } from '@vexil/test-fixtures/chromium.ts'
import {
  DESKTOP,
  expectNoHorizontalScroll,
  MOBILE,
  openPage,
  requireBuiltUi,
  screenshot,
  sendSignal,
  signIn,
  startUiService,
  type UiService,
} from './helpers/ui.js'

interface Ids {
  strategy: string
  segment: number
  endpoint: number
  set: number
}

/** Each page of the router with an address that shows something (the demo, and what beforeAll adds). */
const pages = (ids: Ids): [name: string, path: string][] => [
  ['flags', '/flags?project=demo'],
  ['new-flag', '/flags/new?project=demo'],
  ['flag', '/projects/demo/flags/new-checkout'],
  ['strategy-new', '/projects/demo/flags/new-checkout/strategies/development/new'],
  ['strategy-edit', `/projects/demo/flags/new-checkout/strategies/development/${ids.strategy}/edit`],
  ['segments', '/segments'],
  ['segment-new', '/segments/new'],
  ['segment-edit', `/segments/${ids.segment}/edit`],
  ['playground', '/playground'],
  ['signal-endpoints', '/integrations/signal-endpoints'],
  ['signal-endpoint', `/integrations/signal-endpoints/${ids.endpoint}`],
  ['actions', '/actions?project=demo'],
  ['action-set-new', '/actions/demo/new'],
  ['action-set-edit', `/actions/demo/${ids.set}/edit`],
  ['action-set-runs', `/actions/demo/${ids.set}/runs`],
  ['insights', '/insights'],
  ['api-tokens', '/api-tokens'],
  ['projects', '/projects'],
  ['environments', '/environments'],
  ['archive', '/archive'],
  ['not-found', '/no-such-page'],
]

/** The page has settled: its heading shown and no spinner turning (a stuck one fails here). */
async function settled(page: Page, name: string, heading = true): Promise<void> {
  if (heading) await page.locator('main h1').waitFor()
  await expect
    .poll(() => page.locator('.spinner').count(), { timeout: 8_000, message: `${name}: a spinner keeps turning` })
    .toBe(0)
}

describe.runIf(chromiumAvailable())('every page of the admin UI in headless Chromium', () => {
  let ui: UiService
  let browser: LaunchedBrowser
  let ids: Ids

  beforeAll(async () => {
    requireBuiltUi()
    ui = await startUiService()
    browser = await launchChromium()
    const flag = await ui.api('GET', '/api/admin/projects/demo/features/new-checkout')
    const development = flag.environments.find((e: { name: string }) => e.name === 'development')
    const { segments } = await ui.api('GET', '/api/admin/segments')
    const endpoint = await ui.api('POST', '/api/admin/signal-endpoints', { name: 'pages-alerts' })
    const token = await ui.api('POST', `/api/admin/signal-endpoints/${endpoint.id}/tokens`, { name: 'pages' })
    const set = await ui.api('POST', '/api/admin/projects/demo/actions', {
      name: 'turn upsell off on critical alerts',
      match: {
        source: 'signal-endpoint',
        sourceId: endpoint.id,
        payload: { 'alert.severity': { operator: 'IN', values: ['critical'] } },
      },
      actions: [
        {
          action: 'TOGGLE_FEATURE_OFF',
          executionParams: { project: 'demo', environment: 'development', featureName: 'checkout-upsell' },
        },
      ],
    })
    await sendSignal(ui.url, 'pages-alerts', token.token, { alert: { severity: 'critical' } })
    // As `vexil start` tells the service of its proxy: the API tokens page shows both.
    ui.service.announceProxy({ url: 'http://127.0.0.1:3000', clientKey: 'proxy-demo-client-key' })
    ids = { strategy: development.strategies[0].id, segment: segments[0].id, endpoint: endpoint.id, set: set.id }
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await ui?.close()
  })

  it.each([
    ['1280', DESKTOP],
    ['390', MOBILE],
  ] as const)(
    'at %s px each page settles with no sideways scroll, no error note and no console error',
    async (width, viewport) => {
      const { page, problems } = await openPage(browser.browser, ui.url, viewport)
      await signIn(page, ui.url, ui.adminToken)
      for (const [name, path] of pages(ids)) {
        await page.goto(`${ui.url}${path}`)
        await settled(page, name)
        expect(await page.locator('.error-note').allInnerTexts(), `${name}: an error note`).toEqual([])
        await expectNoHorizontalScroll(page)
        // The menu shows every item (it wraps on a phone): nothing hidden sideways in it either.
        const menu = await page.locator('nav.nav').evaluate((nav) => nav.scrollWidth - nav.clientWidth)
        expect(menu, `${name}: the menu scrolls sideways`).toBeLessThanOrEqual(0)
        await screenshot(page, `pages-${name}-${width}`)
      }
      expect(problems).toEqual([])
      await page.context().close()
    },
    120_000,
  )

  it('with the admin API down, each page says so beside a Try again that loads it in place', async () => {
    const { page } = await openPage(browser.browser, ui.url, DESKTOP)
    await signIn(page, ui.url, ui.adminToken)
    // The session check stays up: what is down is every load a page makes.
    const down = (url: URL) => url.pathname.startsWith('/api/admin/') && url.pathname !== '/api/admin/user'
    for (const [name, path] of pages(ids)) {
      if (name === 'not-found') continue
      await page.route(down, (route) => route.abort('connectionrefused'))
      await page.goto(`${ui.url}${path}`)
      const retry = page.getByRole('alert').getByRole('button', { name: 'Try again' }).first()
      await retry.waitFor({ timeout: 5_000 }).catch(() => {
        throw new Error(`${name}: no Try again while the API is down`)
      })
      await settled(page, name, false)
      expect(await page.getByRole('alert').first().innerText(), name).toContain('No connection')
      if (name === 'flags') await screenshot(page, 'pages-flags-outage-1280')

      await page.unroute(down)
      for (let i = 0; i < 8 && (await page.getByRole('alert').count()) > 0; i++) {
        await page.getByRole('alert').getByRole('button', { name: 'Try again' }).first().click()
        await page.waitForTimeout(100)
      }
      await settled(page, name)
      expect(await page.locator('.error-note').allInnerTexts(), `${name}: recovered`).toEqual([])
    }
    await page.context().close()
  }, 180_000)

  it("the flags list's Refresh recovers after an outage, keeping the list shown meanwhile", async () => {
    const { page } = await openPage(browser.browser, ui.url, DESKTOP)
    await signIn(page, ui.url, ui.adminToken)
    await page.goto(`${ui.url}/flags?project=demo`)
    await page.locator('tr.flag-row').first().waitFor()
    const down = (url: URL) => url.pathname.startsWith('/api/admin/projects')
    await page.route(down, (route) => route.abort('connectionrefused'))
    const refresh = page.getByRole('button', { name: 'Refresh' })
    await refresh.click()
    await page.getByRole('alert').first().waitFor()
    await settled(page, 'flags')
    expect(await page.getByRole('alert').first().innerText()).toContain('No connection')
    expect(await page.locator('tr.flag-row').count()).toBeGreaterThan(0)

    await page.unroute(down)
    await refresh.click()
    await expect.poll(() => page.getByRole('alert').count()).toBe(0)
    await settled(page, 'flags')
    await page.context().close()
  }, 60_000)
})
