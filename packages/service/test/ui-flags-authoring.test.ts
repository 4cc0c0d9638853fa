// Issue 20: authoring a flag in real headless Chromium against a running service (PGlite in a
// temp folder, the demo seeded): a new flag (its name checked in place, one made with the
// keyboard alone, a name taken meanwhile refused at the field), its page (settings, enabling an
// environment that adds the default strategy, variants with a JSON payload, tags, a parent, and
// archiving), what SDKs then receive, and the pages at 1280 and 390 px.
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

const FLAG = 'checkout-redesign'
const FEATURE = `/api/admin/projects/demo/features/${FLAG}`

describe.runIf(chromiumAvailable())('authoring a flag in the admin UI', () => {
  let ui: UiService
  let browser: LaunchedBrowser
  let page: Page
  let problems: string[]

  const nameField = () => page.getByLabel('Name', { exact: true })
  const env = (name: string) => page.locator(`section.flag-env[data-env="${name}"]`)
  const flag = () => ui.api('GET', FEATURE)

  beforeAll(async () => {
    requireBuiltUi()
    ui = await startUiService()
    ;({ browser, page, problems } = await signedInPage(ui))
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await ui?.close()
  })

  describe('a new flag', () => {
    it('the flags list offers a new flag in its project, and links each flag to its page', async () => {
      await page.goto(`${ui.url}/flags`)
      await expect.poll(() => page.getByLabel('Project').inputValue()).toBe('demo')
      expect(await page.getByRole('link', { name: 'New flag' }).getAttribute('href')).toBe('/flags/new?project=demo')
      expect(await page.getByRole('link', { name: 'welcome-banner', exact: true }).getAttribute('href')).toBe(
        '/projects/demo/flags/welcome-banner',
      )
      await page.getByRole('link', { name: 'New flag' }).click()
      await page.waitForURL(`${ui.url}/flags/new?project=demo`)
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('New flag')
      expect(await page.getByLabel('Project').inputValue()).toBe('demo')
    })

    it('checks the name in place: its form at once, whether it is taken once typing pauses', async () => {
      await nameField().fill('new checkout')
      expect(await page.locator('#flag-name-error').innerText()).toBe(
        'Name must be URL-friendly: letters, digits, "-", ".", "_" and "~" (no spaces).',
      )
      await page.getByRole('button', { name: 'Create flag' }).click()
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('flag-name')

      await nameField().fill('welcome-banner')
      await expect
        .poll(() => page.locator('#flag-name-error').innerText())
        .toBe('A flag named "welcome-banner" already exists (it may be archived).')
      expect(await nameField().getAttribute('aria-invalid')).toBe('true')
      await screenshot(page, 'flag-new-taken-1280')
      await page.getByRole('button', { name: 'Create flag' }).click()
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('flag-name')

      await nameField().fill(FLAG)
      await expect.poll(() => page.locator('#flag-name-hint').innerText()).toBe(`✓ ${FLAG} is free.`)
      expect(await page.locator('#flag-name-error').count()).toBe(0)
      expect(
        (await ui.api('GET', '/api/admin/projects/demo/features')).features.map((f: { name: string }) => f.name),
      ).not.toContain(FLAG)
    })

    it("shows the service's refusal at the name when the name was taken after it was checked", async () => {
      await page.goto(`${ui.url}/flags/new?project=demo`)
      await nameField().fill('taken-meanwhile')
      await expect.poll(() => page.locator('#flag-name-hint').innerText()).toBe('✓ taken-meanwhile is free.')
      await ui.api('POST', '/api/admin/projects/default/features', { name: 'taken-meanwhile' })
      await page.getByRole('button', { name: 'Create flag' }).click()
      await expect
        .poll(() => page.locator('#flag-name-error').innerText())
        .toBe('A flag named "taken-meanwhile" already exists (it may be archived).')
      expect(await page.locator('.form-footer [role="alert"]').innerText()).toMatch(/^That name is taken:/)
      expect(page.url()).toBe(`${ui.url}/flags/new?project=demo`)
    })

    it('creates a flag with the keyboard alone, and opens its page', async () => {
      await page.goto(`${ui.url}/flags/new?project=demo`)
      // The name field has focus on arrival.
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('flag-name')
      await page.keyboard.type(FLAG)
      await page.keyboard.press('Tab')
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('flag-type')
      await page.keyboard.type('Experiment')
      await page.keyboard.press('Tab')
      await page.keyboard.type('A new checkout, one page')
      await page.keyboard.press('Tab')
      await page.keyboard.press('Space')
      await page.keyboard.press('Tab')
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Create flag')
      await screenshot(page, 'flag-new-keyboard-1280')
      await page.keyboard.press('Enter')
      await page.waitForURL(`${ui.url}/projects/demo/flags/${FLAG}`)
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(FLAG)
      expect(await flag()).toMatchObject({
        name: FLAG,
        project: 'demo',
        type: 'experiment',
        description: 'A new checkout, one page',
        impressionData: true,
        stale: false,
      })
      expect((await flag()).environments.map((e: { enabled: boolean }) => e.enabled)).toEqual([false, false])
    })

    it('the list shows it, and its name opens its page', async () => {
      await page.getByRole('link', { name: 'Flags › demo' }).click()
      await page.waitForURL(`${ui.url}/flags?project=demo`)
      const row = page.locator(`tr.flag-row[data-flag="${FLAG}"]`)
      await row.waitFor()
      expect(await row.innerText()).toContain('experiment')
      await row.getByRole('link', { name: FLAG }).click()
      await page.waitForURL(`${ui.url}/projects/demo/flags/${FLAG}`)
      expect(await page.locator('.flag-header').innerText()).toMatch(/experiment\s*impression data/)
      expect(await page.locator('.flag-lead').innerText()).toBe('A new checkout, one page')
    })
  })

  describe('its page', () => {
    it('edits the description, the type and impression data, and marks it stale and back', async () => {
      await page.getByLabel('Description', { exact: true }).fill('The one-page checkout')
      await page.getByLabel('Type', { exact: true }).selectOption('operational')
      await page.getByLabel(/^Impression data/).uncheck()
      await page.getByRole('button', { name: 'Save settings' }).click()
      await page.getByText('Saved.').waitFor()
      expect(await flag()).toMatchObject({
        description: 'The one-page checkout',
        type: 'operational',
        impressionData: false,
      })
      expect(await page.locator('.flag-header').innerText()).not.toContain('impression data')
      expect(await page.locator('.flag-lead').innerText()).toBe('The one-page checkout')
      expect(await page.getByRole('button', { name: 'Save settings' }).isDisabled()).toBe(true)

      await page.getByRole('button', { name: 'Mark stale' }).click()
      await page.locator('.flag-header .badge', { hasText: 'stale' }).waitFor()
      expect((await flag()).stale).toBe(true)
      await page.getByRole('button', { name: 'Not stale' }).click()
      await page.getByRole('button', { name: 'Mark stale' }).waitFor()
      expect((await flag()).stale).toBe(false)
    })

    it('says what enabling an environment with no strategy adds, then adds it', async () => {
      const development = env('development')
      expect(await development.locator('.flag-default-strategy').innerText()).toBe(
        "Turning it on here adds the project's default strategy: Gradual rollout (rollout 100%, stickiness default).",
      )
      await screenshot(page, 'flag-page-new-1280')
      await page.getByRole('switch', { name: `${FLAG} in development` }).click()
      await expect
        .poll(() => page.getByRole('switch', { name: `${FLAG} in development` }).getAttribute('aria-checked'))
        .toBe('true')
      await development.locator('.flag-default-strategy').waitFor({ state: 'detached' })
      const development2 = (await flag()).environments.find((e: { name: string }) => e.name === 'development')
      expect(development2.enabled).toBe(true)
      expect(development2.strategies).toMatchObject([
        { name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: FLAG } },
      ])
      await development.locator('.strategy-box', { hasText: 'Gradual rollout' }).waitFor()
      expect(await development.locator('.strategy-box').count()).toBe(1)
      // Production is untouched and still says what it would add.
      expect(await env('production').locator('.flag-default-strategy').count()).toBe(1)
    })

    it('adds variants with a JSON payload: invalid JSON and a bad number are flagged before saving', async () => {
      const development = env('development')
      await development.getByRole('button', { name: 'Add variants in development' }).click()
      await page.locator('#variants-development-0-name').fill('blue')
      await page.locator('#variants-development-0-payload-type').selectOption('json')
      await page.locator('#variants-development-0-payload').fill('{"color": "blue"')
      await expect
        .poll(() => page.locator('#variants-development-0-payload-error').innerText())
        .toMatch(/^Not valid JSON: /)
      await page.getByRole('button', { name: 'Save variants' }).click()
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('variants-development-0-payload')
      expect((await ui.api('GET', `${FEATURE}/environments/development/variants`)).variants).toEqual([])
      await page.locator('#variants-development-0-payload').fill('{"color": "blue"}')
      expect(await page.locator('#variants-development-0-payload-error').count()).toBe(0)

      await page.getByRole('button', { name: 'Add variant', exact: true }).click()
      await page.locator('#variants-development-1-name').fill('green')
      await page.locator('#variants-development-1-payload-type').selectOption('number')
      await page.locator('#variants-development-1-payload').fill('forty')
      expect(await page.locator('#variants-development-1-payload-error').innerText()).toBe(
        'Not a number: SDKs read this payload as one, such as 42 or 0.5.',
      )
      await page.locator('#variants-development-1-payload').fill('42')
      await development.locator('[data-variant="1"]').getByLabel('Custom percentage').check()
      await page.locator('#variants-development-1-percentage').fill('130')
      expect(await page.locator('#variants-development-1-percentage-error').innerText()).toBe(
        'A percentage from 0 to 100, with at most one decimal (like 33.3).',
      )
      await page.locator('#variants-development-1-percentage').fill('30')
      expect(await development.locator('[data-variant="0"] .fv-share').innerText()).toBe(
        'Gets 70%: a share of what the custom percentages leave.',
      )
      await development.getByRole('button', { name: 'Add override to variant 2' }).click()
      await page.locator('#variants-development-1-override-0-values').fill('alice, bob')
      await page.getByLabel('Stickiness').selectOption('userId')
      await screenshot(page, 'flag-variants-editor-1280')
      await page.getByRole('button', { name: 'Save variants' }).click()

      await development.locator('.fv-list').waitFor()
      expect(await development.locator('.fv-list li').allInnerTexts()).toEqual([
        expect.stringMatching(/^blue\s*70%\s*json\s*{"color": "blue"}$/),
        expect.stringMatching(/^green\s*30%\s*fixed\s*number\s*42\s*userId = alice, bob$/),
      ])
      expect((await ui.api('GET', `${FEATURE}/environments/development/variants`)).variants).toEqual([
        {
          name: 'blue',
          weight: 700,
          weightType: 'variable',
          stickiness: 'userId',
          payload: { type: 'json', value: '{"color": "blue"}' },
        },
        {
          name: 'green',
          weight: 300,
          weightType: 'fix',
          stickiness: 'userId',
          payload: { type: 'number', value: '42' },
          overrides: [{ contextName: 'userId', values: ['alice', 'bob'] }],
        },
      ])
      expect((await ui.api('GET', `${FEATURE}/environments/production/variants`)).variants).toEqual([])
    })

    it('the flag reaches SDKs with those variants', async () => {
      const response = await fetch(`${ui.url}/api/client/features`, { headers: { authorization: ui.clientToken } })
      expect(response.status).toBe(200)
      const sent = (await response.json()).features.find((f: { name: string }) => f.name === FLAG)
      expect(sent).toMatchObject({
        name: FLAG,
        type: 'operational',
        enabled: true,
        strategies: [{ name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: FLAG } }],
        variants: [
          {
            name: 'blue',
            weight: 700,
            weightType: 'variable',
            stickiness: 'userId',
            payload: { type: 'json', value: '{"color": "blue"}' },
          },
          {
            name: 'green',
            weight: 300,
            weightType: 'fix',
            stickiness: 'userId',
            payload: { type: 'number', value: '42' },
            overrides: [{ contextName: 'userId', values: ['alice', 'bob'] }],
          },
        ],
      })
    })

    it('adds and removes a tag; a short value and a tag already on the flag are refused in place', async () => {
      const tags = page.locator('#tags')
      expect(await tags.getByLabel('Tag type').inputValue()).toBe('simple')
      await tags.getByLabel('Value', { exact: true }).fill('x')
      expect(await page.locator('#tag-value-error').innerText()).toBe('A tag value is 2 to 50 characters.')
      // Keyboard: Enter in the value field adds the tag.
      await tags.getByLabel('Value', { exact: true }).fill('checkout')
      await tags.getByLabel('Value', { exact: true }).press('Enter')
      await tags.locator('[data-tag="simple:checkout"]').waitFor()
      expect((await ui.api('GET', `/api/admin/features/${FLAG}/tags`)).tags).toEqual([
        { type: 'simple', value: 'checkout' },
      ])

      await tags.getByLabel('Value', { exact: true }).fill('checkout')
      await tags.getByRole('button', { name: 'Add tag' }).click()
      await expect
        .poll(() => tags.getByRole('alert').innerText())
        .toBe(`That name is taken: "${FLAG}" already has the tag "simple:checkout".`)
      await screenshot(page, 'flag-tags-1280')

      await tags.getByRole('button', { name: 'Remove tag simple:checkout' }).click()
      await tags.locator('[data-tag="simple:checkout"]').waitFor({ state: 'detached' })
      expect(await tags.getByRole('alert').count()).toBe(0)
      expect((await ui.api('GET', `/api/admin/features/${FLAG}/tags`)).tags).toEqual([])
    })

    it('adds a parent with one of its variants, and removes it', async () => {
      const dependencies = page.locator('#dependencies')
      await dependencies.getByRole('button', { name: 'Add dependency' }).click()
      expect(await page.locator('#dependency-parent-error').innerText()).toBe('Choose the parent flag.')
      await dependencies.getByLabel('Parent flag', { exact: true }).selectOption('new-checkout')
      // new-checkout's strategy variants are offered.
      await dependencies.getByLabel('one-page').check()
      await dependencies.getByRole('button', { name: 'Add dependency' }).click()
      await dependencies.locator('.flag-dependency[data-parent="new-checkout"]').waitFor()
      expect(await dependencies.locator('.flag-dependency p').innerText()).toBe(
        'On only when new-checkout is enabled with the variant one-page in the same environment.',
      )
      expect((await flag()).dependencies).toEqual([{ feature: 'new-checkout', enabled: true, variants: ['one-page'] }])
      await screenshot(page, 'flag-dependency-1280')

      await dependencies.getByRole('button', { name: 'Remove the dependency on new-checkout' }).click()
      await dependencies.getByText('No parent: the flag does not depend on another.').waitFor()
      expect((await flag()).dependencies).toEqual([])
    })

    it("shows the service's refusal of a parent in place: a flag with children can not have one", async () => {
      await ui.api('POST', '/api/admin/projects/demo/features', { name: 'redesign-child' })
      await ui.api('POST', '/api/admin/projects/demo/features/redesign-child/dependencies', {
        feature: FLAG,
        enabled: false,
      })
      await page.reload()
      const dependencies = page.locator('#dependencies')
      await dependencies.locator('.flag-children').waitFor()
      expect(await dependencies.locator('.flag-children').innerText()).toContain('Parent of redesign-child.')
      // Keyboard only: type-ahead in the selects, Tab, Enter. The parents offered load after the flag.
      await dependencies
        .getByLabel('Parent flag', { exact: true })
        .locator('option', { hasText: 'welcome-banner' })
        .waitFor({ state: 'attached' })
      await dependencies.getByLabel('Parent flag', { exact: true }).focus()
      await page.keyboard.type('welcome-banner')
      expect(await dependencies.getByLabel('Parent flag', { exact: true }).inputValue()).toBe('welcome-banner')
      await page.keyboard.press('Tab')
      await page.keyboard.type('Disabled')
      expect(await dependencies.getByLabel('Wanted state of the parent').inputValue()).toBe('disabled')
      await page.keyboard.press('Tab')
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Add dependency')
      await page.keyboard.press('Enter')
      await expect
        .poll(() => dependencies.getByRole('alert').innerText())
        .toBe(`Not allowed: "${FLAG}" has children, so it can not have a parent.`)
      expect((await flag()).dependencies).toEqual([])
    })

    it('archives it after a confirmation, back to the list; its page then says it is archived', async () => {
      await page.getByRole('button', { name: 'Archive flag' }).click()
      const dialog = page.getByRole('dialog', { name: `Archive ${FLAG}?` })
      await dialog.waitFor()
      expect(await dialog.innerText()).toContain('redesign-child')
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      await dialog.waitFor({ state: 'hidden' })
      await page.getByRole('button', { name: 'Archive flag' }).click()
      await dialog.getByRole('button', { name: 'Archive flag' }).click()
      await page.waitForURL(`${ui.url}/flags?project=demo`)
      await page.locator('tr.flag-row').first().waitFor()
      expect(await page.locator(`tr.flag-row[data-flag="${FLAG}"]`).count()).toBe(0)
      expect(
        (await ui.api('GET', '/api/admin/archive/features/demo')).features.map((f: { name: string }) => f.name),
      ).toContain(FLAG)

      await page.goto(`${ui.url}/projects/demo/flags/${FLAG}`)
      const notice = page.locator('.archived-notice')
      await notice.waitFor()
      expect(await notice.innerText()).toBe(
        'This flag is archived: SDKs no longer receive it. Revive it or delete it for good in the archive.',
      )
      expect(await notice.getByRole('link', { name: 'archive' }).getAttribute('href')).toBe('/archive')
      await page.goto(`${ui.url}/projects/demo/flags/no-such-flag`)
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Flag not found')
    })
  })

  it('nothing failed in the page: no script error, no 5xx, no request off the service', () => {
    expect(problems).toEqual([])
  })

  describe('at 1280 and 390 px wide', () => {
    it.each([
      ['1280', DESKTOP],
      ['390', MOBILE],
    ] as const)('at %s px: the new flag form and a flag page with its variants editor fit', async (width, viewport) => {
      const view = await openPage(browser.browser, ui.url, viewport)
      await signIn(view.page, ui.url, ui.adminToken)
      await view.page.goto(`${ui.url}/flags/new?project=demo`)
      await view.page.getByLabel('Name', { exact: true }).fill('welcome-banner')
      await view.page.locator('#flag-name-error').waitFor()
      await expectNoHorizontalScroll(view.page)
      await screenshot(view.page, `flag-new-${width}`)

      await view.page.goto(`${ui.url}/projects/demo/flags/theme`)
      await view.page.locator('section.flag-env').first().waitFor()
      await view.page.locator('.loading').waitFor({ state: 'detached' })
      await expectNoHorizontalScroll(view.page)
      await screenshot(view.page, `flag-page-${width}`)
      await view.page.getByRole('button', { name: 'Edit variants in development' }).click()
      await view.page.getByRole('button', { name: 'Add override to variant 1' }).click()
      await view.page.locator('#variants-development-0-payload').fill('{"background": ')
      await view.page.locator('#variants-development-0-payload-error').waitFor()
      await expectNoHorizontalScroll(view.page)
      await screenshot(view.page, `flag-variants-editor-${width}`)
      expect(view.problems).toEqual([])
      await view.page.context().close()
    })
  })
})
