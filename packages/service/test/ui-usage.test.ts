// Issue 46 in real headless Chromium: a flag's usage on its page and in the flag list, "last
// used" on the tokens page for a token only a proxy's report marked, and the insights page's
// snapshot note with "Take snapshot now", at 1280 and 390 px without sideways scrolling.
import { createHash } from 'node:crypto'
import { copyFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumAvailable, type LaunchedBrowser } from '@vexil/test-fixtures/chromium.ts'
import {
  expectNoHorizontalScroll,
  MOBILE,
  openPage,
  requireBuiltUi,
  SCREENSHOTS,
  screenshot,
  signedInPage,
  signIn,
  startUiService,
  type UiService,
} from './helpers/ui.js'

const FLAG = 'welcome-banner'
const DOC_IMAGES = fileURLToPath(new URL('../../../docs/images/', import.meta.url))

describe.runIf(chromiumAvailable())('usage, last used and snapshots in headless Chromium', () => {
  let ui: UiService
  let browser: LaunchedBrowser
  let page: Page
  let problems: string[]

  beforeAll(async () => {
    requireBuiltUi()
    ui = await startUiService()
    const frontend = await ui.api('POST', '/api/admin/api-tokens', {
      tokenName: 'web-at-proxy',
      type: 'frontend',
      environment: 'development',
    })
    const now = new Date().toISOString()
    // What a Vexil proxy posts: counts, and the hash of the frontend token it served.
    await ui.api(
      'POST',
      '/api/client/metrics',
      {
        appName: 'web-shop',
        instanceId: 'i-1',
        bucket: {
          start: now,
          stop: now,
          toggles: { [FLAG]: { yes: 1_100, no: 7, variants: {} } },
          servedTokens: [createHash('sha256').update(frontend.secret).digest('hex')],
        },
      },
      ui.clientToken,
    )
    ;({ browser, page, problems } = await signedInPage(ui))
  }, 90_000)

  afterAll(async () => {
    await browser?.close()
    await ui?.close()
  })

  const flagPage = async (target: Page) => {
    const { features } = await ui.api('GET', '/api/admin/projects/demo/features')
    expect(features.map((f: { name: string }) => f.name)).toContain(FLAG)
    await target.goto(`${ui.url}/projects/demo/flags/${FLAG}`)
    await target.locator('#usage table').waitFor()
  }

  it('the flag page shows the last hour and the last day', async () => {
    await flagPage(page)
    const rows = page.locator('#usage tbody tr')
    expect(await rows.count()).toBe(2)
    for (const row of await rows.all()) {
      expect(await row.getAttribute('data-usage-yes')).toBe('1100')
      expect(await row.getAttribute('data-usage-no')).toBe('7')
    }
    await screenshot(page, 'usage-flag-1280')
    await expectNoHorizontalScroll(page)
  })

  it('the flag list shows the last day in its column', async () => {
    await page.goto(`${ui.url}/flags?project=demo`)
    const cell = page.locator(`[data-usage="${FLAG}"]`)
    await cell.locator('.usage-summary').waitFor()
    expect(await cell.locator('.usage-summary').getAttribute('data-usage-total')).toBe('1107')
  })

  it('the tokens page shows when a token used only at a proxy was last used', async () => {
    await page.goto(`${ui.url}/api-tokens`)
    const row = page.locator('[data-token="web-at-proxy"]')
    await row.waitFor()
    const lastUsed = row.locator('dt:text-is("Last used") + dd')
    expect(await lastUsed.innerText()).not.toBe('not yet')
    await screenshot(page, 'usage-tokens-1280')
  })

  it('the insights page says what its charts come from, and takes a snapshot now', async () => {
    await page.goto(`${ui.url}/insights`)
    const note = page.locator('#snapshot')
    await note.getByText('Next:').waitFor()
    expect(await note.innerText()).toContain('daily at 23:55 UTC')
    const before = await note.locator('[data-snapshot]').getAttribute('data-snapshot')
    await ui.api('POST', '/api/admin/projects/demo/features', { name: 'usage-made-now' })
    await page.getByRole('button', { name: 'Take snapshot now' }).click()
    await expect.poll(() => note.locator('[data-snapshot]').getAttribute('data-snapshot')).not.toBe(before)
    const insights = await ui.api('GET', '/api/admin/insights')
    expect(insights.flagTrends.at(-1).total).toBe(insights.flags.total)
    await screenshot(page, 'usage-insights-1280')
    await expectNoHorizontalScroll(page)
    expect(problems).toEqual([])
  })

  it('the pages fit a 390 px phone', async () => {
    const { page: phone, problems: phoneProblems } = await openPage(browser.browser, ui.url, MOBILE)
    await signIn(phone, ui.url, ui.adminToken)
    await phone.goto(`${ui.url}/insights`)
    await phone.locator('#snapshot').getByText('Next:').waitFor()
    await expectNoHorizontalScroll(phone)
    await screenshot(phone, 'usage-insights-390')
    await flagPage(phone)
    await expectNoHorizontalScroll(phone)
    await screenshot(phone, 'usage-flag-390')
    await phone.goto(`${ui.url}/flags?project=demo`)
    await phone.locator(`[data-usage="${FLAG}"] .usage-summary`).waitFor()
    await expectNoHorizontalScroll(phone)
    await screenshot(phone, 'usage-flags-390')
    await phone.goto(`${ui.url}/api-tokens`)
    await phone.locator('[data-token="web-at-proxy"]').waitFor()
    await expectNoHorizontalScroll(phone)
    await screenshot(phone, 'usage-tokens-390')
    expect(phoneProblems).toEqual([])
    await phone.context().close()
  })

  it('keeps the screenshots the docs use', () => {
    mkdirSync(DOC_IMAGES, { recursive: true })
    for (const [from, to] of [
      ['usage-insights-1280', 'admin-ui-insights'],
      ['usage-flag-1280', 'admin-ui-flag-usage'],
      ['usage-tokens-1280', 'admin-ui-tokens'],
    ])
      copyFileSync(join(SCREENSHOTS, `${from}.png`), join(DOC_IMAGES, `${to}.png`))
  })
})
