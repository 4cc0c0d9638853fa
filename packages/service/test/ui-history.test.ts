// Issue 46, item 3, in real headless Chromium against a running service (the demo seeded): a
// flag changed in the UI shows in its history with who changed it and the before/after; the
// global history filters by project, flag and actor and pages; a change an action made names
// the action set and links to it and to the signal; both pages at 1280 and 390 px.
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumAvailable, launchChromium, type LaunchedBrowser } from '@vexil/test-fixtures/chromium.ts'
import {
  DESKTOP,
  expectNoHorizontalScroll,
  MOBILE,
  openPage,
  requireBuiltUi,
  SCREENSHOTS,
  screenshot,
  sendSignal,
  signIn,
  startUiService,
  type UiService,
} from './helpers/ui.js'

const F = '/api/admin/projects/demo/features'

describe.runIf(chromiumAvailable())('the history pages in headless Chromium', () => {
  let ui: UiService
  let browser: LaunchedBrowser
  let page: Page
  let problems: string[]
  const ids = { set: 0, endpoint: 0, signal: 0 }

  const changes = () => page.locator('li.change')
  const firstChange = () => changes().first()

  beforeAll(async () => {
    requireBuiltUi()
    ui = await startUiService()
    browser = await launchChromium()
    ;({ page, problems } = await openPage(browser.browser, ui.url))
    await signIn(page, ui.url, ui.adminToken)
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await ui?.close()
  })

  it('a flag turned on in the UI shows first in its history: who, and enabled false -> true', async () => {
    await page.goto(`${ui.url}/flags?project=demo`)
    const toggle = page.getByRole('switch', { name: 'welcome-banner in production', exact: true })
    expect(await toggle.getAttribute('aria-checked')).toBe('false')
    await toggle.click()
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true')

    await page.goto(`${ui.url}/projects/demo/flags/welcome-banner`)
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'History' }).click()
    await page.waitForURL(`${ui.url}/projects/demo/flags/welcome-banner/history`)
    await page.getByRole('heading', { name: 'History of welcome-banner' }).waitFor()
    const change = firstChange()
    expect(await change.getAttribute('data-type')).toBe('feature-environment-enabled')
    expect(await change.locator('.change-header').innerText()).toContain('Turned on')
    expect(await change.locator('.change-header').innerText()).toContain('in production')
    expect(await change.locator('[data-actor]').innerText()).toBe('demo-admin')
    const row = change.locator('table.change-diff tbody tr')
    expect(await row.allInnerTexts()).toEqual(['enabled\tfalse\ttrue'])
  })

  it("a strategy's changed rollout reads as one row: the percentage before and after", async () => {
    const flag = await ui.api('GET', `${F}/gradual-user`)
    const strategy = flag.environments.find((e: { name: string }) => e.name === 'development').strategies[0]
    await ui.api('PUT', `${F}/gradual-user/environments/development/strategies/${strategy.id}`, {
      name: strategy.name,
      parameters: { ...strategy.parameters, percentage: '30' },
      constraints: strategy.constraints ?? [],
    })
    await page.goto(`${ui.url}/projects/demo/flags/gradual-user/history`)
    const change = firstChange()
    await change.waitFor()
    expect(await change.getAttribute('data-type')).toBe('feature-strategy-update')
    expect(await change.locator('table.change-diff tbody tr').allInnerTexts()).toEqual([
      'parameters.percentage\t"50"\t"30"',
    ])
    await screenshot(page, 'flag-history-1280')
  })

  it('the global history filters by flag, by actor and by project, and the filters stay in the address', async () => {
    await page.goto(`${ui.url}/history`)
    await page.getByRole('heading', { name: 'History', exact: true }).waitFor()
    await changes().first().waitFor()
    await screenshot(page, 'history-1280')

    await page.getByLabel('Flag').fill('welcome-banner')
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.waitForURL(`${ui.url}/history?feature=welcome-banner`)
    await expect
      .poll(async () => new Set(await changes().locator('.change-flag').allInnerTexts()))
      .toEqual(new Set(['welcome-banner']))

    await page.getByLabel('Changed by').fill('nobody-at-all')
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.getByText('No change matches these filters.').waitFor()

    await page.getByRole('button', { name: 'Clear' }).click()
    await page.waitForURL(`${ui.url}/history`)
    await page.getByLabel('Project').selectOption('demo')
    await page.getByLabel('Changed by').fill('demo-admin')
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.waitForURL(`${ui.url}/history?project=demo&createdBy=demo-admin`)
    await changes().first().waitFor()
    expect(new Set(await changes().locator('[data-actor]').allInnerTexts())).toEqual(new Set(['demo-admin']))
  })

  it('pages through the log: 25 a page, Older and Newer', async () => {
    await page.goto(`${ui.url}/history`)
    const status = page.getByTestId('pager-status')
    const total = (await ui.api('GET', '/api/admin/search/events?limit=1')).total as number
    expect(total).toBeGreaterThan(25)
    await expect.poll(() => status.innerText()).toBe(`1–25 of ${total}`)
    await page.getByRole('button', { name: 'Older' }).click()
    await page.waitForURL(`${ui.url}/history?page=1`)
    await expect.poll(() => status.innerText()).toBe(`26–${Math.min(50, total)} of ${total}`)
    await page.getByRole('button', { name: 'Newer' }).click()
    await expect.poll(() => status.innerText()).toBe(`1–25 of ${total}`)
  })

  it("an action's change names the action set, links to its runs and to the signal; the runs link back", async () => {
    const endpoint = await ui.api('POST', '/api/admin/signal-endpoints', { name: 'pager-alerts' })
    const token = await ui.api('POST', `/api/admin/signal-endpoints/${endpoint.id}/tokens`, { name: 'pager' })
    const set = await ui.api('POST', '/api/admin/projects/demo/actions', {
      name: 'banner off on incident',
      match: { source: 'signal-endpoint', sourceId: endpoint.id, payload: {} },
      actions: [
        {
          action: 'TOGGLE_FEATURE_OFF',
          executionParams: { project: 'demo', environment: 'production', featureName: 'welcome-banner' },
        },
      ],
    })
    const sent = await (await sendSignal(ui.url, 'pager-alerts', token.token, { incident: 'checkout down' })).json()
    Object.assign(ids, { set: set.id, endpoint: endpoint.id, signal: sent.id })

    await page.goto(`${ui.url}/projects/demo/flags/welcome-banner/history`)
    await expect
      .poll(
        async () => {
          await page.reload()
          await firstChange().waitFor()
          return firstChange().getAttribute('data-type')
        },
        { timeout: 15_000 },
      )
      .toBe('feature-environment-disabled')
    const actor = firstChange().locator('[data-actor]')
    expect(await actor.innerText()).toBe(`action set banner off on incident, on signal #${ids.signal}`)
    expect(await actor.getByRole('link', { name: 'banner off on incident' }).getAttribute('href')).toBe(
      `/actions/demo/${ids.set}/runs`,
    )
    expect(await actor.getByRole('link', { name: `signal #${ids.signal}` }).getAttribute('href')).toBe(
      `/integrations/signal-endpoints/${ids.endpoint}#signals`,
    )
    await screenshot(page, 'flag-history-action-1280')

    await actor.getByRole('link', { name: 'banner off on incident' }).click()
    await page.waitForURL(`${ui.url}/actions/demo/${ids.set}/runs`)
    const run = page.locator('li.run').first()
    await run.waitFor()
    expect(await run.getByRole('link', { name: `signal #${ids.signal}` }).getAttribute('href')).toBe(
      `/integrations/signal-endpoints/${ids.endpoint}#signals`,
    )
    await run.getByRole('link', { name: 'welcome-banner' }).click()
    await page.waitForURL(`${ui.url}/projects/demo/flags/welcome-banner/history`)
  })

  it('nothing failed in the page: no script error, no 5xx, no request off the service', () => {
    expect(problems).toEqual([])
  })

  describe.each([
    ['1280', DESKTOP],
    ['390', MOBILE],
  ])('at %s px wide', (width, viewport) => {
    it.each([
      ['history', '/history'],
      ['flag-history', '/projects/demo/flags/welcome-banner/history'],
    ])('%s: no sideways scroll', async (name, path) => {
      const opened = await openPage(browser.browser, ui.url, viewport)
      await signIn(opened.page, ui.url, ui.adminToken)
      await opened.page.goto(`${ui.url}${path}`)
      await opened.page.locator('li.change').first().waitFor()
      await expectNoHorizontalScroll(opened.page)
      await screenshot(opened.page, `${name}-${width}`)
      await opened.page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}-top.png`) })
      await opened.page.context().close()
      expect(opened.problems).toEqual([])
    })
  })
})
