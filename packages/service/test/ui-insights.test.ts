// Issue 8: the insights dashboard in real headless Chromium, over nine weeks of history built
// through the admin and client APIs with the service's clock moved back (users who use their
// tokens, flags made, marked stale and taken to production, SDK metrics, configuration changes),
// one snapshot a week. Every chart must have drawn data; the date range picker and its errors;
// 1280 and 390 px without sideways scrolling.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumAvailable, type LaunchedBrowser } from '@vexil/test-fixtures/chromium.ts'
import {
  DESKTOP,
  expectNoHorizontalScroll,
  MOBILE,
  openPage,
  requireBuiltUi,
  screenshot,
  signedInPage,
  signIn,
  startUiService,
  type UiService,
} from './helpers/ui.js'

const CHARTS = ['users', 'flags', 'health', 'time-to-production', 'metrics', 'updates']
const WEEKS = 9
const DAY_MS = 86_400_000
const day = (daysFromNow: number) => new Date(Date.now() + daysFromNow * DAY_MS).toISOString().slice(0, 10)

/**
 * Pixels of the first series' colour (#4338ca) in a chart's plot, above its legend (which
 * shows a swatch of that colour even with no data): proof that data was drawn, not just axes.
 */
function seriesPixels(page: Page, chart: string): Promise<number> {
  return page.locator(`[data-chart="${chart}"] canvas`).evaluate((canvas: HTMLCanvasElement) => {
    const context = canvas.getContext('2d') as CanvasRenderingContext2D
    const height = canvas.height - 40
    const { data } = context.getImageData(0, 0, canvas.width, height)
    let count = 0
    for (let i = 0; i < data.length; i += 4) {
      if (
        Math.abs((data[i] as number) - 0x43) < 40 &&
        Math.abs((data[i + 1] as number) - 0x38) < 40 &&
        Math.abs((data[i + 2] as number) - 0xca) < 40 &&
        (data[i + 3] as number) > 200
      )
        count++
    }
    return count
  })
}

describe.runIf(chromiumAvailable())('the insights dashboard in headless Chromium', () => {
  let ui: UiService
  let browser: LaunchedBrowser
  let page: Page
  let problems: string[]

  beforeAll(async () => {
    requireBuiltUi()
    ui = await startUiService({ startDaysFromNow: -7 * WEEKS })
    const at = (daysFromNow: number) => ui.setDaysFromNow(daysFromNow)
    const production = (
      await ui.api('POST', '/api/admin/api-tokens', {
        tokenName: 'prod-sdk',
        type: 'client',
        environment: 'production',
      })
    ).secret as string
    const metrics = (token: string, daysFromNow: number, toggles: Record<string, { yes: number; no: number }>) =>
      ui.api(
        'POST',
        '/api/client/metrics',
        {
          appName: 'web-shop',
          instanceId: 'i-1',
          bucket: {
            start: new Date(Date.now() + daysFromNow * DAY_MS).toISOString(),
            stop: new Date(Date.now() + daysFromNow * DAY_MS).toISOString(),
            toggles,
          },
        },
        token,
      )
    const users: Record<string, string> = {}
    for (const [name, rootRole] of [
      ['alice', 'Admin'],
      ['bob', 'Editor'],
      ['carol', 'Viewer'],
      ['dan', 'Viewer'],
    ] as const) {
      const user = await ui.api('POST', '/api/admin/user-admin', { email: `${name}@example.com`, name, rootRole })
      users[name] = (await ui.api('POST', `/api/admin/user-admin/${user.id}/tokens`, { description: 'ui' })).secret
    }
    await ui.api('POST', '/api/admin/projects', { id: 'web', name: 'Web shop' })
    for (const flag of ['web-search', 'web-cart', 'web-payments'])
      await ui.api('POST', '/api/admin/projects/web/features', { name: flag })

    for (let week = WEEKS; week >= 0; week--) {
      const now = -7 * week
      at(now)
      // Users come one by one (seen when their token is used).
      const who = ['alice', 'bob', 'carol', 'dan'][WEEKS - week]
      if (who) await ui.api('GET', '/api/admin/user', undefined, users[who])
      // Flags: each week one more reaches production; the project keeps changing.
      const flag = ['web-search', 'web-cart', 'web-payments'][(WEEKS - week) % 3] as string
      if (week % 3 === 1) await ui.api('POST', `/api/admin/projects/web/features/${flag}/environments/production/on`)
      await ui.api(
        'POST',
        `/api/admin/projects/demo/features/welcome-banner/environments/production/${week % 2 ? 'on' : 'off'}`,
      )
      await ui.api('POST', '/api/admin/projects/web/features', { name: `web-experiment-${week}`, type: 'experiment' })
      if (week === 5) await ui.api('POST', '/api/admin/features/gradual-random/stale/on')
      // SDKs report evaluations in both environments.
      await metrics(ui.clientToken, now, {
        'welcome-banner': { yes: 40 + week * 7, no: 10 },
        'new-checkout': { yes: 25, no: 30 + week },
      })
      await metrics(production, now, {
        'web-search': { yes: 90 - week * 5, no: 12 },
        'welcome-banner': { yes: 15, no: 5 },
      })
      await ui.service.snapshotInsights()
    }
    at(0)

    ;({ browser, page, problems } = await signedInPage(ui))
  }, 90_000)

  afterAll(async () => {
    await browser?.close()
    await ui?.close()
  })

  it('shows the totals of GET /api/admin/insights', async () => {
    await page.goto(`${ui.url}/insights`)
    const expected = await ui.api('GET', `/api/admin/insights?from=${day(-83)}&to=${day(0)}`)
    await page.locator('.totals').waitFor()
    const totals = Object.fromEntries(
      await page
        .locator('.total')
        .evaluateAll((items) =>
          items.map((item) => [
            item.getAttribute('data-total'),
            Number(item.querySelector('.total-value')?.textContent?.replace(/\D/g, '')),
          ]),
        ),
    )
    expect(totals).toEqual({
      Users: expected.users.total,
      'Active users': expected.users.active,
      'Inactive users': expected.users.inactive,
      Flags: expected.flags.total,
    })
    // The four users the test made and the demo seed's person.
    expect(expected.users.total).toBe(5)
    expect(expected.flags.total).toBeGreaterThan(10)
    expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe(day(-83))
    expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe(day(0))
  })

  it('every chart has drawn data over time', async () => {
    for (const chart of CHARTS) {
      const box = page.locator(`[data-chart="${chart}"]`)
      await box.waitFor()
      expect(Number(await box.getAttribute('data-points')), `${chart}: data points`).toBeGreaterThan(3)
      expect(await box.locator('canvas').count(), `${chart}: a canvas`).toBe(1)
      await expect
        .poll(() => seriesPixels(page, chart), { message: `${chart}: pixels of its first series` })
        .toBeGreaterThan(40)
    }
    // Several snapshots on the time axis, several projects and environment types as series.
    const insights = await ui.api('GET', `/api/admin/insights?from=${day(-83)}&to=${day(0)}`)
    expect(insights.userTrends.length).toBe(WEEKS + 1)
    expect(new Set(insights.metricsSummaryTrends.map((r: { project: string }) => r.project))).toEqual(
      new Set(['demo', 'web']),
    )
    expect(
      insights.projectFlagTrends.some((r: { timeToProduction?: number }) => r.timeToProduction !== undefined),
    ).toBe(true)
    await screenshot(page, 'insights-data-1280')
    await expectNoHorizontalScroll(page)
  })

  it('changes the date range with the picker and the presets', async () => {
    const points = async () => Number(await page.locator('[data-chart="users"]').getAttribute('data-points'))
    const twelveWeeks = await points()
    await page.getByRole('button', { name: '4 weeks' }).click()
    await expect.poll(() => page.getByLabel('From', { exact: true }).inputValue()).toBe(day(-27))
    expect(page.url()).toContain(`from=${day(-27)}`)
    await expect.poll(points).toBeLessThan(twelveWeeks)
    expect(await page.getByRole('button', { name: '4 weeks' }).getAttribute('aria-pressed')).toBe('true')

    // A range before any snapshot: every chart says so instead of drawing.
    await page.getByLabel('From', { exact: true }).fill(day(-400))
    await page.getByLabel('To', { exact: true }).fill(day(-380))
    await expect.poll(() => page.locator('.chart-empty').count()).toBe(CHARTS.length)
    expect(await page.locator('[data-chart="users"]').innerText()).toBe('No user snapshots in this range.')
  })

  it("shows the API's answer to a bad range next to the picker", async () => {
    await page.goto(`${ui.url}/insights?from=${day(-3)}&to=${day(-10)}`)
    const error = page.locator('#range [role="alert"]')
    await expect
      .poll(() => error.innerText())
      .toContain('Please check the input: Request validation failed: query.from must not be after to')
    await page.goto(`${ui.url}/insights?from=2026-02-30`)
    await expect.poll(() => error.innerText()).toContain('query.from must be a calendar day written yyyy-MM-dd')
    await screenshot(page, 'insights-bad-range-1280')
  })

  it.each([
    ['1280', DESKTOP],
    ['390', MOBILE],
  ] as const)('at %s px: every chart drawn, nothing scrolls sideways', async (width, viewport) => {
    const view = await openPage(browser.browser, ui.url, viewport)
    await signIn(view.page, ui.url, ui.adminToken)
    await view.page.goto(`${ui.url}/insights`)
    for (const chart of CHARTS)
      await expect.poll(() => seriesPixels(view.page, chart), { message: chart }).toBeGreaterThan(40)
    await expectNoHorizontalScroll(view.page)
    await screenshot(view.page, `insights-${width}`)
    expect(view.problems).toEqual([])
    await view.page.context().close()
  })

  it('nothing failed in the page', () => {
    expect(problems).toEqual([])
  })
})
