// The Unleash server process: the pinned Node 22 running a small module that starts Unleash on
// 127.0.0.1 with its version check and telemetry off (nothing leaves the machine), ready once
// /health answers 200 (migrations of a fresh database included).
import { type ChildProcess, spawn } from 'node:child_process'
import { assertRunning, superviseChild } from './supervised-child.ts'
import { rawRequest } from './raw-request.ts'
import { UNLEASH_SERVER_PREFIX, type UnleashInstall } from './unleash-install.ts'
import type { Postgres } from './unleash-postgres.ts'

const READY_TIMEOUT_MS = 90_000
const STOP_TIMEOUT_MS = 10_000
const LOG_LIMIT = 64 * 1024

export interface LaunchSettings {
  port: number
  postgres: Postgres
  /** Environment for the server on top of the fixture's (tokens, experimental flags). */
  env: Record<string, string>
  logLevel: 'debug' | 'info' | 'warn' | 'error'
}

export interface LaunchedUnleash {
  child: ChildProcess
  /** stdout and stderr so far, the last 64 KiB. */
  logs(): string
  stop(): Promise<void>
}

// Runs inside Node 22: starts Unleash with options from the environment. When the pipe to its
// stdin closes without a stop (the test process died), it stops Unleash and the PostgreSQL
// cluster itself, so a crashed test run leaves neither behind.
const RUNNER = `
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
const options = JSON.parse(process.env.VEXIL_UNLEASH_OPTIONS)
const { start } = await import(options.entry)
let unleash
process.stdin.on('end', async () => {
  await unleash?.stop().catch(() => undefined)
  try { execFileSync(options.orphanCleanup[0], options.orphanCleanup.slice(1), { stdio: 'ignore' }) } catch {}
  rmSync(options.orphanDir, { recursive: true, force: true })
  process.exit(0)
})
process.stdin.resume()
unleash = await start({
  db: { host: '127.0.0.1', port: options.dbPort, user: 'postgres', password: '', database: 'unleash', ssl: false, schema: 'public' },
  server: { host: '127.0.0.1', port: options.port, unleashUrl: 'http://127.0.0.1:' + options.port, gracefulShutdownEnable: true, gracefulShutdownTimeout: 1000 },
  authentication: { type: 'open-source', enableApiToken: true, createAdminUser: false },
  versionCheck: { enable: false },
  telemetry: false,
  logLevel: options.logLevel,
})
`

/** Spawns Unleash on `settings.port`; rejects (logs included) when it exits or is not healthy in time. */
export async function launchUnleash(install: UnleashInstall, settings: LaunchSettings): Promise<LaunchedUnleash> {
  const { port, postgres } = settings
  const child = spawn(install.node, ['--input-type=module', '--eval', RUNNER], {
    cwd: UNLEASH_SERVER_PREFIX,
    stdio: ['pipe', 'pipe', 'pipe'],
    // A clean environment: the test runner's NODE_ENV=test would switch Unleash's test mode on.
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      TZ: 'UTC',
      NODE_ENV: 'production',
      // Belt and braces next to the start options: both are read from the environment too, and
      // `telemetry: false` in the options falls back to SEND_TELEMETRY (`options.telemetry || env`).
      CHECK_VERSION: 'false',
      SEND_TELEMETRY: 'false',
      ...settings.env,
      VEXIL_UNLEASH_OPTIONS: JSON.stringify({
        entry: install.entry,
        port,
        dbPort: postgres.port,
        logLevel: settings.logLevel,
        orphanCleanup: postgres.stopCommand,
        orphanDir: postgres.dir,
      }),
    },
  })
  const { logs, stop } = await superviseChild(child, {
    name: `unleash-server on port ${port}`,
    ready: () => waitForHealth(port, child),
    stopTimeoutMs: STOP_TIMEOUT_MS,
    logLimit: LOG_LIMIT,
  })
  return { child, logs, stop }
}

async function waitForHealth(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS
  while (Date.now() < deadline) {
    assertRunning(child)
    const status = await rawRequest(`http://127.0.0.1:${port}`, 'GET', '/health').then(
      (r) => r.status,
      () => 0,
    )
    if (status === 200) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`/health did not answer 200 within ${READY_TIMEOUT_MS} ms`)
}
