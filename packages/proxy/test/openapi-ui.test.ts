// The interactive docs (spec 4.5) in real headless Chromium, under a base path (the old proxy
// needed a fix for that, #125/#133): Swagger UI loads from this server only, renders our
// operations, and "Try it out" calls {base}/proxy... with the client key header.
import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumAvailable, launchChromium, type LaunchedBrowser } from '@vexil/test-fixtures/chromium.ts'
import { type DocsServer, startDocsServer } from './helpers/docs-server.js'

const BASE = '/vexil/base'
const RESULTS = join(dirname(fileURLToPath(import.meta.url)), '../test-results')

/** Everything that went wrong while the page was open: the test expects this to stay empty. */
function watch(page: Page, origin: string): string[] {
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`)
  })
  page.on('requestfailed', (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`))
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`)
  })
  page.on('request', (request) => {
    if (!request.url().startsWith(`${origin}/`)) problems.push(`left the server: ${request.url()}`)
  })
  return problems
}

describe.runIf(chromiumAvailable())('the Swagger UI in headless Chromium', () => {
  let server: DocsServer
  let browser: LaunchedBrowser
  let page: Page
  let problems: string[]

  beforeAll(async () => {
    server = await startDocsServer({ basePath: BASE, enableAllEndpoint: true })
    browser = await launchChromium()
    page = await browser.browser.newPage({ viewport: { width: 1280, height: 900 } })
    problems = watch(page, server.origin)
    // Without the trailing slash, as people type it: the 301 must land on the page.
    await page.goto(`${server.origin}${BASE}/docs/openapi`)
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 })
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('renders our document: title, tags and operations', async () => {
    expect(page.url()).toBe(`${server.origin}${BASE}/docs/openapi/`)
    const text = await page.locator('#swagger-ui').innerText()
    expect(text).toContain('Vexil Proxy API')
    for (const tag of ['Proxy client', 'Server-side client', 'Operational']) expect(text).toContain(tag)
    expect(text).toContain('Retrieve enabled feature toggles for the provided context.')
    expect(await page.locator('.opblock-summary-path[data-path="/proxy"]').count()).toBe(2)
    expect(await page.locator('.opblock-summary-path[data-path="/proxy/client/features"]').count()).toBe(1)
    // The servers dropdown shows the base path (#136).
    expect(await page.locator('.servers select').inputValue()).toBe(BASE)
    mkdirSync(RESULTS, { recursive: true })
    await page.screenshot({ path: join(RESULTS, 'openapi-ui.png'), fullPage: true })
    expect(problems).toEqual([])
  })

  it('"Try it out" on GET /proxy/health calls {base}/proxy/health, not a doubled base path (#125)', async () => {
    const operation = page.locator('.opblock-get', {
      has: page.locator('.opblock-summary-path[data-path="/proxy/health"]'),
    })
    await operation.locator('.opblock-summary-control').click()
    await operation.getByRole('button', { name: 'Try it out' }).click()
    const [request] = await Promise.all([
      page.waitForRequest(/\/proxy\/health$/),
      operation.getByRole('button', { name: 'Execute' }).click(),
    ])
    expect(request.url()).toBe(`${server.origin}${BASE}/proxy/health`)
    await expect.poll(() => operation.locator('.live-responses-table').innerText()).toContain('fallthrough')
    expect(problems).toEqual([])
  })

  it('"Authorize" sends the client key in the configured header', async () => {
    await page.locator('.auth-wrapper .btn.authorize').click()
    const modal = page.locator('.modal-ux')
    await modal.locator('input').first().fill('my-client-key')
    await modal.locator('.auth-btn-wrapper .btn.authorize').click()
    await modal.locator('.btn-done').click()
    const operation = page.locator('.opblock-get', { has: page.locator('.opblock-summary-path[data-path="/proxy"]') })
    await operation.locator('.opblock-summary-control').click()
    await operation.getByRole('button', { name: 'Try it out' }).click()
    const [request] = await Promise.all([
      page.waitForRequest(/\/proxy(\?|$)/),
      operation.getByRole('button', { name: 'Execute' }).click(),
    ])
    expect(request.url().startsWith(`${server.origin}${BASE}/proxy`)).toBe(true)
    expect(await request.headerValue('authorization')).toBe('my-client-key')
    await expect.poll(() => operation.locator('.live-responses-table').innerText()).toContain('fallthrough')
    await operation.screenshot({ path: join(RESULTS, 'openapi-ui-operation.png') })
    expect(problems).toEqual([])
  })
})
