// The proxy as a process and as configured: the CLI's exit codes and signals, logging, base
// path, CORS options, the docs, and the response cache's exactness.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { freePort } from '@vexil/test-fixtures/ports.ts'
import { createLogger } from '../src/logger.js'
import { CLIENT_KEY, useServers } from './helpers/proxy.js'

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const FEATURES = { version: 2, features: [{ name: 'on', enabled: true, strategies: [{ name: 'default' }] }] }
const auth = { authorization: CLIENT_KEY }

const servers = useServers()
const upstreamWith = (initial: unknown = FEATURES) => servers.upstream(initial)
const proxyFor = servers.proxy

interface Run {
  code: number | null
  stdout: string
  stderr: string
}
function runCli(
  args: string[],
  env: Record<string, string>,
  untilOutput?: RegExp,
  then?: (child: ReturnType<typeof spawn>) => void,
): Promise<Run> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first (npm ci does)`)
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    let triggered = false
    const check = () => {
      if (!triggered && untilOutput && untilOutput.test(stdout + stderr)) {
        triggered = true
        then?.(child)
      }
    }
    child.stdout.on('data', (d: Buffer) => {
      stdout += d
      check()
    })
    child.stderr.on('data', (d: Buffer) => {
      stderr += d
      check()
    })
    // Never hang the suite: a process still running after 20 s is killed and its output shown.
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

describe('vexil proxy (the vexil-proxy bin, runProxyCli)', () => {
  it('exits 1 with one line naming a malformed variable', async () => {
    const run = await runCli([], {
      SERVICE_URL: 'http://127.0.0.1:1/api',
      SERVICE_API_TOKEN: 't',
      SERVICE_PROXY_CLIENT_KEYS: 'k',
      SERVICE_FETCH_INTERVAL: 'often',
    })
    expect(run.code).toBe(1)
    expect(run.stderr.trim().split('\n')).toEqual([
      'Invalid configuration: SERVICE_FETCH_INTERVAL must be a whole number, got "often"',
    ])
  })

  it('exits 1 naming a missing required variable', async () => {
    const run = await runCli([], { SERVICE_URL: 'http://127.0.0.1:1/api' })
    expect(run.code).toBe(1)
    expect(run.stderr.trim()).toMatch(/^Invalid configuration: SERVICE_API_TOKEN is required/)
  })

  it('--help lists the configuration', async () => {
    const run = await runCli(['--help'], {})
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('SERVICE_URL, UNLEASH_URL')
    expect(run.stdout).toContain('TRUST_PROXY')
  })

  it('serves, and on SIGTERM sends the pending metrics before exiting 0', async () => {
    const upstream = await upstreamWith()
    const port = await freePort()
    let lookup: Promise<number> | undefined
    const run = await runCli(
      [],
      // Memory storage: the default backup file in the temp folder is shared by every proxy with
      // the same app name on this machine, and another test's flags must not make this one ready.
      {
        SERVICE_URL: upstream.url,
        SERVICE_API_TOKEN: 'cli-token',
        SERVICE_PROXY_CLIENT_KEYS: 'cli-key',
        PORT: String(port),
        HOST: '127.0.0.1',
        SERVICE_METRICS_INTERVAL: '600000',
        LOG_LEVEL: 'info',
        STORAGE_PROVIDER: 'memory',
      },
      /Ready: 1 flags/,
      (child) => {
        // Whatever the lookup gives, stop the process: its status is asserted below.
        lookup = fetch(`http://127.0.0.1:${port}/proxy`, {
          method: 'POST',
          headers: { authorization: 'cli-key', 'content-type': 'application/json' },
          body: '{"toggles":["on"]}',
        })
          .then((res) => res.status)
          .finally(() => child.kill('SIGTERM'))
      },
    )
    expect(await lookup, run.stdout + run.stderr).toBe(200)
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.stdout + run.stderr).toContain(`127.0.0.1:${port}`)
    const metrics = upstream
      .requestsTo('/client/metrics')
      .map((r) => JSON.parse(r.body) as { bucket: { toggles: Record<string, { yes: number }> } })
    expect(metrics.reduce((n, m) => n + (m.bucket.toggles.on?.yes ?? 0), 0)).toBe(1)
    expect(run.stdout + run.stderr).not.toContain('cli-token')
  })
})

describe('logging', () => {
  it('JSON lines keep error messages and stacks; secrets never appear', () => {
    const lines: string[] = []
    const logger = createLogger({
      level: 'info',
      json: true,
      secrets: ['upstream-secret'],
      write: (line) => lines.push(line),
    })
    logger.error('fetch failed with upstream-secret', new Error('connect ECONNREFUSED'))
    logger.debug('hidden')
    expect(lines).toHaveLength(1)
    const line = JSON.parse(lines[0]!) as {
      level: string
      message: string
      args: Array<{ message: string; stack: string }>
    }
    expect(line.level).toBe('error')
    expect(line.message).toBe('fetch failed with ***')
    expect(line.args[0]!.message).toBe('connect ECONNREFUSED')
    expect(line.args[0]!.stack).toContain('Error: connect ECONNREFUSED')
  })

  it('text lines are LEVEL: message args', () => {
    const lines: string[] = []
    createLogger({ level: 'warn', json: false, write: (line) => lines.push(line) }).warn('careful', { a: 1 })
    expect(lines).toEqual(['WARN: careful {"a":1}'])
  })
})

describe('base path', () => {
  it('serves every route under PROXY_BASE_PATH and nothing outside it', async () => {
    const upstream = await upstreamWith()
    const proxy = await proxyFor(upstream, { proxyBasePath: 'base/path/', enableOAS: true })
    expect((await fetch(proxy.at('/base/path/proxy'), { headers: auth })).status).toBe(200)
    expect((await fetch(proxy.at('/base/path/proxy/health'))).status).toBe(200)
    expect((await fetch(proxy.at('/base/path/docs/openapi.json'))).status).toBe(200)
    expect((await fetch(proxy.at('/proxy'), { headers: auth })).status).toBe(404)
    expect((await fetch(proxy.at('/base/pathproxy'), { headers: auth })).status).toBe(404)
  })
})

describe('docs', () => {
  it('are served with enableOAS and answer 404 without it', async () => {
    const upstream = await upstreamWith()
    const withDocs = await proxyFor(upstream, { enableOAS: true })
    const doc = (await (await fetch(withDocs.at('/docs/openapi.json'))).json()) as {
      openapi: string
      paths: Record<string, unknown>
    }
    expect(doc.openapi).toBe('3.0.3')
    expect(Object.keys(doc.paths)).toContain('/proxy')
    expect((await fetch(withDocs.at('/docs/openapi/'))).status).toBe(200)
    expect((await fetch(withDocs.at('/docs/openapi/nope.js'))).status).toBe(404)
    const without = await proxyFor(upstream)
    expect((await fetch(without.at('/docs/openapi.json'))).status).toBe(404)
  })
})

describe('CORS options', () => {
  it('with an origin list, echoes a listed origin with Vary: Origin and omits the header for others', async () => {
    const upstream = await upstreamWith()
    const proxy = await proxyFor(upstream, {
      cors: { origin: ['https://a.example', 'https://b.example'], credentials: true },
    })
    const listed = await fetch(proxy.at('/proxy'), { headers: { ...auth, origin: 'https://b.example' } })
    expect(listed.headers.get('access-control-allow-origin')).toBe('https://b.example')
    expect(listed.headers.get('access-control-allow-credentials')).toBe('true')
    expect(listed.headers.get('vary')).toContain('Origin')
    const other = await fetch(proxy.at('/proxy'), { headers: { ...auth, origin: 'https://evil.example' } })
    expect(other.status).toBe(200)
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('honours methods, allowed headers, max age, success status and preflightContinue', async () => {
    const upstream = await upstreamWith()
    const proxy = await proxyFor(upstream, {
      cors: { methods: 'GET', allowedHeaders: 'authorization', maxAge: 60, optionsSuccessStatus: 200 },
    })
    const res = await fetch(proxy.at('/proxy'), {
      method: 'OPTIONS',
      headers: { origin: 'https://x', 'access-control-request-headers': 'x-anything' },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-methods')).toBe('GET')
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization')
    expect(res.headers.get('access-control-max-age')).toBe('60')
    const continuing = await proxyFor(upstream, { cors: { preflightContinue: true } })
    expect((await fetch(continuing.at('/proxy'), { method: 'OPTIONS' })).status).toBe(404)
  })

  it('reads the client key from a custom header', async () => {
    const upstream = await upstreamWith()
    const proxy = await proxyFor(upstream, { clientKeysHeaderName: 'X-Client-Key' })
    expect((await fetch(proxy.at('/proxy'), { headers: { 'x-client-key': CLIENT_KEY } })).status).toBe(200)
    expect((await fetch(proxy.at('/proxy'), { headers: auth })).status).toBe(401)
  })
})

describe('response cache', () => {
  it('is emptied by a new payload, so an upstream change is served at once', async () => {
    const upstream = await upstreamWith()
    const proxy = await proxyFor(upstream, { refreshInterval: 50 })
    const first = await (await fetch(proxy.at('/proxy?userId=1&sessionId=s'), { headers: auth })).text()
    expect(first).toContain('"on"')
    upstream.setFeatures({
      version: 2,
      features: [{ name: 'other', enabled: true, strategies: [{ name: 'default' }] }],
    })
    await expect
      .poll(async () => (await fetch(proxy.at('/proxy?userId=1&sessionId=s'), { headers: auth })).text(), {
        timeout: 5000,
      })
      .toContain('"other"')
  })

  it('never keeps an answer that depended on randomness', async () => {
    const upstream = await upstreamWith({
      version: 2,
      features: [
        {
          name: 'coin',
          enabled: true,
          strategies: [{ name: 'gradualRolloutRandom', parameters: { percentage: '50' } }],
        },
      ],
    })
    const proxy = await proxyFor(upstream)
    const seen = new Set<string>()
    for (let i = 0; i < 40; i++)
      seen.add(await (await fetch(proxy.at('/proxy?userId=1&sessionId=s'), { headers: auth })).text())
    expect(seen.size).toBe(2)
  })

  it('keeps answers that read the clock only until the next DATE constraint', async () => {
    const soon = new Date(Date.now() + 1500).toISOString()
    const upstream = await upstreamWith({
      version: 2,
      features: [
        {
          name: 'launch',
          enabled: true,
          strategies: [
            { name: 'default', constraints: [{ contextName: 'currentTime', operator: 'DATE_AFTER', value: soon }] },
          ],
        },
      ],
    })
    const proxy = await proxyFor(upstream)
    const get = async () =>
      (await (await fetch(proxy.at('/proxy?userId=1&sessionId=s'), { headers: auth })).json()) as { toggles: unknown[] }
    expect((await get()).toggles).toHaveLength(0)
    await new Promise((resolve) => setTimeout(resolve, 1600))
    expect((await get()).toggles).toHaveLength(1)
  })
})
