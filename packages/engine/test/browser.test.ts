// The engine in the browser: the default entry bundles small, without Node built-ins, and the
// whole client specification passes in real headless Chromium.
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumAvailable, launchChromium, type LaunchedBrowser } from '@vexil/test-fixtures/chromium.ts'

const here = dirname(fileURLToPath(import.meta.url))
const require = createRequire(import.meta.url)
const MAX_GZIP_BYTES = 25 * 1024

async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    write: false,
    logLevel: 'silent',
  })
  return result.outputFiles[0]!.text
}

describe('browser build', () => {
  it(`the default entry is at most ${MAX_GZIP_BYTES / 1024} KB min+gzip, with no Node built-ins`, async () => {
    const code = await bundle(join(here, '../src/index.ts'))
    const gzipped = gzipSync(code, { level: 9 }).length
    console.log(
      `@vexil/engine browser bundle: ${(code.length / 1024).toFixed(1)} KB min, ${(gzipped / 1024).toFixed(1)} KB min+gzip`,
    )
    expect(gzipped).toBeLessThanOrEqual(MAX_GZIP_BYTES)
    expect(code).not.toMatch(/require\(["']node:|from["']node:/)
  })

  it('the explainer is an entry of its own (@vexil/engine/explain): the default entry does not carry it', async () => {
    const code = await bundle(join(here, '../src/index.ts'))
    const explainer = await bundle(join(here, '../src/explain/index.ts'))
    const gzipped = gzipSync(explainer, { level: 9 }).length
    console.log(
      `@vexil/engine/explain browser bundle (with the engine modules it uses): ${(gzipped / 1024).toFixed(1)} KB min+gzip`,
    )
    // An outcome only the explainer names.
    expect(explainer).toContain('dependency-unmet')
    expect(code).not.toContain('dependency-unmet')
    expect(explainer).not.toMatch(/require\(["']node:|from["']node:/)
  })
})

describe.runIf(chromiumAvailable())('the client specification in headless Chromium', () => {
  let server: Server
  let browser: LaunchedBrowser
  let origin: string

  beforeAll(async () => {
    const specDir = join(dirname(require.resolve('@unleash/client-specification/package.json')), 'specifications')
    const index: string[] = JSON.parse(readFileSync(join(specDir, 'index.json'), 'utf8'))
    const specs = index.map((file) => JSON.parse(readFileSync(join(specDir, file), 'utf8')))
    const runner = await bundle(join(here, 'browser/spec-runner.ts'))
    const page = `<!doctype html><meta charset="utf-8"><script>window.__specs = ${JSON.stringify(specs).replace(/</g, '\\u003c')}</script><script type="module" src="/runner.js"></script>`
    server = createServer((req, res) => {
      if (req.url === '/runner.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(runner)
      else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
    await new Promise((resolve) => server?.close(resolve))
  })

  it('passes all 279 cases', async () => {
    const page = await browser.browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(origin)
    const results = (await page
      .waitForFunction(() => (window as unknown as { __results?: unknown }).__results, undefined, { timeout: 20_000 })
      .then((h) => h.jsonValue())) as { passed: number; failures: string[]; userAgent: string }
    expect(errors).toEqual([])
    expect(results.userAgent).toMatch(/Chrome/)
    expect(results.failures).toEqual([])
    expect(results.passed).toBe(279)
  })
})
