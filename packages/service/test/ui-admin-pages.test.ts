// Issue 20, the admin pages end to end in real headless Chromium against a running service
// (PGlite in a temp folder, the demo seeded): API tokens of each type (the secret shown once,
// working, refused once revoked), projects and environments (a project environment's default
// strategy set to 25% and used when a flag is turned on there), the archive (revive, delete for
// good), errors in place, keyboard-only token creation, and every page at 1280 and 390 px.
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

/** Presses Tab until the focused element matches `selector` (keyboard-only use: no clicks, no focus()). */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let i = 0; i < 60; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return
    await page.keyboard.press('Tab')
  }
  throw new Error(`Tab never reached ${selector}`)
}

const focused = (page: Page) =>
  page.evaluate(() => ({ id: document.activeElement?.id, class: document.activeElement?.className ?? '' }))

describe.runIf(chromiumAvailable())('the admin pages in headless Chromium', () => {
  let ui: UiService
  let browser: LaunchedBrowser
  let page: Page
  let problems: string[]
  /** Secrets shown by the UI, each of which must never appear again. */
  const secrets: Record<string, string> = {}

  const tokenRow = (name: string) => page.locator(`li.token-row[data-token="${name}"]`)
  const clientFeatures = (token: string) =>
    fetch(`${ui.url}/api/client/features`, { headers: { authorization: token } })

  /** Fills and sends the token form with the mouse; returns the secret it shows. */
  async function createToken(
    name: string,
    type: 'Client' | 'Frontend' | 'Admin',
    options: { projects?: string[]; environment?: string } = {},
  ) {
    await page.getByLabel('Name', { exact: true }).fill(name)
    await page.getByRole('radio', { name: new RegExp(`^${type} —`) }).check()
    if (options.projects) {
      await page.getByRole('radio', { name: 'Only these:' }).check()
      for (const project of options.projects) await page.locator(`.project-checks input[value="${project}"]`).check()
    }
    if (options.environment) await page.getByLabel('Environment', { exact: true }).selectOption(options.environment)
    await page.getByRole('button', { name: 'Create token' }).click()
    // The secret of the token made before may still be on the page: read the one named for this token.
    const secret = await page
      .getByRole('region', { name: `Secret of the token ${name}` })
      .getByTestId('token-secret')
      .innerText()
    secrets[name] = secret
    return secret
  }

  beforeAll(async () => {
    requireBuiltUi()
    ui = await startUiService()
    ;({ browser, page, problems } = await signedInPage(ui))
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await ui?.close()
  })

  describe('API tokens', () => {
    it('creates a client token: the secret shown once with a copy button and the lines an SDK needs; it works', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API tokens' }).click()
      await page.waitForURL(`${ui.url}/api-tokens`)
      await tokenRow('demo-client').waitFor()
      const secret = await createToken('checkout-service', 'Client', { environment: 'development' })
      expect(secret).toMatch(/^\*:development\.[0-9a-f]{56}$/)

      const shown = page.getByRole('region', { name: 'Secret of the token checkout-service' })
      expect(await shown.innerText()).toContain('you will not see it again')
      expect(await page.getByTestId('token-example').allInnerTexts()).toEqual([
        `UNLEASH_URL=${ui.url}/api\nUNLEASH_API_TOKEN='${secret}'`,
        `curl -H 'Authorization: ${secret}' '${ui.url}/api/client/features'`,
      ])
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.classList.contains('token-secret')))
        .toBe(true)
      await page.getByRole('button', { name: 'Copy token secret' }).click()
      await expect.poll(() => page.getByRole('button', { name: 'Copy token secret' }).innerText()).toBe('Copied')
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret)
      await screenshot(page, 'admin-token-client-secret-1280')

      expect((await clientFeatures(secret)).status).toBe(200)
      const listed = (await ui.api('GET', '/api/admin/api-tokens')).tokens.find(
        (t: { tokenName: string }) => t.tokenName === 'checkout-service',
      )
      expect(listed).toMatchObject({ type: 'client', environment: 'development', projects: ['*'], expiresAt: null })
    })

    it('the list shows no secret: after "I have copied it", and after a reload, the secret is nowhere in the page', async () => {
      const secret = secrets['checkout-service'] as string
      await page.getByRole('button', { name: 'I have copied it' }).click()
      expect(await page.content()).not.toContain(secret)
      await page.reload()
      await tokenRow('checkout-service').waitFor()
      expect(await page.content()).not.toContain(secret)
      const facts = await tokenRow('checkout-service').locator('.facts').innerText()
      expect(facts).toContain(`${secret.slice(0, '*:development.'.length + 4)}…`)
      expect(facts).toMatch(/Projects\s+all\s+Environment\s+development/)
      expect(facts).not.toContain('not yet') // last used: by the fetch above
    })

    it('creates a frontend token for chosen projects and an admin token, each with its own example', async () => {
      // The proxy's address as `vexil start` tells it (PROXY_URL otherwise): the snippets name it.
      const proxy = 'http://127.0.0.1:3999'
      ui.service.announceProxy({ url: proxy, clientKey: 'proxy-client-key' })
      const frontend = await createToken('web-shop', 'Frontend', { projects: ['demo'], environment: 'production' })
      expect(frontend).toMatch(/^demo:production\.[0-9a-f]{56}$/)
      expect(await page.getByTestId('token-example').allInnerTexts()).toEqual([
        `curl -H 'Authorization: ${frontend}' '${proxy}/api/frontend?userId=42'`,
        `new UnleashClient({ url: '${proxy}/api/frontend', clientKey: '${frontend}', appName: 'my-app' })`,
      ])
      await screenshot(page, 'admin-token-frontend-secret-1280')

      // An admin token has no project or environment: the form stops asking for them.
      await page.getByRole('radio', { name: /^Admin —/ }).check()
      expect(await page.getByLabel('Environment', { exact: true }).count()).toBe(0)
      expect(await page.getByRole('group', { name: 'Projects' }).count()).toBe(0)
      const admin = await createToken('deploy-script', 'Admin')
      expect(admin).toMatch(/^\*:\*\.[0-9a-f]{56}$/)
      expect(await page.getByTestId('token-example').allInnerTexts()).toEqual([
        `curl -H 'Authorization: ${admin}' '${ui.url}/api/admin/projects'`,
      ])
      expect((await fetch(`${ui.url}/api/admin/projects`, { headers: { authorization: admin } })).status).toBe(200)

      const tokens = (await ui.api('GET', '/api/admin/api-tokens')).tokens as { tokenName: string }[]
      expect(tokens.find((t) => t.tokenName === 'web-shop')).toMatchObject({
        type: 'frontend',
        environment: 'production',
        projects: ['demo'],
      })
      expect(tokens.find((t) => t.tokenName === 'deploy-script')).toMatchObject({
        type: 'admin',
        environment: '*',
        projects: ['*'],
      })
      expect(await tokenRow('web-shop').locator('.facts').innerText()).toMatch(
        /Projects\s+demo\s+Environment\s+production/,
      )
      expect(await tokenRow('demo-admin').locator('.badge', { hasText: 'you are signed in with it' }).count()).toBe(1)

      await page.reload()
      await tokenRow('deploy-script').waitFor()
      const html = await page.content()
      for (const secret of Object.values(secrets)) expect(html).not.toContain(secret)
      expect(html).not.toContain(ui.adminToken)
    })

    it('shows a bad create in place: missing fields at the fields, a refusal of the service at the form', async () => {
      await page.getByLabel('Name', { exact: true }).fill('')
      await page.getByRole('radio', { name: /^Client —/ }).check()
      await page.getByRole('radio', { name: 'Only these:' }).check()
      await page.getByRole('button', { name: 'Create token' }).click()
      expect(await page.locator('#token-name-error').innerText()).toBe('Token name is required.')
      expect(await page.locator('#token-projects-error').innerText()).toBe(
        'Choose at least one project, or all projects.',
      )
      expect((await focused(page)).id).toBe('token-name')
      await page.getByLabel('Expires', { exact: true }).selectOption('date')
      await page.getByRole('button', { name: 'Create token' }).click()
      expect(await page.locator('#token-date-error').innerText()).toBe('Choose the day the token expires.')
      await page.getByLabel('Expires at the end of').fill('2020-01-31')
      expect(await page.locator('#token-date-error').innerText()).toBe('The day can not be in the past.')
      await page.getByLabel('Expires', { exact: true }).selectOption('never')

      // The project is deleted between loading the form and sending it: the service says so, here.
      await ui.api('POST', '/api/admin/projects', { id: 'doomed', name: 'Doomed' })
      await page.reload()
      await page.getByLabel('Name', { exact: true }).fill('too-late')
      await page.getByRole('radio', { name: 'Only these:' }).check()
      await page.locator('.project-checks input[value="doomed"]').check()
      await ui.api('DELETE', '/api/admin/projects/doomed')
      await page.getByRole('button', { name: 'Create token' }).click()
      const error = page.locator('#new-token .error-note')
      await expect.poll(() => error.innerText()).toBe('Not found: Project "doomed" does not exist.')
      await expect.poll(() => focused(page)).toMatchObject({ class: expect.stringContaining('error-note') })
      // The form's choices are loaded again: the project is gone from them, the error stays.
      await page.locator('.project-checks input[value="doomed"]').waitFor({ state: 'detached' })
      expect(await error.innerText()).toBe('Not found: Project "doomed" does not exist.')
      await screenshot(page, 'admin-token-error-1280')
      expect(
        (await ui.api('GET', '/api/admin/api-tokens')).tokens.map((t: { tokenName: string }) => t.tokenName),
      ).not.toContain('too-late')
    })

    it('revokes a token after a confirmation (cancel keeps it); the revoked token is refused', async () => {
      await page.getByRole('button', { name: 'Revoke checkout-service' }).click()
      const dialog = page.getByRole('dialog', { name: 'Revoke the token checkout-service?' })
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      await dialog.waitFor({ state: 'hidden' })
      expect((await clientFeatures(secrets['checkout-service'] as string)).status).toBe(200)

      await page.getByRole('button', { name: 'Revoke checkout-service' }).click()
      await screenshot(page, 'admin-token-revoke-1280')
      await dialog.getByRole('button', { name: 'Revoke token' }).click()
      await tokenRow('checkout-service').waitFor({ state: 'detached' })
      expect((await clientFeatures(secrets['checkout-service'] as string)).status).toBe(401)
    })

    it('creates a token with the keyboard alone: Tab, arrow keys, Space and Enter', async () => {
      await page.goto(`${ui.url}/api-tokens`)
      await tokenRow('demo-admin').waitFor()
      await tabTo(page, '#token-name')
      await page.keyboard.type('mobile-app')
      await tabTo(page, 'input[name="token-type"]')
      await page.keyboard.press('ArrowDown') // Client → Frontend
      await tabTo(page, 'input[name="token-scope"]')
      await page.keyboard.press('ArrowDown') // All → Only these
      await tabTo(page, '.project-checks input[value="demo"]')
      await page.keyboard.press('Space')
      await tabTo(page, '#token-expiry')
      await page.keyboard.press('ArrowDown') // Never → In 7 days
      await tabTo(page, 'button[type="submit"]')
      await page.keyboard.press('Enter')

      await expect.poll(() => focused(page)).toMatchObject({ class: expect.stringContaining('token-secret') })
      const secret = await page
        .getByRole('region', { name: 'Secret of the token mobile-app' })
        .getByTestId('token-secret')
        .innerText()
      secrets['mobile-app'] = secret
      await page.keyboard.press('Tab')
      await page.keyboard.press('Space')
      await expect.poll(() => page.getByRole('button', { name: 'Copy token secret' }).innerText()).toBe('Copied')
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret)

      const token = (await ui.api('GET', '/api/admin/api-tokens')).tokens.find(
        (t: { tokenName: string }) => t.tokenName === 'mobile-app',
      )
      expect(token).toMatchObject({ type: 'frontend', environment: 'development', projects: ['demo'] })
      const days = (Date.parse(token.expiresAt) - Date.now()) / 86_400_000
      expect(days).toBeGreaterThan(6.9)
      expect(days).toBeLessThan(7.1)
    })
  })

  describe('environments and projects', () => {
    it('creates an environment: a bad name is refused at the field, a taken one at the form', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Environments' }).click()
      await page.waitForURL(`${ui.url}/environments`)
      await page.locator('[data-environment="production"]').waitFor()
      await page.getByLabel('Name', { exact: true }).fill('Bad Name!')
      await page.getByRole('button', { name: 'Create environment' }).click()
      expect(await page.locator('#environment-name-error').innerText()).toBe(
        'Name must be URL-friendly: letters, digits, "-", ".", "_" and "~".',
      )
      expect((await focused(page)).id).toBe('environment-name')

      await page.getByLabel('Name', { exact: true }).fill('staging')
      await page.getByLabel('Type').selectOption('preproduction')
      await page.getByRole('button', { name: 'Create environment' }).click()
      const row = page.locator('[data-environment="staging"]')
      await row.waitFor()
      expect(await row.innerText()).toMatch(/staging\s*preproduction/)
      expect(await ui.api('GET', '/api/admin/environments/staging')).toMatchObject({
        name: 'staging',
        type: 'preproduction',
        enabled: true,
      })

      await page.getByLabel('Name', { exact: true }).fill('staging')
      await page.getByRole('button', { name: 'Create environment' }).click()
      await expect
        .poll(() => page.locator('#new-environment .error-note').innerText())
        .toBe('That name is taken: An environment named "staging" already exists.')
    })

    it('turns an environment off and on, and lists the projects using it', async () => {
      const toggle = page.getByRole('switch', { name: 'staging enabled' })
      await toggle.click()
      await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false')
      expect((await ui.api('GET', '/api/admin/environments/staging')).enabled).toBe(false)
      await toggle.click()
      await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true')
      expect((await ui.api('GET', '/api/admin/environments/staging')).enabled).toBe(true)
      // Left off: a project made next does not get it, and has it added by hand.
      await toggle.click()
      await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false')
      // The projects' names load beside the list, again after each change (a number until they do).
      await expect
        .poll(() => page.locator('[data-environment="development"] [data-testid="projects"]').innerText())
        .toBe('default, demo')
      expect(await page.locator('[data-environment="staging"] [data-testid="projects"]').innerText()).toBe('none')
      await screenshot(page, 'admin-environments-1280')
    })

    it('creates a project: the id follows the name and is checked as the API checks it; a taken id is said at the form', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click()
      await page.waitForURL(`${ui.url}/projects`)
      await page.locator('[data-project="demo"]').waitFor()
      await page.getByLabel('Name', { exact: true }).fill('Mobile App')
      expect(await page.getByLabel('Id', { exact: true }).inputValue()).toBe('mobile-app')
      await page.getByLabel('Id', { exact: true }).fill('mobile app')
      await page.getByRole('button', { name: 'Create project' }).click()
      expect(await page.locator('#project-id-error').innerText()).toBe(
        'Id must be URL-friendly: letters, digits, "-", ".", "_" and "~".',
      )
      expect((await focused(page)).id).toBe('project-id')

      await page.getByLabel('Id', { exact: true }).fill('demo')
      await page.getByRole('button', { name: 'Create project' }).click()
      await expect
        .poll(() => page.locator('#new-project .error-note').innerText())
        .toBe('That name is taken: A project with the id "demo" already exists.')

      await page.getByLabel('Id', { exact: true }).fill('mobile-app')
      await page.getByLabel('Description (optional)').fill('The iOS and Android apps')
      await page.getByRole('button', { name: 'Create project' }).click()
      const card = page.locator('[data-project="mobile-app"]')
      await card.locator('li.project-env').first().waitFor()
      expect(await ui.api('GET', '/api/admin/projects/mobile-app')).toMatchObject({
        id: 'mobile-app',
        name: 'Mobile App',
        description: 'The iOS and Android apps',
        environments: ['development', 'production'],
      })
      expect(await card.getByRole('link', { name: '0 flags' }).getAttribute('href')).toBe('/flags?project=mobile-app')
    })

    it('adds an environment to a project and removes one after a confirmation', async () => {
      const card = page.locator('[data-project="mobile-app"]')
      await card.getByLabel('Add an environment', { exact: true }).selectOption('staging')
      await card.getByRole('button', { name: 'Add', exact: true }).click()
      const staging = card.locator('li.project-env[data-env="staging"]')
      await staging.waitFor()
      await expect
        .poll(() => staging.getByTestId('default-strategy').innerText())
        .toBe(
          "Gradual rollout to 100% of users, sticky on userId, else sessionId, else random, grouped by the flag's name.",
        )
      expect((await ui.api('GET', '/api/admin/projects/mobile-app')).environments).toContain('staging')

      await card.getByRole('button', { name: 'Remove production from mobile-app' }).click()
      await page
        .getByRole('dialog', { name: 'Remove production from Mobile App?' })
        .getByRole('button', { name: 'Remove environment' })
        .click()
      await card.locator('li.project-env[data-env="production"]').waitFor({ state: 'detached' })
      expect((await ui.api('GET', '/api/admin/projects/mobile-app')).environments.sort()).toEqual([
        'development',
        'staging',
      ])
    })

    it("sets a project environment's default strategy to 25%; a flag turned on there gets a 25% flexibleRollout", async () => {
      const staging = page.locator('[data-project="mobile-app"] li.project-env[data-env="staging"]')
      await staging.getByRole('button', { name: 'Edit the default strategy of mobile-app in staging' }).click()
      const form = staging.getByRole('form', { name: 'Default strategy of mobile-app in staging' })
      await form.getByLabel('Rollout', { exact: true }).fill('150')
      await form.getByRole('button', { name: 'Save default' }).click()
      expect(await form.locator('.field-error').innerText()).toBe('Rollout must be a whole number from 0 to 100.')
      await form.getByLabel('Rollout', { exact: true }).fill('25')
      await form.getByLabel('Stickiness').selectOption('userId')
      await screenshot(page, 'admin-project-default-strategy-1280')
      await form.getByRole('button', { name: 'Save default' }).click()
      await form.waitFor({ state: 'detached' })
      expect(await staging.getByTestId('default-strategy').innerText()).toBe(
        "Gradual rollout to 25% of users, sticky on userId, grouped by the flag's name.",
      )

      const stored = await ui.api('GET', '/api/admin/projects/mobile-app/environments/staging/default-strategy')
      expect(stored).toMatchObject({ name: 'flexibleRollout', parameters: { rollout: '25', stickiness: 'userId' } })
      expect(stored.parameters.groupId ?? '').toBe('') // left to each flag's name

      await ui.api('POST', '/api/admin/projects/mobile-app/features', { name: 'new-onboarding' })
      await ui.api('POST', '/api/admin/projects/mobile-app/features/new-onboarding/environments/staging/on')
      const flag = await ui.api('GET', '/api/admin/projects/mobile-app/features/new-onboarding')
      const strategies = flag.environments.find((e: { name: string }) => e.name === 'staging').strategies
      expect(strategies).toHaveLength(1)
      expect(strategies[0]).toMatchObject({
        name: 'flexibleRollout',
        parameters: { rollout: '25', stickiness: 'userId', groupId: 'new-onboarding' },
      })
    })
  })

  describe('archive', () => {
    it('finds archived flags by search, revives one, and deletes another for good after a confirmation', async () => {
      for (const name of ['theme', 'office-network'])
        await ui.api('DELETE', `/api/admin/projects/demo/features/${name}`)
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Archive' }).click()
      await page.waitForURL(`${ui.url}/archive`)
      const row = (name: string) => page.locator(`li.archived-row[data-flag="${name}"]`)
      await row('theme').waitFor()
      expect(await page.locator('.table-caption').innerText()).toBe('2 archived flags')
      await page.getByLabel('Search').fill('theme')
      await expect.poll(() => page.locator('li.archived-row').count()).toBe(1)
      expect(await page.locator('.table-caption').innerText()).toBe('1 of 2 archived flags match "theme"')
      expect(page.url()).toContain('q=theme')
      await page.getByLabel('Search').fill('')
      await screenshot(page, 'admin-archive-flags-1280')

      await page.getByRole('button', { name: 'Revive theme' }).click()
      await row('theme').waitFor({ state: 'detached' })
      expect((await ui.api('GET', '/api/admin/projects/demo/features/theme')).archived).toBe(false)

      await page.getByRole('button', { name: 'Delete office-network for good' }).click()
      await page
        .getByRole('dialog', { name: 'Delete office-network for good?' })
        .getByRole('button', { name: 'Delete flag' })
        .click()
      await row('office-network').waitFor({ state: 'detached' })
      expect(await page.getByText('The archive is empty.').count()).toBe(1)
      expect((await ui.api('GET', '/api/admin/archive/features')).features).toEqual([])
      await expect(ui.api('GET', '/api/admin/projects/demo/features/office-network')).rejects.toThrow(/404/)
    })

    it('shows an error in the row of the flag that caused it', async () => {
      await ui.api('DELETE', '/api/admin/projects/demo/features/gradual-random')
      await page.getByRole('button', { name: 'Refresh' }).click()
      const row = page.locator('li.archived-row[data-flag="gradual-random"]')
      await row.waitFor()
      await ui.api('DELETE', '/api/admin/archive/gradual-random') // deleted behind the page's back
      await row.getByRole('button', { name: 'Revive gradual-random' }).click()
      await expect
        .poll(() => row.getByRole('alert').innerText())
        .toBe('Not found: Archived feature "gradual-random" does not exist.')
    })
  })

  it('nothing failed in the page: no script error, no 5xx, no request off the service', () => {
    expect(problems).toEqual([])
  })

  describe('every admin page at 1280 and 390 px wide', () => {
    beforeAll(async () => {
      await ui.api('DELETE', '/api/admin/projects/demo/features/gradual-session') // so the archive shows a flag
    })

    it.each([
      ['1280', DESKTOP],
      ['390', MOBILE],
    ] as const)(
      'at %s px: each admin page renders, a new secret too, and nothing scrolls sideways',
      async (width, viewport) => {
        const view = await openPage(browser.browser, ui.url, viewport)
        await signIn(view.page, ui.url, ui.adminToken)
        for (const [name, path, ready] of [
          ['api-tokens', '/api-tokens', 'li.token-row'],
          ['projects', '/projects', 'li.project-env'],
          ['environments', '/environments', 'li.environment-row'],
          ['archive', '/archive', 'li.archived-row'],
        ] as const) {
          await view.page.goto(`${ui.url}${path}`)
          await view.page.locator(ready).first().waitFor()
          await expect.poll(() => view.page.locator('main').innerText()).not.toMatch(/loading/i)
          await expectNoHorizontalScroll(view.page)
          await screenshot(view.page, `admin-${name}-${width}`)
        }
        await view.page.goto(`${ui.url}/api-tokens`)
        await view.page.getByLabel('Name', { exact: true }).fill(`phone-check-${width}`)
        await view.page.getByRole('radio', { name: /^Frontend —/ }).check()
        await view.page.getByRole('button', { name: 'Create token' }).click()
        await view.page.getByTestId('token-secret').waitFor()
        await expectNoHorizontalScroll(view.page)
        await screenshot(view.page, `admin-token-secret-${width}`)
        expect(view.problems).toEqual([])
        await view.page.context().close()
      },
    )
  })
})
