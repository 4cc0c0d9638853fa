// Issue 20, the playground end to end in real headless Chromium against a running service (PGlite
// in a temp folder, the demo seeded) and a real Vexil proxy syncing from it with a client token:
// a context entered with the keyboard only, every flag's on/off and variant equal to the proxy's
// answer for the same context, the explanations (a failed constraint with the value it saw, a
// rollout bucket, a variant with its stickiness), a bad JSON context and a refused one shown in
// place, a recent context picked, at 1280 and 390 px.
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { murmur3, VARIANT_SEED } from '@vexil/engine'
import { chromiumAvailable, type LaunchedBrowser } from '@vexil/test-fixtures/chromium.ts'
import { PROXY_HOSTNAME, type PlaygroundProxy, startPlaygroundProxy } from './helpers/playground-proxy.js'
import {
  DESKTOP,
  expectNoHorizontalScroll,
  MOBILE,
  openPage,
  requireBuiltUi,
  screenshot,
  SCREENSHOTS,
  signedInPage,
  signIn,
  startUiService,
  type UiService,
} from './helpers/ui.js'

/** Presses Tab until the focused element matches `selector` (keyboard-only use: no clicks, no focus()). */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let i = 0; i < 80; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return
    await page.keyboard.press('Tab')
  }
  throw new Error(`Tab never reached ${selector}`)
}

/** The context the keyboard enters below; with a sessionId, the proxy adds no random one. */
const CONTEXT = {
  userId: 'u-17',
  sessionId: 's-17',
  remoteAddress: '10.1.2.3',
  environment: 'development',
  appName: 'web',
  properties: { plan: 'pro', country: 'DK' },
}

/** gradualRolloutRandom draws a new number for every evaluation: no two answers need agree. */
const RANDOM_FLAGS = new Set(['gradual-random'])

/** The 1-based bucket murmur3 gives `id` in `group` (what the engine computes). */
const bucket = (group: string, id: string, seed: number, modulus: number) =>
  (murmur3(`${group}:${id}`, seed) % modulus) + 1

describe.runIf(chromiumAvailable())('the playground in headless Chromium', () => {
  let ui: UiService
  let proxy: PlaygroundProxy
  let browser: LaunchedBrowser
  let page: Page
  let problems: string[]

  const flag = (name: string) => page.locator(`li.pg-flag[data-flag="${name}"]`)
  const why = async (name: string) => {
    const row = flag(name)
    if ((await row.getByRole('button', { name: /Why\?/ }).count()) > 0)
      await row.getByRole('button', { name: /Why\?/ }).click()
    return row.locator('.pg-why')
  }
  /** The page's results: each flag's variant name, for the flags that are on. */
  const pageResults = () =>
    page.locator('li.pg-flag').evaluateAll((rows) => {
      const on: Record<string, string> = {}
      const all: string[] = []
      for (const row of rows) {
        const name = row.getAttribute('data-flag')!
        all.push(name)
        if (row.querySelector('.pg-flag-result .badge')?.textContent === 'On')
          on[name] = row.querySelector('[data-testid="variant"] code')?.textContent ?? 'disabled'
      }
      return { on, all }
    })

  async function expectSameAsProxy(context: Record<string, unknown>) {
    const answer = await proxy.evaluate(context)
    const { on, all } = await pageResults()
    expect(all.length).toBeGreaterThan(10)
    for (const name of all.filter((n) => !RANDOM_FLAGS.has(n)))
      expect([name, on[name] ?? 'off']).toEqual([name, answer.get(name) ?? 'off'])
  }

  beforeAll(async () => {
    requireBuiltUi()
    ui = await startUiService()
    // A constrained flag in the demo project, and a rollout in another project (the project filter).
    await ui.api('POST', '/api/admin/projects/demo/features', { name: 'pg-country', type: 'release' })
    await ui.api('POST', '/api/admin/projects/demo/features/pg-country/environments/development/strategies', {
      name: 'default',
      constraints: [{ contextName: 'country', operator: 'IN', values: ['NO', 'SE'] }],
    })
    await ui.api('POST', '/api/admin/projects/demo/features/pg-country/environments/development/on')
    await ui.api('POST', '/api/admin/projects', { id: 'shop', name: 'Shop' })
    await ui.api('POST', '/api/admin/projects/shop/features', { name: 'pg-rollout', type: 'release' })
    await ui.api('POST', '/api/admin/projects/shop/features/pg-rollout/environments/development/strategies', {
      name: 'flexibleRollout',
      parameters: { rollout: '50', stickiness: 'userId', groupId: 'pg-rollout' },
    })
    await ui.api('POST', '/api/admin/projects/shop/features/pg-rollout/environments/development/on')
    proxy = await startPlaygroundProxy(ui.url, ui.clientToken)
    ;({ browser, page, problems } = await signedInPage(ui))
  }, 60_000)

  afterAll(async () => {
    await proxy?.close()
    await browser?.close()
    await ui?.close()
  })

  it("a context entered with the keyboard only gives every flag the proxy's answer", async () => {
    await page.goto(`${ui.url}/playground`)
    await expect.poll(() => page.locator('#pg-environment').inputValue()).toBe('development')
    await tabTo(page, '#pg-hostname')
    await page.keyboard.type(PROXY_HOSTNAME)
    await tabTo(page, '#context-userId')
    for (const field of ['userId', 'sessionId', 'remoteAddress', 'environment', 'appName'] as const) {
      expect(await page.evaluate(() => document.activeElement?.id)).toBe(`context-${field}`)
      await page.keyboard.type(CONTEXT[field])
      await page.keyboard.press('Tab')
    }
    await tabTo(page, '[aria-label="Property 1 name"]')
    await page.keyboard.type('plan')
    await page.keyboard.press('Tab')
    await page.keyboard.type('pro')
    await tabTo(page, '.pg-properties > .button')
    await page.keyboard.press('Enter')
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Property 2 name')
    await page.keyboard.type('country')
    await page.keyboard.press('Tab')
    await page.keyboard.type('DK')
    await page.keyboard.press('Enter')

    await expect.poll(() => page.locator('.pg-caption').innerText()).toMatch(/^\d+ flags in development, \d+ on$/)
    await expectSameAsProxy(CONTEXT)
    expect(problems).toEqual([])
  })

  it('a constraint that fails shows the value it saw', async () => {
    const explanation = await why('pg-country')
    expect(await explanation.locator('.pg-outcome').innerText()).toBe(
      'Off: the flag is enabled, but none of its strategies matched.',
    )
    expect(await explanation.locator('.pg-failure').innerText()).toBe('Failed: country IN did not match (saw "DK")')
    expect(await explanation.locator('.pg-constraint').innerText()).toMatch(
      /country\s+IN\s+\[NO, SE\]\s+saw "DK"\s+✗ false/,
    )
  })

  it('a rollout shows its bucket against the percentage', async () => {
    const explanation = await why('pg-rollout')
    const expected = bucket('pg-rollout', 'u-17', 0, 100)
    expect(await explanation.getByTestId('rollout-bucket').innerText()).toContain(
      `userId "u-17" → bucket ${expected} of 100 ${expected <= 50 ? '≤' : '>'} 50`,
    )
    expect(await flag('pg-rollout').locator('.pg-flag-result .badge').innerText()).toBe(expected <= 50 ? 'On' : 'Off')
  })

  it('a variant shows the stickiness that chose it and its bucket', async () => {
    const explanation = await why('theme')
    const expected = bucket('theme', 'u-17', VARIANT_SEED, 1000)
    expect(await explanation.getByTestId('variant-stickiness').innerText()).toBe(
      `Stickiness default → used userId "u-17" → bucket ${expected} of 1000`,
    )
    const chosen = expected <= 500 ? 'dark' : 'light'
    expect(await explanation.locator('.pg-candidates li.chosen').innerText()).toContain(chosen)
    expect(await flag('theme').getByTestId('variant').innerText()).toBe(`variant ${chosen}`)
  })

  it("a flag's explanation: strategy, constraint, segment, rollout, strategy variants and a dependency", async () => {
    const checkout = await why('new-checkout')
    expect(await checkout.locator('.pg-outcome').innerText()).toContain('On: strategy 1 (Gradual rollout) matched')
    expect(await checkout.locator('.pg-segment').innerText()).toMatch(/Segment demo-pro-plans\s+✓ matched/)
    expect(await checkout.innerText()).toContain("from the matched strategy's variants")
    const upsell = await why('checkout-upsell')
    expect(await upsell.locator('.pg-list').innerText()).toMatch(
      /Needs new-checkout on: it is on \(variant (one|two)-page\)\s+✓ satisfied/,
    )
    await page.getByRole('button', { name: 'Hide why checkout-upsell' }).click()
    for (const name of ['pg-country', 'pg-rollout', 'theme'])
      await flag(name)
        .getByRole('button', { name: /Hide why/ })
        .click()
    await checkout.scrollIntoViewIfNeeded()
    await screenshot(page, 'playground-explain')
    await expectNoHorizontalScroll(page)
  })

  it('filters the results by name and by project', async () => {
    await page.getByLabel('Project').selectOption('shop')
    expect((await pageResults()).all).toEqual(['pg-rollout'])
    await page.getByLabel('Project').selectOption('')
    await page.getByLabel('Filter by name').fill('gradual')
    expect((await pageResults()).all.sort()).toEqual(['gradual-random', 'gradual-session', 'gradual-user'])
    expect(await page.locator('.pg-caption').innerText()).toMatch(/^3 of \d+ flags in development/)
    await page.getByLabel('Filter by name').fill('')
  })

  it('a bad JSON context is shown in place, and nothing is evaluated', async () => {
    await page.getByRole('button', { name: 'JSON' }).click()
    const json = page.getByLabel('Context (JSON)')
    expect(JSON.parse(await json.inputValue())).toEqual(CONTEXT)
    await json.fill('{"userId": "u-18",, }')
    await page.getByRole('button', { name: 'Evaluate' }).click()
    const error = page.locator('#context-json-error')
    expect(await error.innerText()).toMatch(/^Not valid JSON: /)
    expect(await json.getAttribute('aria-invalid')).toBe('true')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('context-json')
    // Once shown, the problem follows the text.
    await json.fill('["not", "an", "object"]')
    expect(await error.innerText()).toBe('The context must be a JSON object, e.g. {"userId": "42"}.')
    await screenshot(page, 'playground-bad-json')
    // Still the results of the last good context.
    expect(await page.locator('#pg-results-title').innerText()).toContain('userId="u-17"')
  })

  it('a context the service refuses to remember (over 4 KB) is still evaluated, and the refusal shown', async () => {
    await page
      .getByLabel('Context (JSON)')
      .fill(JSON.stringify({ userId: 'big', properties: { note: 'x'.repeat(5000) } }))
    await page.getByRole('button', { name: 'Evaluate' }).click()
    await expect.poll(() => page.locator('#pg-results-title').innerText()).toContain('userId="big"')
    expect(await page.locator('.pg-remember-error').innerText()).toMatch(/^Please check the input: .*4096 bytes/)
  })

  it('a recent context is picked, shown in the fields, and evaluates the same again', async () => {
    const recent = page.locator('.pg-recent-use').filter({ hasText: 'userId="u-17"' })
    await recent.waitFor()
    await recent.focus()
    await page.keyboard.press('Enter')
    expect(await page.getByLabel('userId', { exact: true }).inputValue()).toBe('u-17')
    const rows = await page
      .locator('.pg-row')
      .evaluateAll((items) => items.map((li) => Array.from(li.querySelectorAll('input'), (input) => input.value)))
    expect(rows.sort()).toEqual([
      ['', ''],
      ['country', 'DK'],
      ['plan', 'pro'],
    ])
    await page.getByRole('button', { name: 'Evaluate' }).click()
    await expect.poll(() => page.locator('#pg-results-title').innerText()).toContain('userId="u-17"')
    await expectSameAsProxy(CONTEXT)
    // The same context again moves to the top of the list rather than adding a row.
    await expect.poll(() => page.locator('.pg-recent-use').first().innerText()).toContain('userId="u-17"')
    expect(await page.locator('.pg-recent-use').filter({ hasText: 'userId="u-17"' }).count()).toBe(1)
    await screenshot(page, 'playground-1280')
    expect(problems).toEqual([])
  })

  it('works at phone width: results, an explanation, no sideways scroll', async () => {
    const phone = await openPage(browser.browser, ui.url, MOBILE)
    await signIn(phone.page, ui.url, ui.adminToken)
    await phone.page.goto(`${ui.url}/playground`)
    await phone.page.getByLabel('userId', { exact: true }).fill('u-17')
    await phone.page.getByLabel('Property 1 name').fill('plan')
    await phone.page.getByLabel('Property 1 value').fill('pro')
    await phone.page.getByRole('button', { name: 'Evaluate' }).click()
    await phone.page.locator('li.pg-flag[data-flag="new-checkout"]').getByRole('button', { name: /Why\?/ }).click()
    await phone.page.locator('li.pg-flag[data-flag="new-checkout"] .pg-why').waitFor()
    await expectNoHorizontalScroll(phone.page)
    await screenshot(phone.page, 'playground-390')
    // The explanation alone, large enough to read.
    await phone.page
      .locator('li.pg-flag[data-flag="new-checkout"]')
      .screenshot({ path: join(SCREENSHOTS, 'playground-why-390.png') })
    expect(phone.problems).toEqual([])
    await phone.page.context().close()
    expect(DESKTOP.width).toBe(1280)
  })
})
