// Offline mode as a process (`vexil-proxy offline`, what `vexil offline` runs): a real file in a
// temp folder, the SDKs from npm reading it (unleash-client on /api/client, unleash-proxy-client
// on /api/frontend) and OFREP, tokens not listed refused as Edge refuses them, the file edited,
// broken and mended while it runs, a bad file at start, and an upstream configured beside it that
// must never be asked anything.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, renameSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { InMemStorageProvider, Unleash } from 'unleash-client'
import { InMemoryStorageProvider, UnleashClient } from 'unleash-proxy-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '@vexil/test-fixtures/ports.ts'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'
import { timeUntil, waitFor } from '@vexil/test-fixtures/wait-for.ts'

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const CLIENT_TOKEN = '*:development.offline-client'
const FRONTEND_TOKEN = '*:development.offline-frontend'
const RELOAD_SECONDS = 1
const SIMPLE = {
  'offline.paint': { enabled: true, variant: 'blue' },
  'offline.on': { enabled: true },
  'offline.off': { enabled: false },
}
const CLIENT_FEATURES = {
  version: 2,
  features: [
    {
      name: 'offline.paint',
      enabled: true,
      project: 'default',
      strategies: [{ name: 'default', constraints: [], parameters: {} }],
      variants: [{ name: 'red', weight: 1000, weightType: 'fix', stickiness: 'default' }],
    },
    {
      name: 'offline.tenant',
      enabled: true,
      project: 'default',
      strategies: [{ name: 'default', constraints: [], parameters: {}, segments: [1] }],
    },
  ],
  segments: [{ id: 1, constraints: [{ contextName: 'tenant', operator: 'IN', values: ['acme'] }] }],
  query: { environment: 'development' },
}

interface Running {
  child: ChildProcess
  base: string
  output(): string
  stop(): Promise<void>
}

/** `vexil-proxy offline <args>` with only `env` (and PATH); resolves once it listens. */
async function startOffline(args: string[], env: Record<string, string>): Promise<Running> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first (npm ci does)`)
  const child = spawn(process.execPath, [CLI, 'offline', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const base = await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}:\n${output}`)
      return /listening on (http:\/\/\S+):/.exec(output)?.[1]
    },
    'offline mode to listen',
    15_000,
  )
  return {
    child,
    base,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}

/** Runs `vexil-proxy offline <args>` to its exit. */
function runOffline(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'offline', ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, stderr })
    })
  })
}

/** Replaces the file at once (a reader never sees half of it). */
function writeFlags(path: string, content: unknown): void {
  writeFileSync(`${path}.next`, typeof content === 'string' ? content : JSON.stringify(content))
  renameSync(`${path}.next`, path)
}

const get = (url: string, token?: string) => fetch(url, { headers: token ? { authorization: token } : {} })

const folder = tempDir('offline-mode')
const file = join(folder.path, 'flags.json')
let upstream: Server
const upstreamRequests: string[] = []
let offline: Running
let server: Unleash
let browser: UnleashClient

beforeAll(async () => {
  // An upstream that counts whatever reaches it: offline mode must send it nothing.
  upstream = createServer((req, res) => {
    upstreamRequests.push(`${req.method} ${req.url}`)
    res.writeHead(500).end()
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
  writeFlags(file, SIMPLE)
  offline = await startOffline(
    [
      '--bootstrap-file',
      file,
      '--client-tokens',
      CLIENT_TOKEN,
      '-f',
      FRONTEND_TOKEN,
      '--reload-interval',
      String(RELOAD_SECONDS),
      '--port',
      String(await freePort()),
    ],
    {
      UPSTREAM_URL: upstreamUrl,
      SERVICE_URL: `${upstreamUrl}/api`,
      TOKENS: '*:development.upstream-token',
    },
  )
  server = new Unleash({
    url: `${offline.base}/api`,
    appName: 'offline-server-sdk',
    customHeaders: { Authorization: CLIENT_TOKEN },
    refreshInterval: 200,
    metricsInterval: 200,
    storageProvider: new InMemStorageProvider(),
  })
  server.on('error', () => {})
  await new Promise<void>((resolve) => server.once('synchronized', () => resolve()))
  browser = new UnleashClient({
    url: `${offline.base}/api/frontend`,
    clientKey: FRONTEND_TOKEN,
    appName: 'offline-frontend-sdk',
    refreshInterval: 1,
    metricsInterval: 1,
    metricsIntervalInitial: 1,
    storageProvider: new InMemoryStorageProvider(),
  })
  await browser.start()
}, 30_000)

afterAll(async () => {
  browser?.stop()
  server?.destroy()
  await offline?.stop()
  await new Promise((resolve) => upstream?.close(resolve))
  folder.remove()
})

describe("offline mode (Edge's offline command)", () => {
  it('serves the simple map to a server SDK on /api/client with a listed client token', () => {
    expect(server.isEnabled('offline.on')).toBe(true)
    expect(server.isEnabled('offline.off')).toBe(false)
    expect(server.getVariant('offline.paint', { userId: '7' }).name).toBe('blue')
  })

  it('serves it to a frontend SDK on /api/frontend with a listed frontend token', () => {
    expect(browser.isReady()).toBe(true)
    expect(browser.isEnabled('offline.on')).toBe(true)
    expect(browser.isEnabled('offline.off')).toBe(false)
    expect(browser.getVariant('offline.paint').name).toBe('blue')
  })

  it('answers OFREP for a listed frontend token', async () => {
    const response = await fetch(`${offline.base}/ofrep/v1/evaluate/flags/offline.paint`, {
      method: 'POST',
      headers: { authorization: FRONTEND_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ context: { targetingKey: '7' } }),
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ key: 'offline.paint', variant: 'blue', value: 'blue' })
  })

  it('refuses a token not listed, no token, and a listed token of the other type as Edge does: 403 with an empty body', async () => {
    const refused = [
      [`${offline.base}/api/client/features`, '*:development.not-listed'],
      [`${offline.base}/api/frontend`, '*:development.not-listed'],
      [`${offline.base}/api/client/features`, undefined],
      [`${offline.base}/api/frontend`, undefined],
      [`${offline.base}/api/frontend`, CLIENT_TOKEN],
      [`${offline.base}/api/client/features`, FRONTEND_TOKEN],
    ] as const
    for (const [url, token] of refused) {
      const response = await get(url, token)
      expect([url, token, response.status, await response.text()]).toEqual([url, token, 403, ''])
    }
    const ofrep = await fetch(`${offline.base}/ofrep/v1/evaluate/flags`, {
      method: 'POST',
      headers: { authorization: '*:development.not-listed', 'content-type': 'application/json' },
      body: '{}',
    })
    expect(ofrep.status).toBe(403)
  })

  it('accepts the metrics SDKs post and answers ready', async () => {
    const metrics = await fetch(`${offline.base}/api/client/metrics`, {
      method: 'POST',
      headers: { authorization: CLIENT_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({
        appName: 'a',
        instanceId: 'i',
        bucket: {
          start: new Date().toISOString(),
          stop: new Date().toISOString(),
          toggles: { 'offline.on': { yes: 1, no: 0 } },
        },
      }),
    })
    expect(metrics.status).toBe(202)
    expect((await get(`${offline.base}/internal-backstage/ready`)).status).toBe(200)
  })

  it('serves a flag added to the file within the reload interval, in the other format too', async () => {
    writeFlags(file, CLIENT_FEATURES)
    const since = performance.now()
    const waited = await timeUntil(
      () => server.isEnabled('offline.tenant', { properties: { tenant: 'acme' } }),
      'the server SDK to see the new flag',
      { timeoutMs: 10_000, everyMs: 50 },
    )
    // One reload interval, plus the SDK's own refresh and a loaded machine's slack.
    expect(waited).toBeLessThan(RELOAD_SECONDS * 1000 + 3_000)
    expect(server.isEnabled('offline.tenant', { properties: { tenant: 'other' } })).toBe(false)
    expect(server.getVariant('offline.paint').name).toBe('red')
    // The scope is the file's at start (the simple map names no environment): a reload keeps it.
    const body = await (await get(`${offline.base}/api/client/features`, CLIENT_TOKEN)).json()
    expect(body.query).toMatchObject({ environment: 'default', projects: ['*'] })
    await timeUntil(() => browser.getVariant('offline.paint').name === 'red', 'the frontend SDK to see the change', {
      since,
      timeoutMs: 10_000,
      everyMs: 50,
    })
  })

  it('keeps the last good flags when the file breaks, and says so once', async () => {
    const before = offline.output().length
    writeFlags(file, '{"offline.paint": ')
    // Three reload intervals: the broken file is read three times and named once.
    await new Promise((resolve) => setTimeout(resolve, RELOAD_SECONDS * 3_000 + 500))
    const lines = offline
      .output()
      .slice(before)
      .split('\n')
      .filter((line) => line.includes(file))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/is not JSON: .*the flags read from it last are still served/)
    const response = await get(`${offline.base}/api/client/features`, CLIENT_TOKEN)
    expect(response.status).toBe(200)
    expect((await response.json()).features.map((f: { name: string }) => f.name)).toEqual([
      'offline.paint',
      'offline.tenant',
    ])
    writeFlags(file, SIMPLE)
    await timeUntil(() => server.getVariant('offline.paint').name === 'blue', 'the mended file to be served', {
      timeoutMs: 10_000,
      everyMs: 50,
    })
  })

  it('never asks the upstream configured beside it for anything', async () => {
    expect(offline.output()).toMatch(/Offline mode has no upstream: SERVICE_URL\/UPSTREAM_URL, TOKENS ignored/)
    expect(upstreamRequests).toEqual([])
  })
})

describe('offline mode at start', () => {
  it.each([
    ['a missing file', undefined, /could not be read: ENOENT/],
    ['a file that is not JSON', '{"a": ', /is not JSON/],
    ['a file in neither format', '{"a": {"enabled": "yes"}}', /"a".enabled must be true or false/],
  ])('stops with exit code 1 naming %s', async (_, content, why) => {
    const path = join(folder.path, `start-${Math.random().toString(36).slice(2)}.json`)
    if (content !== undefined) writeFileSync(path, content)
    const run = await runOffline(['-b', path, '-c', CLIENT_TOKEN])
    expect(run.code).toBe(1)
    const lines = run.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(`Invalid configuration: BOOTSTRAP_FILE (${path})`)
    expect(lines[0]).toMatch(why)
  })

  it('serves client features as given, in the environment their query names, to every listed token', async () => {
    const path = join(folder.path, 'client-features.json')
    writeFileSync(path, JSON.stringify(CLIENT_FEATURES))
    const running = await startOffline(
      ['-b', path, '-c', `${CLIENT_TOKEN},default:production.other-text`, '--port', String(await freePort())],
      {},
    )
    try {
      for (const token of [CLIENT_TOKEN, 'default:production.other-text']) {
        const body = await (await get(`${running.base}/api/client/features`, token)).json()
        expect(body.query).toMatchObject({ environment: 'development', projects: ['*'] })
        expect(body.features.map((f: { name: string }) => f.name)).toEqual(['offline.paint', 'offline.tenant'])
        expect(body.segments).toEqual(CLIENT_FEATURES.segments)
      }
    } finally {
      await running.stop()
    }
  })

  it("listens on Edge's port 3063 by default", async () => {
    writeFileSync(join(folder.path, 'port.json'), '{}')
    // Only when 3063 is free here: the test must not fail for another process's port.
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer().once('error', () => resolve(false))
      probe.listen(3063, '0.0.0.0', () => probe.close(() => resolve(true)))
    })
    if (!free) return
    const running = await startOffline(['-b', join(folder.path, 'port.json'), '-c', CLIENT_TOKEN], {})
    try {
      expect(running.base).toBe('http://127.0.0.1:3063')
    } finally {
      await running.stop()
    }
  })
})
