// Headless Chromium for browser tests: Debian's `chromium` package driven by playwright-core
// (Playwright's own browser download is not reachable). Under CI=true a missing browser is a
// failure, never a skip.
import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'
import { isCI } from './ci.ts'

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
  Boolean,
) as string[]

export function chromiumPath(): string | undefined {
  return CANDIDATES.find((path) => existsSync(path))
}

/** Whether browser tests can run here; under CI a missing browser throws instead of skipping. */
export function chromiumAvailable(): boolean {
  const path = chromiumPath()
  if (!path && isCI()) {
    throw new Error(
      "Chromium is required under CI=true: install Debian's chromium package (see .ci/run) or set CHROMIUM_PATH",
    )
  }
  return path !== undefined
}

export interface LaunchedBrowser {
  browser: Browser
  close(): Promise<void>
}

/**
 * Launches headless Chromium (Playwright gives it a fresh temporary profile) with no background
 * networking: the machine's network is closed, and Chromium's own connections would be refused.
 */
export async function launchChromium(): Promise<LaunchedBrowser> {
  const executablePath = chromiumPath()
  if (!executablePath) throw new Error("Chromium not found: install Debian's chromium package or set CHROMIUM_PATH")
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  return {
    browser,
    async close() {
      await browser.close()
    },
  }
}
