// Edge's command line as processes: `vexil edge` with the arguments and variables Unleash's Edge
// Helm chart passes, Edge's global and subcommand options through the vexil-proxy bin, the
// warning for an Edge variable Vexil does not implement, `vexil health` and `vexil ready` against
// a running and a stopped proxy, and the old proxy's app name kept with its UNLEASH_* variables.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FakeUpstream, startFakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { freePort } from '@vexil/test-fixtures/ports.ts'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'
import { runCommand } from './helpers/run-command.js'

const VEXIL = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const VEXIL_PROXY = fileURLToPath(new URL('../../proxy/dist/cli.js', import.meta.url))
const CLIENT_TOKEN = '*:development.edge-chart-client-token'
const FRONTEND_TOKEN = '*:development.edge-chart-frontend-token'
const FEATURES = {
  version: 2,
  features: [{ name: 'chart-flag', enabled: true, strategies: [{ name: 'default' }] }],
  segments: [],
}

interface Running {
  child: ChildProcess
  output(): string
  until(pattern: RegExp, timeoutMs?: number): Promise<void>
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>
}

function start(bin: string, args: string[], env: Record<string, string>): Running {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run npm run build first (npm ci does)`)
  const child = spawn(process.execPath, [bin, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (d: Buffer) => (output += d))
  child.stderr!.on('data', (d: Buffer) => (output += d))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000)
  void exited.then(() => clearTimeout(killer))
  return {
    child,
    output: () => output,
    async until(pattern, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs
      while (!pattern.test(output)) {
        if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode} before ${pattern}:\n${output}`)
        if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${output}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
    stop() {
      child.kill('SIGTERM')
      return exited
    },
  }
}

const run = runCommand

let upstream: FakeUpstream
let upstreamBase: string
const backups = tempDir('edge-cli')

beforeAll(async () => {
  upstream = await startFakeUpstream(FEATURES)
  upstream.setValidTokens([
    { token: CLIENT_TOKEN, type: 'client', projects: ['*'], environment: 'development' },
    { token: FRONTEND_TOKEN, type: 'frontend', projects: ['*'], environment: 'development' },
  ])
  upstreamBase = upstream.url.replace(/\/api$/, '')
})
afterAll(async () => {
  await upstream.close()
  backups.remove()
})

describe("vexil edge, as Unleash's Edge Helm chart runs it", { timeout: 90_000 }, () => {
  it("serves Edge's routes from the chart's args and variables, names what it serves, and probes answer", async () => {
    const port = await freePort()
    // The chart: args ["edge"]; UPSTREAM_URL, RUST_LOG, LOG_FORMAT, and TOKENS from its env or secret.
    // PORT and INTERFACE (Edge's names) keep the test off the shared default port and interfaces.
    const proxy = start(VEXIL, ['edge'], {
      UPSTREAM_URL: upstreamBase,
      RUST_LOG: 'warn',
      LOG_FORMAT: 'json',
      TOKENS: CLIENT_TOKEN,
      PORT: String(port),
      INTERFACE: '127.0.0.1',
      BACKUP_FOLDER: backups.path,
    })
    try {
      await proxy.until(/Backups:/)
      const edgeUrl = `http://127.0.0.1:${port}`
      let ready = await run(VEXIL, ['ready', '--edge-url', edgeUrl])
      for (let i = 0; i < 100 && ready.code !== 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        ready = await run(VEXIL, ['ready', '--edge-url', edgeUrl])
      }
      expect(ready, proxy.output()).toMatchObject({ code: 0, stderr: '' })
      expect((await run(VEXIL, ['health'], { EDGE_URL: edgeUrl })).code).toBe(0)

      const features = await fetch(`${edgeUrl}/api/client/features`, { headers: { authorization: CLIENT_TOKEN } })
      expect(features.status).toBe(200)
      expect(JSON.stringify(await features.json())).toContain('chart-flag')
      const frontend = await fetch(`${edgeUrl}/api/frontend`, { headers: { authorization: FRONTEND_TOKEN } })
      expect(await frontend.json()).toMatchObject({ toggles: [{ name: 'chart-flag', enabled: true }] })
      expect((await fetch(`${edgeUrl}/proxy`, { headers: { authorization: 'any' } })).status).toBe(404)

      const output = proxy.output()
      expect(output).toContain(`Vexil proxy listening on http://127.0.0.1:${port}`)
      expect(output).toMatch(/Routes: +\/api\/frontend.*; no \/proxy \(it needs SERVICE_API_TOKEN/)
      expect(output).not.toContain(`:${port}/proxy`)
      expect(output).toContain("App name: unleash-edge (Edge's default under vexil edge")
      expect(output).toContain(`Backups:  files in ${backups.path}`)
      expect(upstream.requestsTo('/client/features').at(-1)?.headers['unleash-appname']).toBe('unleash-edge')
    } finally {
      expect(await proxy.stop(), proxy.output()).toBe(0)
    }
    const stopped = await run(VEXIL, ['health', '--edge-url', `http://127.0.0.1:${port}`])
    expect(stopped.code).toBe(1)
    expect(stopped.stderr.trim()).toMatch(
      new RegExp(
        `^Not healthy: http://127\\.0\\.0\\.1:${port}/internal-backstage/health could not be reached: .*ECONNREFUSED`,
      ),
    )
    expect(stopped.stderr.trim().split('\n')).toHaveLength(1)
  })

  it("takes Edge's global options before edge and its own after it (the vexil-proxy bin), and names what it ignores", async () => {
    const port = await freePort()
    const args = [
      '--port',
      String(port),
      '-i',
      '127.0.0.1',
      '--app-name',
      'chart-app',
      'edge',
      '-u',
      upstreamBase,
      '-t',
      CLIENT_TOKEN,
      '-b',
      backups.path,
      '-p',
      'secret-123@development',
    ]
    const proxy = start(VEXIL_PROXY, args, { CLIENT_KEEPALIVE_TIMEOUT: '30' })
    try {
      await proxy.until(/Backups:/)
      const output = proxy.output()
      expect(output).toContain(`listening on http://127.0.0.1:${port}`)
      expect(output).toContain('App name: chart-app')
      expect(output).toContain(
        "Ignoring Edge's CLIENT_KEEPALIVE_TIMEOUT (--client-keepalive-timeout): Vexil does not implement it;",
      )
      expect(output).toContain("Ignoring Edge's PRETRUSTED_TOKENS (--pretrusted-tokens): Vexil does not implement it;")
    } finally {
      expect(await proxy.stop(), proxy.output()).toBe(0)
    }
  })

  it('ready exits 1 while the proxy has no flags, health 0', async () => {
    const port = await freePort()
    upstream.fail({ status: 500 }, '/client/features')
    const proxy = start(VEXIL, ['edge'], {
      UPSTREAM_URL: upstreamBase,
      TOKENS: CLIENT_TOKEN,
      PORT: String(port),
      INTERFACE: '127.0.0.1',
      STORAGE_PROVIDER: 'memory',
    })
    try {
      await proxy.until(/Backups:/)
      const edgeUrl = `http://127.0.0.1:${port}`
      expect((await run(VEXIL, ['health', '-e', edgeUrl])).code).toBe(0)
      const ready = await run(VEXIL, ['ready', '-e', edgeUrl])
      expect(ready.code).toBe(1)
      expect(ready.stderr.trim()).toBe(
        `Not ready: ${edgeUrl}/internal-backstage/ready answered 503 {"error":"Edge is not ready to serve requests","status":"NOTREADY"}`,
      )
    } finally {
      upstream.fail(undefined, '/client/features')
      await proxy.stop()
    }
  })

  it("vexil --help lists Edge's commands; vexil proxy --help says what is required with and without TOKENS", async () => {
    const help = await run(VEXIL, ['--help'])
    for (const command of ['edge', 'health', 'ready']) expect(help.stdout).toContain(`  ${command} `)
    const proxyHelp = await run(VEXIL, ['proxy', '--help'])
    expect(proxyHelp.stdout).toContain(
      "SERVICE_URL (or UNLEASH_URL, or Edge's UPSTREAM_URL without /api) is required, and at least one of:",
    )
    expect(proxyHelp.stdout).toMatch(
      /SERVICE_API_TOKEN with SERVICE_PROXY_CLIENT_KEYS +the old proxy's \/proxy routes\n +TOKENS \(Edge's\) +client tokens/,
    )
    const edgeHelp = await run(VEXIL, ['edge', '--help'])
    expect(edgeHelp.stdout).toMatch(/-u, --upstream-url <value> +UPSTREAM_URL: read as SERVICE_URL/)
  })

  it('an Edge option in the wrong place exits 2, as Edge does', async () => {
    const wrong = await run(VEXIL, ['edge', '--tls-enable'])
    expect(wrong.code).toBe(2)
    expect(wrong.stderr.trim()).toBe(
      'Invalid command line: --tls-enable is not an option of `edge` (vexil edge --help lists them)',
    )
  })
})

describe("vexil proxy with the old proxy's variables", { timeout: 60_000 }, () => {
  it("keeps the old proxy's app name and says so", async () => {
    const port = await freePort()
    const proxy = start(VEXIL, ['proxy'], {
      UNLEASH_URL: upstream.url,
      UNLEASH_API_TOKEN: CLIENT_TOKEN,
      UNLEASH_PROXY_CLIENT_KEYS: 'old-key',
      PORT: String(port),
      HOST: '127.0.0.1',
      STORAGE_PROVIDER: 'memory',
      APP_NAME: 'edge-name',
    })
    try {
      await proxy.until(/Backups:/)
      const output = proxy.output()
      expect(output).toContain(
        "App name: unleash-proxy (the old proxy's default, as UNLEASH_URL configures this proxy; SERVICE_APP_NAME sets another)",
      )
      expect(output).toMatch(/Routes: +\/proxy, \/api\/frontend/)
      expect(output).toContain("Ignoring Edge's APP_NAME: `vexil edge` reads it; vexil proxy reads SERVICE_APP_NAME.")
      await upstream.waitFor((requests) =>
        requests.some((r) => r.path === '/client/features' && r.headers['unleash-appname'] === 'unleash-proxy'),
      )
    } finally {
      expect(await proxy.stop(), proxy.output()).toBe(0)
    }
  })
})
