// The admin UI in real headless Chromium against a real service (startService: PGlite in a temp
// data folder, the demo seeded, the action runner and insights scheduler running).
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { expect } from 'vitest'
import { silentLogger } from '../../src/logger.js'
import { DEFAULT_UI_DIR } from '../../src/routes/ui.js'
import { type RunningService, startService } from '../../src/server.js'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'
import { launchChromium, type LaunchedBrowser } from '@vexil/test-fixtures/chromium.ts'

export const SCREENSHOTS = fileURLToPath(new URL('../../test-results/ui/', import.meta.url))
export const DESKTOP = { width: 1280, height: 900 }
export const MOBILE = { width: 390, height: 844 }
const DAY_MS = 86_400_000

/**
 * The built UI the tests drive: dist/ui, or `VEXIL_TEST_UI_DIR` (a build made with
 * `vite build --config ui/vite.config.ts --outDir <dir>`, so that two people working on the UI
 * at once do not overwrite each other's build).
 */
export const UI_DIR = process.env.VEXIL_TEST_UI_DIR || DEFAULT_UI_DIR

/** The UI tests drive the built UI: fail (never skip) when `npm run build` has not made it. */
export function requireBuiltUi(): void {
  if (!existsSync(join(UI_DIR, 'index.html'))) {
    throw new Error(
      `The admin UI is not built: ${UI_DIR}/index.html is missing. Run \`npm run build\` at the repository root first (npm ci does it).`,
    )
  }
}

export interface UiService {
  service: RunningService
  url: string
  adminToken: string
  clientToken: string
  /** Moves the service's clock to `days` from now (negative: the past); 0 is real time. */
  setDaysFromNow(days: number): void
  /** Calls the admin API with the demo admin token; throws on a status >= 300. */
  api<T = any>(method: string, path: string, body?: unknown, token?: string): Promise<T>
  close(): Promise<void>
}

/**
 * A service on 127.0.0.1 (port 0) whose clock the test can move, its scheduler's timer never
 * firing; it starts (and seeds the demo) `startDaysFromNow` days from now.
 */
export async function startUiService(options: { startDaysFromNow?: number } = {}): Promise<UiService> {
  const data = tempDir('ui')
  let offsetMs = (options.startDaysFromNow ?? 0) * DAY_MS
  const service = await startService({
    port: 0,
    host: '127.0.0.1',
    dataDir: data.path,
    seedDemo: true,
    uiDir: UI_DIR,
    logger: silentLogger,
    clock: () => new Date(Date.now() + offsetMs),
    // The test takes snapshots itself (snapshotInsights); the daily timer never fires.
    timers: { setTimeout: () => 0, clearTimeout: () => {} },
    env: { SIGNAL_ENDPOINT_RATE_LIMIT_PER_SECOND: '100' },
  })
  const demo = service.demo as NonNullable<RunningService['demo']>
  const api = async (method: string, path: string, body?: unknown, token = demo.adminToken) => {
    const response = await fetch(`${service.url}${path}`, {
      method,
      headers: { authorization: token, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
    const text = await response.text()
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`)
    return text ? JSON.parse(text) : undefined
  }
  return {
    service,
    url: service.url,
    adminToken: demo.adminToken,
    clientToken: demo.clientToken,
    setDaysFromNow: (days) => void (offsetMs = days * DAY_MS),
    api,
    async close() {
      await service.close()
      data.remove()
    },
  }
}

/** POSTs a signal as an external system would: its own token, no admin token. */
export async function sendSignal(url: string, endpoint: string, token: string, payload: unknown): Promise<Response> {
  const response = await fetch(`${url}/api/signal-endpoint/${endpoint}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  })
  expect(response.status).toBe(200)
  return response
}

/**
 * A page that records what went wrong: uncaught errors, console errors other than the browser's
 * own report of an expected 4xx, failed requests, and any request that left the service.
 */
export async function openPage(
  browser: Browser,
  origin: string,
  viewport = DESKTOP,
): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin })
  const page = await context.newPage()
  // Fail fast with Playwright's own message rather than at the test's timeout.
  page.setDefaultTimeout(10_000)
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  page.on('console', (message) => {
    if (
      message.type() === 'error' &&
      !/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
    ) {
      problems.push(`console error: ${message.text()}`)
    }
  })
  page.on('requestfailed', (request) => {
    // A navigation cancels what the previous page was still loading (its favicon): not a failure.
    if (request.failure()?.errorText !== 'net::ERR_ABORTED')
      problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`)
  })
  page.on('response', (response) => {
    if (response.status() >= 500) problems.push(`${response.status()}: ${response.url()}`)
  })
  page.on('request', (request) => {
    if (!request.url().startsWith(`${origin}/`)) problems.push(`left the service: ${request.url()}`)
  })
  return { page, problems }
}

/** Signs in through the form and waits for the signed-in header. */
export async function signIn(page: Page, url: string, token: string): Promise<void> {
  await page.goto(`${url}/signin`)
  await page.getByLabel('Admin token or personal access token').fill(token)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('button', { name: 'Sign out' }).waitFor()
}

/** Chromium with one recording page (openPage) signed in to `ui` with the demo admin token. */
export async function signedInPage(
  ui: UiService,
  viewport = DESKTOP,
): Promise<{ browser: LaunchedBrowser; page: Page; problems: string[] }> {
  const browser = await launchChromium()
  const { page, problems } = await openPage(browser.browser, ui.url, viewport)
  await signIn(page, ui.url, ui.adminToken)
  return { browser, page, problems }
}

/** A full-page screenshot under test-results/ui/ (look at them). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true })
}

/** The page is no wider than the window: nothing scrolls sideways. */
export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    window: window.innerWidth,
  }))
  expect(widths.scroll, `page is ${widths.scroll}px wide in a ${widths.window}px window`).toBeLessThanOrEqual(
    widths.window,
  )
}
