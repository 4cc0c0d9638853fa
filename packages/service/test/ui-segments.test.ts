// Issue 20: segments in real headless Chromium against a running service (PGlite in a temp
// folder, the demo seeded): the list in words with its search and where each segment is used,
// linking to the flags; creating one (a literal the engine would reject flagged and not saved, a
// taken name refused in place), by keyboard too; editing; a strategy using it evaluated by the
// engine; deleting, refused while in use; both widths.
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
import { addConstraint, problemIn } from './helpers/ui-strategies-page.js'

describe.runIf(chromiumAvailable())('segments in headless Chromium', () => {
  let ui: UiService
  let browser: LaunchedBrowser
  let page: Page
  let problems: string[]

  const segments = async () => (await ui.api('GET', '/api/admin/segments')).segments as any[]
  const byName = async (name: string) => (await segments()).find((s) => s.name === name)
  const row = (name: string) => page.locator(`li.segment-row[data-segment="${name}"]`)
  const notSavedNote = () => page.locator('[data-error="problems"]')

  beforeAll(async () => {
    requireBuiltUi()
    ui = await startUiService()
    ;({ browser, page, problems } = await signedInPage(ui))
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await ui?.close()
  })

  it('lists each segment in words, and where it is used, linking to the flag', async () => {
    await page.goto(`${ui.url}/segments`)
    await row('demo-pro-plans').waitFor()
    const text = await row('demo-pro-plans').innerText()
    for (const part of [
      'demo-pro-plans',
      'project demo',
      'Users on a paid plan',
      'plan',
      'is one of',
      'pro',
      'enterprise',
      'Used by 1 flag',
    ])
      expect(text).toContain(part)
    await row('demo-pro-plans').getByText('Used by 1 flag').click()
    const use = row('demo-pro-plans').locator('.uses li')
    await use.first().waitFor()
    expect(await use.allInnerTexts()).toEqual(['new-checkout in development (demo · flexibleRollout)'])
    await screenshot(page, 'segments-list-1280')
    await use.getByRole('link', { name: 'new-checkout' }).click()
    await page.waitForURL(`${ui.url}/projects/demo/flags/new-checkout`)
  })

  it('creates a segment: a version the engine would reject is flagged and not saved; a taken name is refused in place', async () => {
    await page.goto(`${ui.url}/segments`)
    await page.getByRole('link', { name: 'New segment' }).click()
    await page.waitForURL(`${ui.url}/segments/new`)
    await page.getByRole('button', { name: 'Create segment' }).click()
    await notSavedNote().waitFor()
    expect(await notSavedNote().innerText()).toContain('Name the segment, such as beta-testers.')

    await page.getByLabel('Name').fill('demo-pro-plans')
    await page.getByLabel('Description (optional)').fill('Nordic customers on a recent app')
    await page.getByLabel('Project').selectOption('demo')
    await addConstraint(page, { field: 'country', operator: 'IN', values: ['SE', 'NO'] })
    const version = await addConstraint(page, { field: 'appVersion', operator: 'SEMVER_GTE', value: '2' })
    expect(await problemIn(version)).toContain('"2" is not a valid semantic version')
    await page.getByRole('button', { name: 'Create segment' }).click()
    expect(await notSavedNote().innerText()).toContain('Not saved: one thing to fix first.')
    expect(await byName('demo-pro-plans').then((s) => s.description)).toBe('Users on a paid plan')
    await version.getByLabel('Value', { exact: true }).fill('2.0.0')
    expect(await notSavedNote().count()).toBe(0)

    await page.getByRole('button', { name: 'Create segment' }).click()
    const nameError = page.locator('#segment-name-error')
    await nameError.waitFor()
    expect(await nameError.innerText()).toBe('A segment named "demo-pro-plans" already exists.')
    expect(await page.locator('.form-footer .error-note').innerText()).toBe(
      'That name is taken: A segment named "demo-pro-plans" already exists.',
    )
    await screenshot(page, 'segment-form-errors-1280')

    await page.getByLabel('Name').fill('nordic-recent')
    await page.getByRole('button', { name: 'Create segment' }).click()
    await page.waitForURL(`${ui.url}/segments`)
    const created = await byName('nordic-recent')
    expect(created).toMatchObject({
      name: 'nordic-recent',
      description: 'Nordic customers on a recent app',
      project: 'demo',
      constraints: [
        { contextName: 'country', operator: 'IN', values: ['SE', 'NO'], inverted: false, caseInsensitive: false },
        { contextName: 'appVersion', operator: 'SEMVER_GTE', value: '2.0.0', inverted: false, caseInsensitive: false },
      ],
    })
    expect(await row('nordic-recent').innerText()).toContain('Not used by any strategy.')
  })

  it('searches by name or description, kept in the address', async () => {
    await page.getByLabel('Search').fill('nordic')
    await expect.poll(() => page.locator('li.segment-row').count()).toBe(1)
    expect(await page.locator('.table-caption').innerText()).toBe('1 of 2 segments match "nordic"')
    expect(page.url()).toContain('q=nordic')
    await page.getByLabel('Search').fill('paid plan')
    await expect
      .poll(() => page.locator('li.segment-row').allInnerTexts())
      .toEqual([expect.stringContaining('demo-pro-plans')])
    await page.getByLabel('Search').fill('')
    await expect.poll(() => page.locator('li.segment-row').count()).toBe(2)
  })

  it('edits a segment, and a strategy using it follows: the engine evaluates the new constraints', async () => {
    const segment = await byName('nordic-recent')
    await ui.api('POST', '/api/admin/projects/demo/features/welcome-banner/environments/development/strategies', {
      name: 'default',
      segments: [segment.id],
    })
    await page.goto(`${ui.url}/segments`)
    await row('nordic-recent').getByRole('link', { name: 'Edit nordic-recent' }).click()
    await page.waitForURL(`${ui.url}/segments/${segment.id}/edit`)
    await page.locator('li.constraint-row').first().waitFor()
    expect(await page.locator('.notice').innerText()).toBe(
      '1 strategy uses this segment: what you save here applies to it at once.',
    )
    const country = page.locator('li.constraint-row').first()
    await country.getByRole('button', { name: 'Remove value NO' }).click()
    await country.getByRole('checkbox', { name: /NOT/ }).check()
    await page.getByRole('button', { name: 'Remove constraint 2 on appVersion' }).click()
    await page.getByRole('button', { name: 'Save segment' }).click()
    await page.waitForURL(`${ui.url}/segments`)
    expect((await byName('nordic-recent')).constraints).toEqual([
      { contextName: 'country', operator: 'IN', values: ['SE'], inverted: true, caseInsensitive: false },
    ])

    // welcome-banner now has the standard strategy for every context, and one in the segment:
    // remove the first so that only the segment decides.
    const strategies = await ui.api(
      'GET',
      '/api/admin/projects/demo/features/welcome-banner/environments/development/strategies',
    )
    for (const s of strategies.filter((x: { segments: number[] }) => x.segments.length === 0)) {
      await ui.api(
        'DELETE',
        `/api/admin/projects/demo/features/welcome-banner/environments/development/strategies/${s.id}`,
      )
    }
    const engine = createEngine()
    expect(engine.load(await ui.api('GET', '/api/client/features', undefined, ui.clientToken))).toEqual([])
    expect(engine.isEnabled('welcome-banner', { properties: { country: 'NO' } })).toBe(true)
    expect(engine.isEnabled('welcome-banner', { properties: { country: 'SE' } })).toBe(false)
  })

  it('refuses to delete a segment in use, in the dialog; deletes it once unused', async () => {
    await page.goto(`${ui.url}/segments`)
    await row('nordic-recent').getByRole('button', { name: 'Delete nordic-recent' }).click()
    const dialog = page.getByRole('dialog')
    expect(await dialog.innerText()).toContain('the service refuses to delete it until they stop')
    await dialog.getByRole('button', { name: 'Delete segment' }).click()
    await dialog.locator('.error-note').waitFor()
    expect(await dialog.locator('.error-note').innerText()).toMatch(
      /^This conflicts with something else: Segment \d+ is used by 1 flag\(s\); remove it from their strategies first\.$/,
    )
    await screenshot(page, 'segment-delete-refused-1280')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    expect(await byName('nordic-recent')).toBeDefined()

    const segment = await byName('nordic-recent')
    const strategies = await ui.api(
      'GET',
      '/api/admin/projects/demo/features/welcome-banner/environments/development/strategies',
    )
    for (const s of strategies)
      await ui.api(
        'PUT',
        `/api/admin/projects/demo/features/welcome-banner/environments/development/strategies/${s.id}`,
        { ...s, segments: s.segments.filter((id: number) => id !== segment.id) },
      )
    await page.reload()
    await row('nordic-recent').getByText('Not used by any strategy.').waitFor()
    await row('nordic-recent').getByRole('button', { name: 'Delete nordic-recent' }).click()
    await dialog.getByRole('button', { name: 'Delete segment' }).click()
    await expect.poll(() => row('nordic-recent').count()).toBe(0)
    expect(await byName('nordic-recent')).toBeUndefined()
    expect(problems).toEqual([])
  })

  it('creates a segment by keyboard alone', async () => {
    await page.goto(`${ui.url}/segments/new`)
    await page.getByLabel('Name').focus()
    await page.keyboard.type('internal')
    await page.keyboard.press('Tab')
    // The project select: "All projects", then the first project by arrow key.
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Tab')
    await page.keyboard.type('Our own people')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toMatch(/^constraint-\d+-field$/)
    await page.keyboard.type('email')
    await page.keyboard.press('Tab')
    await page.keyboard.type('ends')
    await page.keyboard.press('Tab')
    await page.keyboard.type('@example.com')
    await page.keyboard.press('Enter')
    // Past NOT to Ignore case.
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Space')
    for (
      let i = 0;
      i < 10 && (await page.evaluate(() => (document.activeElement as HTMLElement).innerText)) !== 'Create segment';
      i++
    )
      await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await page.waitForURL(`${ui.url}/segments`)
    expect(await byName('internal')).toMatchObject({
      description: 'Our own people',
      constraints: [
        {
          contextName: 'email',
          operator: 'STR_ENDS_WITH',
          values: ['@example.com'],
          inverted: false,
          caseInsensitive: true,
        },
      ],
    })
  })

  describe.each([
    ['1280', DESKTOP],
    ['390', MOBILE],
  ] as const)('at %s px', (width, viewport) => {
    it('the list and the form fit, nothing scrolls sideways', async () => {
      const { page: narrow, problems: seen } = await openPage(browser.browser, ui.url, viewport)
      await signIn(narrow, ui.url, ui.adminToken)
      await narrow.goto(`${ui.url}/segments`)
      await narrow.locator('li.segment-row').first().waitFor()
      await narrow.getByText('Used by 1 flag').click()
      await narrow.locator('.uses li').first().waitFor()
      await expectNoHorizontalScroll(narrow)
      await screenshot(narrow, `segments-list-${width}`)
      const internal = (await byName('internal')).id
      await narrow.goto(`${ui.url}/segments/${internal}/edit`)
      await narrow.locator('li.constraint-row').first().waitFor()
      await expectNoHorizontalScroll(narrow)
      await screenshot(narrow, `segment-form-${width}`)
      expect(seen).toEqual([])
      await narrow.context().close()
    })
  })
})
