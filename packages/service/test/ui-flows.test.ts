// Issue 8, end to end in real headless Chromium against a running service (PGlite in a temp
// folder, the demo seeded): signing in (a wrong token, the admin token, personal tokens, a 401
// later), the flags list, a signal endpoint and its token, a signal sent over HTTP appearing, an
// action set turning a flag off, deletes with confirmation, and every page at 1280 and 390 px.
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

// The signals list polls every 5 s: a new signal shows within that, plus a margin.
const POLL_WAIT = { timeout: 12_000 }

describe.runIf(chromiumAvailable())('the admin UI in headless Chromium', () => {
  let ui: UiService
  let browser: LaunchedBrowser
  let page: Page
  let problems: string[]
  const saved: { endpointId?: number; secret?: string } = {}

  const row = (flag: string) => page.locator(`tr.flag-row[data-flag="${flag}"]`)
  const switchOf = (flag: string, env: string) => page.getByRole('switch', { name: `${flag} in ${env}`, exact: true })
  const alert = () => page.getByRole('alert')
  const flagEnabled = async (flag: string, env: string) =>
    (await ui.api('GET', `/api/admin/projects/demo/features/${flag}`)).environments.find(
      (e: { name: string }) => e.name === env,
    ).enabled as boolean

  beforeAll(async () => {
    requireBuiltUi()
    ui = await startUiService()
    browser = await launchChromium()
    ;({ page, problems } = await openPage(browser.browser, ui.url))
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await ui?.close()
  })

  describe('signing in', () => {
    it('a wrong token shows a clear message next to the field, and takes focus', async () => {
      await page.goto(`${ui.url}/flags`)
      await page.waitForURL(`${ui.url}/signin?next=%2Fflags`)
      await page.getByRole('button', { name: 'Sign in' }).click()
      expect(await alert().innerText()).toContain('Paste a token first.')

      await page.getByLabel('Admin token or personal access token').fill('*:*.not-a-real-token')
      await page.getByRole('button', { name: 'Sign in' }).click()
      await expect
        .poll(() => alert().innerText())
        .toBe('The token was not accepted: The provided API token is not valid.')
      // The note takes focus in an effect, which runs after the paint that shows its text.
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('alert')
      await screenshot(page, 'signin-wrong-token-1280')

      await page.getByLabel('Admin token or personal access token').fill(ui.clientToken)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await expect
        .poll(() => alert().innerText())
        .toContain("This token can't sign in here: it is not an admin token or a personal access token")
      expect(await page.evaluate(() => window.sessionStorage.length)).toBe(0)
    })

    it('signs in with the admin token, shows who is signed in, keeps the token for the tab only, and signs out', async () => {
      await page.getByLabel('Admin token or personal access token').fill(ui.adminToken)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL(`${ui.url}/flags`)
      expect(await page.getByTestId('who').innerText()).toBe('demo-admin')
      expect(await page.locator('.whoami').innerText()).toContain('Admin token')
      const storage = await page.evaluate(() => ({
        session: sessionStorage.getItem('vexil.token'),
        local: localStorage.length,
        cookie: document.cookie,
      }))
      expect(storage).toEqual({ session: ui.adminToken, local: 0, cookie: '' })

      await page.reload()
      await page.getByTestId('who').waitFor()
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.waitForURL(`${ui.url}/signin`)
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0)
      await signIn(page, ui.url, ui.adminToken)
    })

    it('signs in with personal tokens: an Admin sees everything, a Viewer only insights; a revoked token returns to sign-in', async () => {
      const ada = await ui.api('POST', '/api/admin/user-admin', {
        email: 'ada@example.com',
        name: 'Ada Lovelace',
        rootRole: 'Admin',
      })
      const adaToken = (await ui.api('POST', `/api/admin/user-admin/${ada.id}/tokens`, { description: 'ui' }))
        .secret as string
      const vic = await ui.api('POST', '/api/admin/user-admin', {
        email: 'vic@example.com',
        name: 'Vic Viewer',
        rootRole: 'Viewer',
      })
      const vicToken = (await ui.api('POST', `/api/admin/user-admin/${vic.id}/tokens`, { description: 'ui' }))
        .secret as string

      const other = await openPage(browser.browser, ui.url)
      await signIn(other.page, ui.url, vicToken)
      await other.page.waitForURL(`${ui.url}/insights`)
      expect(await other.page.locator('.whoami').innerText()).toMatch(/Vic Viewer\s*Viewer/)
      await expect
        .poll(() => other.page.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts())
        .toEqual(['Insights'])
      await other.page.goto(`${ui.url}/flags`)
      expect(await other.page.getByRole('heading', { level: 1 }).innerText()).toBe('Admins only')

      await other.page.getByRole('button', { name: 'Sign out' }).click()
      await signIn(other.page, ui.url, adaToken)
      expect(await other.page.locator('.whoami').innerText()).toMatch(/Ada Lovelace\s*Admin/)
      await other.page.locator('tr.flag-row').first().waitFor()

      // The token stops working (its user is deleted): the next request lands on sign-in, saying why.
      await ui.api('DELETE', `/api/admin/user-admin/${ada.id}`)
      await other.page.getByRole('button', { name: 'Refresh' }).click()
      await other.page.waitForURL(/\/signin/)
      expect(await other.page.locator('.notice').innerText()).toBe(
        'Your session ended: The provided API token is not valid. Sign in again.',
      )
      expect(await other.page.evaluate(() => sessionStorage.length)).toBe(0)
      expect(other.problems).toEqual([])
      await other.page.context().close()
    })
  })

  describe('flags', () => {
    it("lists the project's flags with their state in each environment, and searches by name", async () => {
      await page.goto(`${ui.url}/flags`)
      await expect.poll(() => page.getByLabel('Project').inputValue()).toBe('demo')
      await expect.poll(() => page.locator('tr.flag-row').count()).toBe(10)
      // The environments' columns load beside the flags' rows: wait for them.
      await expect
        .poll(() => page.locator('thead th').allInnerTexts())
        .toEqual(['FLAG', 'DEVELOPMENT', 'PRODUCTION', 'LAST 24 H', 'ACTIONS'])
      expect(await switchOf('welcome-banner', 'development').getAttribute('aria-checked')).toBe('true')
      expect(await switchOf('welcome-banner', 'production').getAttribute('aria-checked')).toBe('false')

      await page.getByLabel('Search').fill('gradual')
      await expect.poll(() => page.locator('tr.flag-row').count()).toBe(3)
      expect(await page.locator('.table-caption').innerText()).toBe('3 of 10 flags match "gradual" in demo')
      expect(page.url()).toContain('q=gradual')
      await page.getByLabel('Search').fill('')
      await expect.poll(() => page.locator('tr.flag-row').count()).toBe(10)
    })

    it('turns a flag on and off in one environment', async () => {
      await switchOf('welcome-banner', 'production').click()
      await expect.poll(() => switchOf('welcome-banner', 'production').getAttribute('aria-checked')).toBe('true')
      expect(await flagEnabled('welcome-banner', 'production')).toBe(true)
      expect(await flagEnabled('welcome-banner', 'development')).toBe(true)
      await switchOf('welcome-banner', 'production').click()
      await expect.poll(() => switchOf('welcome-banner', 'production').getAttribute('aria-checked')).toBe('false')
      expect(await flagEnabled('welcome-banner', 'production')).toBe(false)
    })

    it("opens a flag's page from its name, with its strategies in each environment", async () => {
      await row('new-checkout').getByRole('link', { name: 'new-checkout' }).click()
      await page.waitForURL(`${ui.url}/projects/demo/flags/new-checkout`)
      const development = page.locator('section.flag-env[data-env="development"]')
      // The segments' names load beside the flag ("segment 1" until they do): wait for them.
      await expect.poll(() => development.innerText()).toContain('demo-pro-plans')
      const text = await development.innerText()
      for (const part of ['Gradual rollout', '100%', 'appName', 'legacy-app', 'one-page']) {
        expect(text).toContain(part)
      }
      expect(await page.locator('section.flag-env[data-env="production"]').innerText()).toContain(
        'No strategies in production yet.',
      )
      await screenshot(page, 'flags-flag-page-1280')
      await page.goBack()
      await row('new-checkout').waitFor()
    })

    it('marks a flag stale and back', async () => {
      await row('gradual-random').getByRole('button', { name: 'Mark stale' }).click()
      await row('gradual-random').locator('.badge', { hasText: 'stale' }).waitFor()
      expect((await ui.api('GET', '/api/admin/projects/demo/features/gradual-random')).stale).toBe(true)
      await row('gradual-random').getByRole('button', { name: 'Not stale' }).click()
      await row('gradual-random').getByRole('button', { name: 'Mark stale' }).waitFor()
      expect((await ui.api('GET', '/api/admin/projects/demo/features/gradual-random')).stale).toBe(false)
    })

    it('archives a flag after a confirmation (cancel keeps it)', async () => {
      await page.getByRole('button', { name: 'Archive local-host-only' }).click()
      const dialog = page.getByRole('dialog', { name: 'Archive local-host-only?' })
      await dialog.waitFor()
      await screenshot(page, 'flags-archive-dialog-1280')
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      await dialog.waitFor({ state: 'hidden' })
      expect(await row('local-host-only').count()).toBe(1)

      await page.getByRole('button', { name: 'Archive local-host-only' }).click()
      await dialog.getByRole('button', { name: 'Archive flag' }).click()
      await row('local-host-only').waitFor({ state: 'detached' })
      const archived = await ui.api('GET', '/api/admin/archive/features/demo')
      expect(archived.features.map((f: { name: string }) => f.name)).toContain('local-host-only')
    })

    it('shows an API error in the row of the flag that caused it', async () => {
      // Archived behind the page's back: turning it on now is a 404, said next to its switch.
      await ui.api('DELETE', '/api/admin/projects/demo/features/office-network')
      await switchOf('office-network', 'production').click()
      const error = page.locator('tr.row-error [role="alert"]')
      await expect.poll(() => error.innerText()).toContain('Not found:')
      expect(await error.innerText()).toContain('office-network')
      await page.getByRole('button', { name: 'Refresh' }).click()
      await row('office-network').waitFor({ state: 'detached' })
    })
  })

  describe('signal endpoints', () => {
    it('validates the name as the API does, creates the endpoint and opens it', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Signal endpoints' }).click()
      await page.waitForURL(`${ui.url}/integrations/signal-endpoints`)
      await page.getByLabel('Name', { exact: true }).fill('Bad Name!')
      expect(await page.locator('#endpoint-name-error').innerText()).toBe(
        'Name must be URL-safe: lowercase letters, digits, "-" and "_".',
      )
      await page.getByRole('button', { name: 'Create endpoint' }).click()
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('endpoint-name')
      expect((await ui.api('GET', '/api/admin/signal-endpoints')).signalEndpoints).toEqual([])

      await page.getByLabel('Name', { exact: true }).fill('alerts')
      await page.getByLabel('Description (optional)').fill('From the monitoring system')
      await page.getByRole('button', { name: 'Create endpoint' }).click()
      await page.waitForURL(/\/integrations\/signal-endpoints\/\d+$/)
      saved.endpointId = Number(page.url().split('/').pop())
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('alerts')
      expect(await page.locator('.address').innerText()).toContain(`${ui.url}/api/signal-endpoint/alerts`)
      // The list loads after the page: wait for it rather than read the loading line.
      await expect.poll(() => page.locator('#signals').innerText()).toContain('No signals yet')
    })

    it('creates a token and shows its secret exactly once, with a copy button and a curl line', async () => {
      await page.getByRole('button', { name: 'Create token' }).click()
      expect(await page.locator('#token-name-error').innerText()).toBe('Token name is required.')
      await page.getByLabel('New token name').fill('ci')
      await page.getByRole('button', { name: 'Create token' }).click()
      const secret = await page.getByTestId('token-secret').innerText()
      expect(secret).toMatch(/^[0-9a-f]{64}$/)
      saved.secret = secret
      const curl = await page.getByTestId('curl-line').innerText()
      expect(curl).toContain(`'${ui.url}/api/signal-endpoint/alerts'`)
      expect(curl).toContain(`Authorization: Bearer ${secret}`)

      await page.getByRole('button', { name: 'Copy token secret' }).click()
      await expect.poll(() => page.getByRole('button', { name: 'Copy token secret' }).innerText()).toBe('Copied')
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret)
      await screenshot(page, 'endpoint-new-token-1280')

      // The curl line works as printed (the same request, made here).
      const url = /'(http[^']+)'/.exec(curl)?.[1] as string
      const sent = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: '{"event":"test","severity":"high"}',
      })
      expect(sent.status).toBe(200)

      await page.getByRole('button', { name: 'I have copied it' }).click()
      expect(await page.content()).not.toContain(secret)
      await page.reload()
      await page.locator('[data-token="ci"]').waitFor()
      expect(await page.content()).not.toContain(secret)
    })

    it('shows received signals newest first, with time, token name and the payload pretty-printed, as they arrive', async () => {
      const signals = page.locator('li.signal')
      await signals.first().waitFor(POLL_WAIT) // the curl line's signal
      const payload = {
        event: 'deploy',
        severity: 'low',
        service: { name: 'checkout', region: 'eu' },
        tags: ['a', 'b'],
      }
      await sendSignal(ui.url, 'alerts', saved.secret as string, payload)
      await expect.poll(() => signals.count(), POLL_WAIT).toBe(2)
      const newest = signals.first()
      // Pretty-printed (two-space indents, one field a line), in the order the database keeps it.
      const shown = await newest.locator('pre').innerText()
      expect(JSON.parse(shown)).toEqual(payload)
      expect(shown).toContain('\n  "service": {\n    "name": "checkout",\n    "region": "eu"\n  }')
      expect(await newest.locator('.signal-meta').innerText()).toMatch(/token ci/)
      // The "new" mark is set in an effect, after the list has drawn the signal.
      await expect.poll(() => newest.locator('.badge', { hasText: 'new' }).count()).toBe(1)
      expect(await newest.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/)
      const ids = await signals.evaluateAll((items) => items.map((item) => Number(item.getAttribute('data-signal'))))
      expect(ids[0]).toBeGreaterThan(ids[1] as number)
      await screenshot(page, 'endpoint-signals-1280')
    })

    it('says a taken name in plain words next to the form, and disables and enables an endpoint', async () => {
      await page.goto(`${ui.url}/integrations/signal-endpoints`)
      await page.getByLabel('Name', { exact: true }).fill('alerts')
      await page.getByRole('button', { name: 'Create endpoint' }).click()
      const error = page.locator('#new-endpoint [role="alert"]')
      await expect
        .poll(() => error.innerText())
        .toBe('That name is taken: A signal endpoint named "alerts" already exists.')

      const toggle = page.getByRole('switch', { name: 'alerts enabled' })
      await toggle.click()
      await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false')
      expect((await ui.api('GET', '/api/admin/signal-endpoints')).signalEndpoints[0].enabled).toBe(false)
      await toggle.click()
      await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true')
    })
  })

  describe('actions', () => {
    it('creates an action set from the latest payload: filters, ordered actions', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Actions' }).click()
      await page.waitForURL(`${ui.url}/actions`)
      await expect.poll(() => page.getByLabel('Project').inputValue()).toBe('demo')
      await page.getByRole('button', { name: 'New action set' }).click()
      await page.waitForURL(`${ui.url}/actions/demo/new`)

      await page.getByLabel('Name', { exact: true }).fill('kill checkout on high severity')
      await expect.poll(() => page.getByLabel('Signal endpoint').inputValue()).toBe(String(saved.endpointId)) // the only one
      const latest = page.locator('.latest-payload')
      await latest.locator('pre').waitFor()
      expect(await latest.locator('pre').innerText()).toContain('"region": "eu"')
      await latest.getByRole('button', { name: 'severity = "low"' }).click()
      expect(await page.locator('[data-filter="0"] input[list]').inputValue()).toBe('severity')
      await page.locator('[data-filter="0"]').getByLabel('Values (comma-separated)').fill('high, critical')

      await page.locator('[data-action="0"]').getByLabel('Flag').selectOption('new-checkout')
      await page.locator('[data-action="0"]').getByLabel('Environment').selectOption('development')
      await page.getByRole('button', { name: 'Add action' }).click()
      await page.locator('[data-action="1"]').getByLabel('Flag').selectOption('theme')
      await page.locator('[data-action="1"]').getByLabel('Environment').selectOption('development')
      await page.getByRole('button', { name: 'Move action 2 up' }).click()
      expect(await page.locator('[data-action="0"]').getByLabel('Flag').inputValue()).toBe('theme')
      await screenshot(page, 'action-set-new-1280')

      await page.getByRole('button', { name: 'Create action set' }).click()
      await page.waitForURL(`${ui.url}/actions?project=demo`)
      const card = page.locator('.action-set')
      await card.waitFor()
      expect(await card.innerText()).toContain('severity IN high, critical')
      const [set] = (await ui.api('GET', '/api/admin/projects/demo/actions')).actions
      expect(set).toMatchObject({
        name: 'kill checkout on high severity',
        enabled: true,
        match: {
          source: 'signal-endpoint',
          sourceId: saved.endpointId,
          payload: { severity: { operator: 'IN', values: ['high', 'critical'] } },
        },
        actions: [
          {
            action: 'TOGGLE_FEATURE_OFF',
            sortOrder: 1,
            executionParams: { project: 'demo', environment: 'development', featureName: 'theme' },
          },
          {
            action: 'TOGGLE_FEATURE_OFF',
            sortOrder: 2,
            executionParams: { project: 'demo', environment: 'development', featureName: 'new-checkout' },
          },
        ],
      })
    })

    it("shows the API's errors where they belong: a taken name at the name, a limit at the form", async () => {
      await page.goto(`${ui.url}/actions/demo/new`)
      await page.getByLabel('Name', { exact: true }).fill('kill checkout on high severity')
      await page.locator('[data-action="0"]').getByLabel('Flag').selectOption('theme')
      await page.locator('[data-action="0"]').getByLabel('Environment').selectOption('production')
      await page.getByLabel('Signal endpoint').selectOption(String(saved.endpointId))
      await page.getByRole('button', { name: 'Create action set' }).click()
      await expect
        .poll(() => page.locator('#name-error').innerText())
        .toContain('An action set named "kill checkout on high severity" already exists')
      expect(await page.locator('.form-footer [role="alert"]').innerText()).toMatch(/^That name is taken:/)

      await page.getByLabel('Name', { exact: true }).fill('too many filters')
      for (let i = 0; i < 6; i++) {
        await page.getByRole('button', { name: 'Add filter' }).click()
        await page.locator(`[data-filter="${i}"] input[list]`).fill(`field${i}`)
        await page.locator(`[data-filter="${i}"]`).getByLabel('Values (comma-separated)').fill('x')
      }
      await page.getByRole('button', { name: 'Create action set' }).click()
      const error = page.locator('.form-footer [role="alert"]')
      await expect
        .poll(() => error.innerText())
        .toBe(
          "A limit was reached: Failed to create action set filters. You can't create more than the established limit of 5.",
        )
      await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('error-note'))).toBe(true)
      await screenshot(page, 'action-set-error-1280')
    })

    it('turns the flag off when a matching signal arrives, records the run, and the flags list shows it off', async () => {
      expect(await flagEnabled('new-checkout', 'development')).toBe(true)
      await sendSignal(ui.url, 'alerts', saved.secret as string, { severity: 'low', note: 'does not match' })
      await sendSignal(ui.url, 'alerts', saved.secret as string, { severity: 'high', service: 'checkout' })

      await page.goto(`${ui.url}/actions?project=demo`)
      await page.getByRole('button', { name: 'Runs' }).click()
      await page.waitForURL(/\/actions\/demo\/\d+\/runs$/)
      const run = page.locator('li.run').first()
      await run.waitFor(POLL_WAIT)
      expect(await page.locator('li.run').count()).toBe(1) // the "low" signal matched nothing
      expect(await run.getAttribute('data-state')).toBe('success')
      expect(await run.locator('.run-actions li').allInnerTexts()).toEqual([
        'success Turn off theme in development',
        'success Turn off new-checkout in development',
      ])
      await run.getByText('Signal payload').click()
      expect(await run.locator('pre').innerText()).toContain('"severity": "high"')
      await screenshot(page, 'action-set-runs-1280')

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Flags' }).click()
      await expect.poll(() => switchOf('new-checkout', 'development').getAttribute('aria-checked')).toBe('false')
      expect(await switchOf('theme', 'development').getAttribute('aria-checked')).toBe('false')
      expect(await switchOf('welcome-banner', 'development').getAttribute('aria-checked')).toBe('true')
    })

    it('edits an action set and turns it off', async () => {
      await page.goto(`${ui.url}/actions?project=demo`)
      await page.getByRole('button', { name: 'Edit' }).click()
      await page.waitForURL(/\/actions\/demo\/\d+\/edit$/)
      expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('kill checkout on high severity')
      expect(await page.locator('[data-filter="0"]').getByLabel('Values (comma-separated)').inputValue()).toBe(
        'high, critical',
      )
      await page.getByLabel('Description (optional)').fill('Stops the new checkout when monitoring screams')
      await page.getByRole('button', { name: 'Remove action 1' }).click()
      await page.getByRole('button', { name: 'Save changes' }).click()
      await page.waitForURL(`${ui.url}/actions?project=demo`)
      await page.getByText('Stops the new checkout when monitoring screams').waitFor()
      const [set] = (await ui.api('GET', '/api/admin/projects/demo/actions')).actions
      expect(
        set.actions.map((a: { executionParams: { featureName: string } }) => a.executionParams.featureName),
      ).toEqual(['new-checkout'])

      const toggle = page.getByRole('switch', { name: 'kill checkout on high severity enabled' })
      await toggle.click()
      await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false')
      expect((await ui.api('GET', '/api/admin/projects/demo/actions')).actions[0].enabled).toBe(false)
    })
  })

  describe('deletes ask first', () => {
    it('an endpoint in use: the conflict is shown in the dialog; a token: deleted, its signals kept', async () => {
      await page.goto(`${ui.url}/integrations/signal-endpoints`)
      await page.getByRole('button', { name: 'Delete alerts' }).click()
      const dialog = page.getByRole('dialog', { name: 'Delete alerts?' })
      await dialog.getByRole('button', { name: 'Delete endpoint' }).click()
      await expect
        .poll(() => dialog.getByRole('alert').innerText())
        .toMatch(
          /^This conflicts with something else: Signal endpoint \d+ is used by action sets \(demo\/kill checkout on high severity\)/,
        )
      await screenshot(page, 'endpoint-delete-conflict-1280')
      await dialog.getByRole('button', { name: 'Cancel' }).click()

      await page.getByRole('link', { name: 'alerts' }).click()
      await page.getByRole('button', { name: 'Delete token ci' }).click()
      await page
        .getByRole('dialog', { name: 'Delete the token ci?' })
        .getByRole('button', { name: 'Delete token' })
        .click()
      await page.locator('[data-token="ci"]').waitFor({ state: 'detached' })
      expect(await page.locator('#tokens').innerText()).toContain('No tokens yet')
      await expect.poll(() => page.locator('li.signal .badge', { hasText: 'deleted' }).count(), POLL_WAIT).toBe(4)
    })

    it('an action set, then the endpoint', async () => {
      await page.goto(`${ui.url}/actions?project=demo`)
      await page.getByRole('button', { name: 'Delete kill checkout on high severity' }).click()
      await page.getByRole('button', { name: 'Delete action set' }).click()
      await page.getByText('No action sets in demo yet.').waitFor()
      await page.goto(`${ui.url}/integrations/signal-endpoints`)
      await page.getByRole('button', { name: 'Delete alerts' }).click()
      await page.getByRole('button', { name: 'Delete endpoint' }).click()
      await page.getByText('No signal endpoints yet').waitFor()
      expect((await ui.api('GET', '/api/admin/signal-endpoints')).signalEndpoints).toEqual([])
    })
  })

  it('nothing failed in the page: no script error, no 5xx, no request off the service', () => {
    expect(problems).toEqual([])
  })

  describe('every page at 1280 and 390 px wide', () => {
    let ids: { endpoint: number; set: number }

    beforeAll(async () => {
      const endpoint = await ui.api('POST', '/api/admin/signal-endpoints', {
        name: 'datadog-alerts',
        description: 'Monitors of the checkout service',
      })
      const token = await ui.api('POST', `/api/admin/signal-endpoints/${endpoint.id}/tokens`, { name: 'datadog' })
      await sendSignal(ui.url, 'datadog-alerts', token.token, {
        alert: { id: 4711, title: 'Checkout error rate above 5%', severity: 'critical' },
        tags: ['team:payments', 'env:prod'],
      })
      const set = await ui.api('POST', '/api/admin/projects/demo/actions', {
        name: 'disable upsell on critical alerts',
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
      await sendSignal(ui.url, 'datadog-alerts', token.token, {
        alert: { id: 4712, title: 'Checkout latency', severity: 'critical' },
      })
      ids = { endpoint: endpoint.id, set: set.id }
    })

    const pages = () =>
      [
        ['flags', '/flags'],
        ['signal-endpoints', '/integrations/signal-endpoints'],
        ['signal-endpoint', `/integrations/signal-endpoints/${ids.endpoint}`],
        ['actions', '/actions'],
        ['action-set-edit', `/actions/demo/${ids.set}/edit`],
        ['action-set-runs', `/actions/demo/${ids.set}/runs`],
        ['insights', '/insights'],
      ] as const

    it.each([
      ['1280', DESKTOP],
      ['390', MOBILE],
    ] as const)('at %s px: each page renders, and nothing scrolls sideways', async (width, viewport) => {
      const view = await openPage(browser.browser, ui.url, viewport)
      await view.page.goto(`${ui.url}/signin`)
      await expectNoHorizontalScroll(view.page)
      await screenshot(view.page, `signin-${width}`)
      await signIn(view.page, ui.url, ui.adminToken)
      for (const [name, path] of pages()) {
        await view.page.goto(`${ui.url}${path}`)
        await view.page.locator('main h1').waitFor()
        await view.page.locator('.loading').waitFor({ state: 'detached' })
        if (name === 'action-set-runs') await view.page.locator('li.run').first().waitFor(POLL_WAIT)
        await expectNoHorizontalScroll(view.page)
        await screenshot(view.page, `${name}-${width}`)
      }
      expect(view.problems).toEqual([])
      await view.page.context().close()
    })
  })
})
