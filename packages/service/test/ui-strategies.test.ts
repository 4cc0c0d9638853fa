// Issue 20: strategies in real headless Chromium against a running service (PGlite in a temp
// folder, the demo seeded). A gradual rollout with constraints of every operator family, where
// each literal the engine would reject (semver, date, number, regex, CIDR) and an invalid JSON
// payload are flagged as typed and block the save; a segment and strategy variants; what is
// stored, checked through the admin API, and what SDKs then get, evaluated with the engine. Then
// editing it, the legacy kinds, ordering by keyboard, disabling, deleting, a server refusal, a
// strategy made with the keyboard alone, and both widths.
import { createEngine } from '@vexil/engine'
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
import { addConstraint, addValue, problemIn, userIdFor } from './helpers/ui-strategies-page.js'

const FLAG = 'ui-checkout'
const STRATEGIES = `/api/admin/projects/demo/features/${FLAG}/environments/development/strategies`

describe.runIf(chromiumAvailable())('strategies in headless Chromium', () => {
  let ui: UiService
  let browser: LaunchedBrowser
  let page: Page
  let problems: string[]
  let segmentId: number
  let strategyId: string

  const stored = async () => (await ui.api('GET', STRATEGIES)) as any[]
  const newStrategyPage = () => page.goto(`${ui.url}/projects/demo/flags/${FLAG}/strategies/development/new`)
  const save = () => page.getByRole('button', { name: /^(Add|Save) strategy$/ }).click()
  const notSavedNote = () => page.locator('[data-error="problems"]')

  beforeAll(async () => {
    requireBuiltUi()
    ui = await startUiService()
    await ui.api('POST', '/api/admin/projects/demo/features', {
      name: FLAG,
      description: 'Made by the strategies UI test',
    })
    segmentId = (
      await ui.api('POST', '/api/admin/segments', {
        name: 'beta-testers',
        description: 'Opted in to betas',
        project: 'demo',
        constraints: [{ contextName: 'tier', operator: 'IN', values: ['beta'] }],
      })
    ).id
    ;({ browser, page, problems } = await signedInPage(ui))
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await ui?.close()
  })

  describe('a gradual rollout with constraints, a segment and variants', () => {
    it("offers a gradual rollout of 100% by the project's stickiness, grouped by the flag, to begin with", async () => {
      await newStrategyPage()
      await page.getByRole('heading', { name: 'Add a strategy' }).waitFor()
      expect(await page.getByLabel('Kind').inputValue()).toBe('flexibleRollout')
      expect(await page.getByLabel('Rollout (%)', { exact: true }).inputValue()).toBe('100')
      expect(await page.getByLabel('Stickiness').inputValue()).toBe('default')
      expect(await page.getByLabel('Group ID').inputValue()).toBe(FLAG)
      // Every operator of the engine is offered.
      await page.getByRole('button', { name: 'Add constraint' }).click()
      const operators = await page
        .locator('li.constraint-row select')
        .first()
        .locator('option')
        .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))
      expect(operators.sort()).toEqual([
        'DATE_AFTER',
        'DATE_BEFORE',
        'IN',
        'IN_CIDR',
        'NOT_IN',
        'NUM_EQ',
        'NUM_GT',
        'NUM_GTE',
        'NUM_LT',
        'NUM_LTE',
        'REGEX',
        'SEMVER_EQ',
        'SEMVER_GT',
        'SEMVER_GTE',
        'SEMVER_LT',
        'SEMVER_LTE',
        'STR_CONTAINS',
        'STR_ENDS_WITH',
        'STR_STARTS_WITH',
      ])
      await page.getByRole('button', { name: 'Remove constraint 1' }).click()
    })

    it('flags each literal the engine would reject as it is typed, and refuses to save, saying why', async () => {
      await page.getByLabel('Rollout (%)', { exact: true }).fill('50')
      await page.getByLabel('Stickiness').selectOption('userId')
      await page.getByLabel('Title (optional)').fill('Half of the beta testers')

      const semver = await addConstraint(page, { field: 'appVersion', operator: 'SEMVER_GTE', value: '1.2' })
      expect(await problemIn(semver)).toBe(
        'The engine would reject this: SEMVER_GTE on "appVersion": "1.2" is not a valid semantic version; the constraint never matches.',
      )
      const date = await addConstraint(page, { field: 'currentTime', operator: 'DATE_AFTER', value: 'next tuesday' })
      expect(await problemIn(date)).toContain('"next tuesday" is not a valid date')
      const number = await addConstraint(page, { field: 'age', operator: 'NUM_GTE', value: '18 years' })
      expect(await problemIn(number)).toContain('"18 years" is not a valid number')
      const regex = await addConstraint(page, {
        field: 'email',
        operator: 'REGEX',
        value: '(?=@)example',
        caseInsensitive: true,
      })
      expect(await problemIn(regex)).toContain('is not a valid RE2 pattern')
      const cidr = await addConstraint(page, { field: 'remoteAddress', operator: 'IN_CIDR', values: ['10.0.0.0/33'] })
      expect(await problemIn(cidr)).toContain('"10.0.0.0/33" is not an IP address or CIDR range')
      const text = await addConstraint(page, {
        field: 'plan',
        operator: 'STR_STARTS_WITH',
        values: ['Pro'],
        caseInsensitive: true,
      })
      const inverted = await addConstraint(page, {
        field: 'country',
        operator: 'IN',
        values: ['NO', 'DK'],
        inverted: true,
      })
      for (const row of [text, inverted]) expect(await problemIn(row)).toBe('')
      // Each problem is marked on its field for assistive technology too.
      expect(await semver.getByLabel('Value', { exact: true }).getAttribute('aria-invalid')).toBe('true')

      await page.getByRole('checkbox', { name: /beta-testers/ }).check()
      await page.getByRole('button', { name: 'Add variant' }).click()
      const blue = page.locator('li.variant-row').nth(0)
      await blue.getByLabel('Name').fill('blue')
      await blue.getByLabel('Payload', { exact: true }).selectOption('json')
      await blue.getByLabel('JSON payload').fill('{"color": "blue",}')
      expect(await problemIn(blue)).toMatch(/^Not valid JSON: /)
      await page.getByRole('button', { name: 'Add variant' }).click()
      const red = page.locator('li.variant-row').nth(1)
      await red.getByLabel('Name').fill('red')
      await red.getByLabel('Weight').selectOption('fix')
      await red.getByLabel('Share (%)').fill('30')
      await red.getByLabel('Payload', { exact: true }).selectOption('number')
      await red.getByLabel('Number payload').fill('seven')
      expect(await problemIn(red)).toContain('Not a number')
      expect(await blue.locator('output').innerText()).toBe('70%')

      await screenshot(page, 'strategy-form-invalid-1280')
      await save()
      await notSavedNote().waitFor()
      expect(await notSavedNote().innerText()).toContain('Not saved: 7 things to fix first.')
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-error'))).toBe('problems')
      expect(await stored()).toEqual([])

      // Fixing each one clears its problem, and the note with the last.
      await semver.getByLabel('Value', { exact: true }).fill('1.2.0')
      await date.getByLabel('Value', { exact: true }).fill('2020-01-01T00:00:00Z')
      await number.getByLabel('Value', { exact: true }).fill('18')
      await regex.getByLabel('Value', { exact: true }).fill('@example\\.com$')
      await cidr.getByRole('button', { name: 'Remove value 10.0.0.0/33' }).click()
      await addValue(cidr.getByLabel('Values', { exact: true }), '10.0.0.0/8')
      await blue.getByLabel('JSON payload').fill('{"color": "blue"}')
      expect(await notSavedNote().innerText()).toContain('Not saved: one thing to fix first.')
      await red.getByLabel('Number payload').fill('7')
      for (const row of [semver, date, number, regex, cidr, blue, red]) expect(await problemIn(row)).toBe('')
      expect(await notSavedNote().count()).toBe(0)
      expect(await page.locator('.preview').innerText()).toContain('50% of users, by userId')
      await screenshot(page, 'strategy-form-valid-1280')
    })

    it('saves exactly what the form shows, and returns to the flag page', async () => {
      await save()
      await page.waitForURL(`${ui.url}/projects/demo/flags/${FLAG}`)
      const [strategy, ...others] = await stored()
      expect(others).toEqual([])
      strategyId = strategy.id
      expect(strategy).toEqual({
        id: expect.any(String),
        featureName: FLAG,
        name: 'flexibleRollout',
        title: 'Half of the beta testers',
        disabled: false,
        sortOrder: expect.any(Number),
        parameters: { rollout: '50', stickiness: 'userId', groupId: FLAG },
        constraints: [
          {
            contextName: 'appVersion',
            operator: 'SEMVER_GTE',
            value: '1.2.0',
            inverted: false,
            caseInsensitive: false,
          },
          {
            contextName: 'currentTime',
            operator: 'DATE_AFTER',
            value: '2020-01-01T00:00:00Z',
            inverted: false,
            caseInsensitive: false,
          },
          { contextName: 'age', operator: 'NUM_GTE', value: '18', inverted: false, caseInsensitive: false },
          { contextName: 'email', operator: 'REGEX', value: '@example\\.com$', inverted: false, caseInsensitive: true },
          {
            contextName: 'remoteAddress',
            operator: 'IN_CIDR',
            values: ['10.0.0.0/8'],
            inverted: false,
            caseInsensitive: false,
          },
          { contextName: 'plan', operator: 'STR_STARTS_WITH', values: ['Pro'], inverted: false, caseInsensitive: true },
          { contextName: 'country', operator: 'IN', values: ['NO', 'DK'], inverted: true, caseInsensitive: false },
        ],
        segments: [segmentId],
        variants: [
          {
            name: 'blue',
            weight: 700,
            weightType: 'variable',
            stickiness: 'userId',
            payload: { type: 'json', value: '{"color": "blue"}' },
          },
          {
            name: 'red',
            weight: 300,
            weightType: 'fix',
            stickiness: 'userId',
            payload: { type: 'number', value: '7' },
          },
        ],
      })
      expect(problems).toEqual([])
    })

    it('is what SDKs get: the engine turns it on for a context that matches, off for one that does not', async () => {
      await ui.api('POST', `/api/admin/projects/demo/features/${FLAG}/environments/development/on`)
      const payload = await ui.api('GET', '/api/client/features', undefined, ui.clientToken)
      const engine = createEngine()
      expect(engine.load(payload)).toEqual([])
      const inside = userIdFor(FLAG, 50, true)
      const matching = {
        userId: inside,
        remoteAddress: '10.1.2.3',
        properties: {
          appVersion: '1.10.0',
          age: '30',
          email: 'Ada@EXAMPLE.com',
          plan: 'professional',
          country: 'SE',
          tier: 'beta',
        },
      }
      expect(engine.isEnabled(FLAG, matching)).toBe(true)
      expect(['blue', 'red']).toContain(engine.getVariant(FLAG, matching).name)
      // Each constraint, the segment and the rollout can each turn it off.
      const off: [string, object][] = [
        ['outside the 50%', { userId: userIdFor(FLAG, 50, false) }],
        ['an older version', { properties: { ...matching.properties, appVersion: '1.1.9' } }],
        ['under 18', { properties: { ...matching.properties, age: '17' } }],
        ['another domain', { properties: { ...matching.properties, email: 'ada@example.org' } }],
        ['another network', { remoteAddress: '192.168.1.2' }],
        ['a free plan', { properties: { ...matching.properties, plan: 'free' } }],
        ['in Norway (NOT IN)', { properties: { ...matching.properties, country: 'NO' } }],
        ['not in the segment', { properties: { ...matching.properties, tier: 'stable' } }],
      ]
      for (const [why, change] of off) expect(engine.isEnabled(FLAG, { ...matching, ...change }), why).toBe(false)
      await ui.api('POST', `/api/admin/projects/demo/features/${FLAG}/environments/development/off`)
    })
  })

  describe('editing', () => {
    it('opens the stored strategy from its card, changes it, and saves exactly the changes', async () => {
      await page.goto(`${ui.url}/projects/demo/flags/${FLAG}`)
      const card = page.locator(`[data-environment="development"] [data-strategy="${strategyId}"]`)
      // Segment names arrive with their own request.
      await card.getByText('beta-testers').waitFor()
      const words = await card.innerText()
      for (const part of [
        'Half of the beta testers',
        '50% of users, by userId',
        'appVersion',
        'is at least version',
        '1.2.0',
        'country',
        'NOT',
        'is one of',
        'beta-testers',
        'blue',
        '70%',
        'json payload',
        '30% (fixed)',
      ]) {
        expect(words).toContain(part)
      }
      await screenshot(page, 'strategy-cards-1280')
      await card.getByRole('link', { name: 'Edit Half of the beta testers' }).click()
      await page.waitForURL(`${ui.url}/projects/demo/flags/${FLAG}/strategies/development/${strategyId}/edit`)
      await page.getByRole('heading', { name: 'Edit strategy' }).waitFor()
      expect(await page.getByLabel('Rollout (%)', { exact: true }).inputValue()).toBe('50')
      expect(await page.locator('li.constraint-row').count()).toBe(7)
      expect(await page.getByRole('checkbox', { name: /beta-testers/ }).isChecked()).toBe(true)

      // The slider moves by the keyboard: 50% and five steps right.
      await page.getByLabel('Rollout (%) slider').focus()
      for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight')
      expect(await page.getByLabel('Rollout (%)', { exact: true }).inputValue()).toBe('55')
      await page.getByRole('button', { name: 'Remove constraint 7 on country' }).click()
      await page.getByRole('checkbox', { name: /beta-testers/ }).uncheck()
      await page.locator('li.variant-row').nth(1).getByLabel('Number payload').fill('8')
      await save()
      await page.waitForURL(`${ui.url}/projects/demo/flags/${FLAG}`)
      const [strategy] = await stored()
      expect(strategy.parameters).toEqual({ rollout: '55', stickiness: 'userId', groupId: FLAG })
      expect(strategy.constraints.map((c: { contextName: string }) => c.contextName)).toEqual([
        'appVersion',
        'currentTime',
        'age',
        'email',
        'remoteAddress',
        'plan',
      ])
      expect(strategy.segments).toEqual([])
      expect(strategy.variants[1]).toEqual({
        name: 'red',
        weight: 300,
        weightType: 'fix',
        stickiness: 'userId',
        payload: { type: 'number', value: '8' },
      })
    })

    it("shows the service's refusal in place: a segment deleted while the form was open", async () => {
      const doomed = (await ui.api('POST', '/api/admin/segments', { name: 'short-lived', constraints: [] }))
        .id as number
      await page.goto(`${ui.url}/projects/demo/flags/${FLAG}/strategies/development/${strategyId}/edit`)
      await page.getByRole('checkbox', { name: /short-lived/ }).check()
      await ui.api('DELETE', `/api/admin/segments/${doomed}`)
      await save()
      const note = page.locator('.form-footer .error-note')
      await note.waitFor()
      expect(await note.innerText()).toBe(
        `The service could not accept this: body.segments: segment ${doomed} does not exist.`,
      )
      expect(await page.locator('.segment-choice .field-error').innerText()).toBe(
        `body.segments: segment ${doomed} does not exist.`,
      )
      expect(page.url()).toContain('/edit')
      await page.getByRole('link', { name: 'Cancel' }).click()
      await page.waitForURL(`${ui.url}/projects/demo/flags/${FLAG}`)
      expect((await stored())[0].segments).toEqual([])
    })
  })

  describe('other kinds', () => {
    it('makes a user-id strategy with a constraint by keyboard alone', async () => {
      await newStrategyPage()
      const kind = page.getByLabel('Kind')
      await kind.waitFor()
      // From the first field on, only keys: the kind by arrow keys, values by Enter.
      await kind.focus()
      await page.keyboard.press('ArrowDown')
      await page.keyboard.press('ArrowDown')
      expect(await kind.inputValue()).toBe('userWithId')
      await page.keyboard.press('Tab')
      await page.keyboard.type('Staff')
      await page.keyboard.press('Tab')
      await page.keyboard.press('Tab')
      for (const id of ['alice', 'bob']) {
        await page.keyboard.type(id)
        await page.keyboard.press('Enter')
      }
      await page.keyboard.type('carol')
      await tabTo(page, 'Add constraint')
      await page.keyboard.press('Enter')
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toMatch(/^constraint-\d+-field$/)
      await page.keyboard.type('appName')
      await page.keyboard.press('Tab')
      await page.keyboard.press('Tab')
      await page.keyboard.type('web')
      await page.keyboard.press('Enter')
      await tabTo(page, 'Add strategy')
      await page.keyboard.press('Enter')
      await page.waitForURL(`${ui.url}/projects/demo/flags/${FLAG}`)
      const staff = (await stored()).find((s) => s.title === 'Staff')
      expect(staff).toMatchObject({
        name: 'userWithId',
        parameters: { userIds: 'alice,bob,carol' },
        constraints: [
          { contextName: 'appName', operator: 'IN', values: ['web'], inverted: false, caseInsensitive: false },
        ],
      })
    })

    it('flags addresses the engine would skip, and edits a legacy gradual rollout', async () => {
      await newStrategyPage()
      await page.getByLabel('Kind').selectOption('remoteAddress')
      const ips = page.getByLabel('IP addresses and CIDR ranges')
      await addValue(ips, '10.0.0.0/8')
      await addValue(ips, 'office-router')
      expect(await problemIn(page.locator('.strategy-parameters'))).toContain(
        '"office-router" is not an IP address or CIDR range',
      )
      await save()
      await notSavedNote().waitFor()
      expect((await stored()).some((s) => s.name === 'remoteAddress')).toBe(false)
      await page.getByRole('button', { name: 'Remove address office-router' }).click()
      expect(await notSavedNote().count()).toBe(0)

      const legacy = await ui.api('POST', STRATEGIES, {
        name: 'gradualRolloutSessionId',
        parameters: { percentage: '20', groupId: 'old-group' },
      })
      await page.goto(`${ui.url}/projects/demo/flags/${FLAG}/strategies/development/${legacy.id}/edit`)
      expect(await page.getByLabel('Kind').inputValue()).toBe('gradualRolloutSessionId')
      expect(await page.getByLabel('Percentage (%)', { exact: true }).inputValue()).toBe('20')
      expect(await page.getByLabel('Group ID').inputValue()).toBe('old-group')
      await page.getByLabel('Percentage (%)', { exact: true }).fill('120')
      expect(await problemIn(page.locator('.strategy-parameters'))).toContain('percentage 120 is above 100')
      await page.getByLabel('Percentage (%)', { exact: true }).fill('35')
      await save()
      await page.waitForURL(`${ui.url}/projects/demo/flags/${FLAG}`)
      expect((await ui.api('GET', `${STRATEGIES}/${legacy.id}`)).parameters).toEqual({
        percentage: '35',
        groupId: 'old-group',
      })
      await ui.api('DELETE', `${STRATEGIES}/${legacy.id}`)
    })
  })

  describe('on the flag page', () => {
    const env = () => page.locator('[data-environment="development"]')
    const order = async () => (await stored()).sort((a, b) => a.sortOrder - b.sortOrder).map((s) => s.title)
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))

    it('reorders strategies with the keyboard, focus staying on the moved one', async () => {
      await page.goto(`${ui.url}/projects/demo/flags/${FLAG}`)
      await env().getByRole('button', { name: 'Move Staff up' }).waitFor()
      expect(await order()).toEqual(['Half of the beta testers', 'Staff'])
      await env().getByRole('button', { name: 'Move Staff up' }).focus()
      await page.keyboard.press('Enter')
      await expect.poll(order).toEqual(['Staff', 'Half of the beta testers'])
      // At the top, "up" is disabled: focus is on the way back down.
      await expect.poll(focused).toBe('Move Staff down')
      expect(await env().locator('[data-strategy] h5').allInnerTexts()).toEqual([
        expect.stringContaining('Staff'),
        expect.stringContaining('Half of the beta testers'),
      ])
      await page.keyboard.press('Space')
      await expect.poll(order).toEqual(['Half of the beta testers', 'Staff'])
      await expect.poll(focused).toBe('Move Staff up')
    })

    it('disables and enables a strategy; SDKs do not get a disabled one', async () => {
      const card = env().locator('li.strategy-card').filter({ hasText: 'Staff' })
      await card.getByRole('button', { name: 'Disable Staff' }).click()
      await card.getByText('disabled', { exact: true }).waitFor()
      expect((await stored()).find((s) => s.title === 'Staff').disabled).toBe(true)
      await ui.api('POST', `/api/admin/projects/demo/features/${FLAG}/environments/development/on`)
      const payload = await ui.api('GET', '/api/client/features', undefined, ui.clientToken)
      expect(
        payload.features.find((f: { name: string }) => f.name === FLAG).strategies.map((s: { name: string }) => s.name),
      ).toEqual(['flexibleRollout'])
      await ui.api('POST', `/api/admin/projects/demo/features/${FLAG}/environments/development/off`)
      await screenshot(page, 'strategy-cards-disabled-1280')
      await card.getByRole('button', { name: 'Enable Staff' }).click()
      await card.getByRole('button', { name: 'Disable Staff' }).waitFor()
      expect((await stored()).find((s) => s.title === 'Staff').disabled).toBe(false)
    })

    it('deletes a strategy after a confirmation (cancel keeps it)', async () => {
      const card = env().locator('li.strategy-card').filter({ hasText: 'Staff' })
      await card.getByRole('button', { name: 'Delete Staff' }).click()
      const dialog = page.getByRole('dialog')
      expect(await dialog.innerText()).toContain('Staff is removed from ui-checkout in development')
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      expect(await order()).toEqual(['Half of the beta testers', 'Staff'])
      await card.getByRole('button', { name: 'Delete Staff' }).click()
      await dialog.getByRole('button', { name: 'Delete strategy' }).click()
      await expect.poll(order).toEqual(['Half of the beta testers'])
      await expect.poll(() => env().locator('li.strategy-card').count()).toBe(1)
      expect(problems).toEqual([])
    })
  })

  describe.each([
    ['1280', DESKTOP],
    ['390', MOBILE],
  ] as const)('at %s px', (width, viewport) => {
    it('the form and the cards fit, nothing scrolls sideways', async () => {
      const { page: narrow, problems: seen } = await openPage(browser.browser, ui.url, viewport)
      await signIn(narrow, ui.url, ui.adminToken)
      await narrow.goto(`${ui.url}/projects/demo/flags/${FLAG}/strategies/development/${strategyId}/edit`)
      await narrow.locator('li.constraint-row').first().waitFor()
      await narrow.getByRole('button', { name: 'Add variant' }).click()
      await narrow.locator('li.variant-row').last().getByLabel('Payload', { exact: true }).selectOption('json')
      await expectNoHorizontalScroll(narrow)
      await screenshot(narrow, `strategy-form-${width}`)
      await narrow.goto(`${ui.url}/projects/demo/flags/${FLAG}`)
      await narrow.locator('li.strategy-card').first().waitFor()
      await expectNoHorizontalScroll(narrow)
      await screenshot(narrow, `strategy-cards-${width}`)
      expect(seen).toEqual([])
      await narrow.context().close()
    })
  })
})

/** Presses Tab until the focused element is the button named `name` (at most 60 times). */
async function tabTo(page: Page, name: string): Promise<void> {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab')
    const text = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText?.trim())
    if (text === name) return
  }
  throw new Error(`Tab never reached "${name}"`)
}
