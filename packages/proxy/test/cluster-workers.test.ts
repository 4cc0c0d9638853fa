// WORKERS=N (issue 17, "every core"): the built CLI with two workers behind one port, against a
// fake upstream on 127.0.0.1. One cluster runs through the whole file, in order: not ready until
// the upstream answers, one upstream sync for all workers, both workers answering, a flag change
// reaching both, one token validation, a killed worker replaced, and SIGTERM delivering every
// usage count exactly once.
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { request } from 'node:http'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FakeUpstream, startFakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { freePort } from '@vexil/test-fixtures/ports.ts'
import { until } from './helpers/until.js'

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const KEY = 'workers-key'
/** A uid with no entry in /etc/passwd. */
const NAMELESS_UID = 4242

/** Whether the built proxy loads as NAMELESS_UID: only root may start it so, and only a build all may read. */
function canRunNameless(): boolean {
  if (process.getuid?.() !== 0) return false
  const index = new URL('../dist/index.js', import.meta.url).href
  const probe = spawnSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(index)})`], {
    uid: NAMELESS_UID,
    gid: NAMELESS_UID,
    stdio: 'ignore',
    timeout: 10_000,
  })
  if (probe.status === 0) return true
  console.warn(
    '[cluster-workers] not root, or the build is not readable by all: the workers run as this user, who has a name',
  )
  return false
}
/** A second scope (another environment): its own sync, with its own upstream client. */
const PRODUCTION_TOKEN = '*:production.workers-client'
const FRONTEND_TOKEN = '*:production.workers-frontend'
const flagsNamed = (...names: string[]) => ({
  version: 2,
  features: names.map((name) => ({ name, enabled: true, strategies: [{ name: 'default' }] })),
})

interface Answer {
  status: number
  body: string
}

/** One request on a connection of its own, so the cluster hands each to the next worker. */
function send(
  port: number,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        headers: { connection: 'close', ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = ''
        res.on('data', (chunk: Buffer) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

const many = (n: number, make: () => Promise<Answer>) => Promise.all(Array.from({ length: n }, make))

function childPids(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((n) => n > 0)
  } catch {
    return []
  }
}

/** Established TCP connections on `port` whose socket `pid` holds (Linux /proc). */
function connectionsHeldBy(pid: number, port: number): number {
  const inodes = new Set<string>()
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))
      if (match) inodes.add(match[1]!)
    } catch {
      // closed meanwhile
    }
  }
  let count = 0
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      if (fields.length < 10) continue
      const localPort = Number.parseInt(fields[1]!.split(':')[1]!, 16)
      if (localPort === port && fields[3] === '01' && inodes.has(fields[9]!)) count++
    }
  }
  return count
}

interface MetricsPost {
  bucket: { toggles: Record<string, { yes: number; no: number }> }
}

describe.skipIf(process.platform !== 'linux')('WORKERS=2 (the built CLI)', () => {
  let upstream: FakeUpstream
  let primary: ChildProcess
  let port: number
  let output = ''
  let exited: Promise<number | null>
  /** Usage counts made by the test, to compare with what reached the upstream. */
  const made = { on: { yes: 0, no: 0 }, off: { yes: 0, no: 0 } }

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first (npm ci does)`)
    upstream = await startFakeUpstream(flagsNamed('on'))
    upstream.setFeaturesFor(PRODUCTION_TOKEN, flagsNamed('production-flag'))
    upstream.setValidTokens([
      { token: PRODUCTION_TOKEN, type: 'client', projects: ['*'], environment: 'production' },
      { token: FRONTEND_TOKEN, type: 'frontend', projects: ['*'], environment: 'production' },
    ])
    // The upstream is down at first: the cluster must say it is not ready.
    upstream.fail({ status: 503 }, '/client/features')
    port = await freePort()
    primary = spawn(process.execPath, [CLI], {
      env: {
        PATH: process.env.PATH ?? '',
        WORKERS: '2',
        SERVICE_URL: upstream.url,
        SERVICE_API_TOKEN: '*:development.workers-client',
        SERVICE_PROXY_CLIENT_KEYS: KEY,
        TOKENS: PRODUCTION_TOKEN,
        PORT: String(port),
        HOST: '127.0.0.1',
        SERVICE_FETCH_INTERVAL: '300',
        SERVICE_METRICS_INTERVAL: '500',
        STORAGE_PROVIDER: 'memory',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Where it can (as root, the build readable by all), as a user with no name, as a container's arbitrary uid: no process
      // can tell the user, so each would make up an instance id of its own.
      ...(canRunNameless() ? { uid: NAMELESS_UID, gid: NAMELESS_UID } : {}),
    })
    primary.stdout!.on('data', (chunk: Buffer) => (output += chunk))
    primary.stderr!.on('data', (chunk: Buffer) => (output += chunk))
    exited = new Promise((resolve) => primary.once('exit', (code) => resolve(code)))
    await until(() => output.includes('listening on'), 'the listening line', 10_000)
  }, 15_000)

  afterAll(async () => {
    if (primary && primary.exitCode === null && primary.signalCode === null) {
      primary.kill('SIGKILL')
      for (const pid of childPids(primary.pid!)) process.kill(pid, 'SIGKILL')
    }
    await upstream?.close()
  })

  it('is not ready while the upstream has not answered, then ready in every worker', async () => {
    for (const answer of await many(6, () => send(port, 'GET', '/proxy/health'))) expect(answer.status).toBe(503)
    for (const answer of await many(6, () => send(port, 'GET', '/internal-backstage/ready')))
      expect(answer.status).toBe(503)
    upstream.fail(undefined, '/client/features')
    await until(async () => (await send(port, 'GET', '/internal-backstage/ready')).status === 200, 'ready', 10_000)
    // Every worker says so (consecutive connections go to the workers in turn).
    for (const answer of await many(8, () => send(port, 'GET', '/proxy/health')))
      expect(answer.status, output).toBe(200)
    for (const answer of await many(8, () => send(port, 'GET', '/internal-backstage/ready')))
      expect(answer.status).toBe(200)
  })

  it('polls the upstream once per interval, from one client, whatever the number of workers', async () => {
    const before = upstream.requestsTo('/client/features').length
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    const polls = upstream.requestsTo('/client/features').slice(before)
    // Two scopes polled every 300 ms: about 20 in 3 s (each worker polling on its own would make 60).
    expect(polls.length).toBeGreaterThanOrEqual(10)
    expect(polls.length).toBeLessThanOrEqual(24)
    // One upstream client for the static scope, one for the TOKENS scope: never one per worker.
    const clients = new Set(upstream.requestsTo('/client/features').map((r) => r.headers['unleash-connection-id']))
    expect(clients.size).toBe(2)
  })

  it('answers /proxy from both workers, with the same flags', async () => {
    const workers = childPids(primary.pid!)
    expect(workers).toHaveLength(2)
    // Eight connections held open at once: the cluster hands them to the workers in turn.
    const { Agent } = await import('node:http')
    const agent = new Agent({ keepAlive: true, maxSockets: 8 })
    try {
      const answers = await Promise.all(
        Array.from(
          { length: 8 },
          (_, i) =>
            new Promise<Answer>((resolve, reject) => {
              const req = request(
                { host: '127.0.0.1', port, path: `/proxy?userId=${i}`, agent, headers: { authorization: KEY } },
                (res) => {
                  let text = ''
                  res.on('data', (chunk: Buffer) => (text += chunk))
                  res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
                },
              )
              req.on('error', reject)
              req.end()
            }),
        ),
      )
      for (const answer of answers) expect(answer.status).toBe(200)
      expect(
        (JSON.parse(answers[0]!.body) as { toggles: Array<{ name: string }> }).toggles.map((toggle) => toggle.name),
      ).toEqual(['on'])
      expect(new Set(answers.map((answer) => answer.body)).size).toBe(1)
      for (const pid of workers)
        expect(connectionsHeldBy(pid, port), `connections held by worker ${pid}`).toBeGreaterThan(0)
    } finally {
      agent.destroy()
    }
  })

  it("starts its workers with V8's memory flags (the primary was started without them)", () => {
    const workers = childPids(primary.pid!)
    expect(workers).toHaveLength(2)
    for (const pid of workers)
      expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toEqual(
        expect.arrayContaining(['--max-semi-space-size=2', '--heap-growing-percent=30']),
      )
    const primaryFlags = readFileSync(`/proc/${primary.pid!}/cmdline`, 'utf8').split('\0')
    expect(primaryFlags).not.toContain('--max-semi-space-size=2')
    expect(primaryFlags).not.toContain('--heap-growing-percent=30')
  })

  it('a flag changed upstream reaches the answers of every worker', async () => {
    upstream.setFeatures(flagsNamed('on', 'off'))
    const hasBoth = (answer: Answer) => answer.status === 200 && answer.body.includes('"off"')
    await until(
      async () => (await many(4, () => send(port, 'GET', '/proxy', { authorization: KEY }))).every(hasBoth),
      'the new flag everywhere',
      5_000,
    )
    for (const answer of await many(10, () => send(port, 'GET', '/proxy', { authorization: KEY })))
      expect(hasBoth(answer), answer.body).toBe(true)
  })

  it("answers a Prometheus scrape with the whole cluster's figures, whichever worker is scraped", async () => {
    const scrape = async () => readCounters((await send(port, 'GET', '/internal-backstage/metrics')).body)
    const before = await scrape()
    await many(20, () => send(port, 'GET', '/proxy?userId=scraped', { authorization: KEY }))
    // Consecutive scrapes reach different workers: each must see all 20 requests.
    for (const after of [await scrape(), await scrape(), await scrape()]) {
      expect(after.evaluations - before.evaluations).toBe(20)
      expect(after.up).toBe(1)
      expect(after.fetches).toBeGreaterThan(0)
    }
  })

  it('sums the request histogram and the upstream calls over the processes, whichever worker is scraped', async () => {
    const scrape = async () => readSeries((await send(port, 'GET', '/internal-backstage/metrics')).body)
    const before = await scrape()
    await many(20, () => send(port, 'GET', '/proxy?userId=histogram', { authorization: KEY }))
    for (const after of [await scrape(), await scrape(), await scrape()]) {
      expect(after.proxyRequests - before.proxyRequests).toBe(20)
      expect(after.edgeProxyRequests - before.edgeProxyRequests).toBe(20)
      // Only the primary calls the upstream; its counts are in every worker's answer.
      expect(after.featuresOk).toBeGreaterThan(0)
      expect(after.edgeFeatureFetches).toBe(after.featuresOk)
    }
  })

  it("labels every process's metrics with the one instance id the upstream knows the proxy by", async () => {
    const instanceIds = new Set<string>()
    for (let i = 0; i < 4; i++) {
      const scrape = (await send(port, 'GET', '/internal-backstage/metrics')).body
      for (const match of scrape.matchAll(/^http_requests_total\{[^}]*instance_id="([^"]*)"/gm))
        instanceIds.add(match[1]!)
    }
    const upstreamIds = new Set(upstream.requests.map((recorded) => recorded.headers['unleash-instanceid']))
    expect(upstreamIds.size).toBe(1)
    expect([...instanceIds]).toEqual([...upstreamIds])
  })

  it('validates a new token upstream once for the whole cluster', async () => {
    // Only the calls that ask about the new token alone: the primary also revalidates every known
    // token each second (TOKENS' among them), and CI once saw one of those land inside this test.
    const asked = () =>
      upstream
        .requestsTo('/edge/validate')
        .filter((request) => request.body.includes(FRONTEND_TOKEN) && !request.body.includes(PRODUCTION_TOKEN)).length
    const before = asked()
    const answers = await many(10, () => send(port, 'GET', '/api/frontend?userId=1', { authorization: FRONTEND_TOKEN }))
    for (const answer of answers) {
      expect(answer.status, answer.body).toBe(200)
      expect(answer.body).toContain('production-flag')
    }
    expect(asked() - before).toBe(1)
  })

  it('counts evaluations and SDK metrics in every worker, sent upstream', async () => {
    // Lookups (POST /proxy with a toggles list) and SDK metrics, spread over both workers.
    const lookups = await many(40, () =>
      send(port, 'POST', '/proxy', { authorization: KEY }, '{"context":{"userId":"7"},"toggles":["on","off"]}'),
    )
    for (const answer of lookups) expect(answer.status).toBe(200)
    made.on.yes += 40
    made.off.yes += 40
    const bucket = {
      start: new Date().toISOString(),
      stop: new Date().toISOString(),
      toggles: { on: { yes: 3, no: 1 } },
    }
    const posted = await many(10, () =>
      send(
        port,
        'POST',
        '/proxy/client/metrics',
        { authorization: KEY },
        JSON.stringify({ appName: 'sdk', instanceId: 'i', bucket }),
      ),
    )
    for (const answer of posted) expect(answer.status).toBe(200)
    made.on.yes += 30
    made.on.no += 10
    // They reach the upstream in the primary's periodic reports.
    await until(() => sumOf(upstream, 'on').yes === made.on.yes, 'the counts upstream', 10_000)
  })

  it('replaces a worker killed with SIGKILL and keeps answering', async () => {
    const [victim, survivor] = childPids(primary.pid!)
    process.kill(victim!, 'SIGKILL')
    await until(
      () => {
        const now = childPids(primary.pid!)
        return now.length === 2 && !now.includes(victim!) && now.includes(survivor!)
      },
      'a new worker',
      10_000,
    )
    await until(
      () => output.includes(`Worker ${victim} exited with signal SIGKILL; starting a new one`),
      'the log line',
      5_000,
    )
    await until(async () => (await send(port, 'GET', '/internal-backstage/ready')).status === 200, 'ready again', 5_000)
    const answers = await many(10, () => send(port, 'POST', '/proxy', { authorization: KEY }, '{"toggles":["on"]}'))
    for (const answer of answers) expect(answer.status).toBe(200)
    made.on.yes += 10
  })

  it('stops on SIGTERM with exit code 0, every count delivered once', async () => {
    // The last counts are still in the workers: SIGTERM must carry them upstream.
    const answers = await many(6, () => send(port, 'POST', '/proxy', { authorization: KEY }, '{"toggles":["off"]}'))
    for (const answer of answers) expect(answer.status).toBe(200)
    made.off.yes += 6
    primary.kill('SIGTERM')
    expect(await exited, output).toBe(0)
    expect(sumOf(upstream, 'on')).toEqual(made.on)
    expect(sumOf(upstream, 'off')).toEqual(made.off)
    expect(childPids(primary.pid!)).toEqual([])
  })
})

describe.skipIf(process.platform !== 'linux')('WORKERS=2 when a worker cannot start', () => {
  it("stops with exit code 1 and the worker's reason instead of forking again and again", async () => {
    const { createServer } = await import('node:net')
    const taken = createServer()
    const port = await new Promise<number>((resolve) =>
      taken.listen(0, '127.0.0.1', () => resolve((taken.address() as { port: number }).port)),
    )
    try {
      const child = spawn(process.execPath, [CLI], {
        env: {
          PATH: process.env.PATH ?? '',
          WORKERS: '2',
          SERVICE_URL: 'http://127.0.0.1:1/api',
          SERVICE_API_TOKEN: 't',
          SERVICE_PROXY_CLIENT_KEYS: KEY,
          PORT: String(port),
          HOST: '127.0.0.1',
          STORAGE_PROVIDER: 'memory',
          SERVICE_METRICS_INTERVAL: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let text = ''
      child.stderr!.on('data', (chunk: Buffer) => (text += chunk))
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
      clearTimeout(timer)
      expect(code, text).toBe(1)
      expect(text).toContain(`Port ${port} on 127.0.0.1 is already in use`)
      expect(text).toContain('The proxy could not start: A worker exited with code 1 before the proxy listened')
    } finally {
      taken.close()
    }
  })
})

function sumOf(upstream: FakeUpstream, flag: string): { yes: number; no: number } {
  const total = { yes: 0, no: 0 }
  for (const post of upstream.requestsTo('/client/metrics')) {
    const counts = (JSON.parse(post.body) as MetricsPost).bucket.toggles[flag]
    total.yes += counts?.yes ?? 0
    total.no += counts?.no ?? 0
  }
  return total
}

/** From a Prometheus scrape: evaluation requests (cache hits and misses), `unleash_proxy_up`, upstream fetches. */
function readCounters(text: string): { evaluations: number; up: number; fetches: number } {
  const sum = (pattern: RegExp) => [...text.matchAll(pattern)].reduce((total, match) => total + Number(match[1]), 0)
  return {
    evaluations: sum(/^vexil_proxy_response_cache_total\{[^}]*\} (\d+)$/gm),
    up: sum(/^unleash_proxy_up (\d+)$/gm),
    fetches: sum(/^vexil_proxy_upstream_fetches_total\{[^}]*\} (\d+)$/gm),
  }
}

function readSeries(text: string): {
  proxyRequests: number
  edgeProxyRequests: number
  featuresOk: number
  edgeFeatureFetches: number
} {
  const sum = (pattern: RegExp) => [...text.matchAll(pattern)].reduce((total, match) => total + Number(match[1]), 0)
  return {
    proxyRequests: sum(
      /^http_server_duration_milliseconds_count\{method="GET",endpoint="\/proxy",status="200",[^}]*\} (\d+)$/gm,
    ),
    edgeProxyRequests: sum(/^http_requests_total\{method="GET",endpoint="\/proxy",status="200",[^}]*\} (\d+)$/gm),
    featuresOk: sum(/^vexil_proxy_upstream_requests_total\{kind="features",outcome="(?:ok|not_modified)"\} (\d+)$/gm),
    edgeFeatureFetches: sum(/^client_feature_fetch_count\{status_code="(?:200|304)",[^}]*\} (\d+)$/gm),
  }
}
