// WORKERS=2 on the per-app path: SDKs' metrics and registrations land in whichever worker their
// connection reaches, and the primary reports them upstream in Unleash's bulk form under each
// SDK's own app, every count once, the last ones delivered by SIGTERM.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { request } from 'node:http'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { startFakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'
import { freePort } from '@vexil/test-fixtures/ports.ts'
import { bulkRows, bulkYes, serverSdkRegistration, withBulk } from './helpers/bulk-upstream.js'
import { until } from './helpers/until.js'

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const KEY = 'per-app-key'
const CLIENT = '*:development.cluster-per-app-client'
const FEATURES = { version: 2, features: [{ name: 'on', enabled: true, strategies: [{ name: 'default' }] }] }
const cleanup: (() => Promise<void>)[] = []

afterAll(async () => {
  for (const step of cleanup.reverse()) await step()
})

/** One POST on a connection of its own, so the cluster hands each to the next worker. */
function post(port: number, path: string, headers: Record<string, string>, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        agent: false,
        headers: { connection: 'close', 'content-type': 'application/json', ...headers },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', reject)
    req.end(JSON.stringify(body))
  })
}

const metrics = (appName: string, instanceId: string, yes: number) => ({
  appName,
  instanceId,
  bucket: { start: new Date().toISOString(), stop: new Date().toISOString(), toggles: { on: { yes, no: 0 } } },
})

describe.skipIf(process.platform !== 'linux')('WORKERS=2, usage per app', () => {
  it('reports every app under its own name, each count once, the last ones on SIGTERM', async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first (npm ci does)`)
    const upstream = await startFakeUpstream(FEATURES)
    cleanup.push(() => upstream.close())
    upstream.setFeaturesFor(CLIENT, FEATURES)
    upstream.setValidTokens([{ token: CLIENT, type: 'client', projects: ['*'], environment: 'development' }])
    const recorded = await withBulk(upstream, (step) => cleanup.push(step))
    const port = await freePort()
    let output = ''
    const primary: ChildProcess = spawn(process.execPath, [CLI], {
      env: {
        PATH: process.env.PATH ?? '',
        WORKERS: '2',
        SERVICE_URL: recorded.url,
        SERVICE_API_TOKEN: CLIENT,
        SERVICE_PROXY_CLIENT_KEYS: KEY,
        TOKENS: CLIENT,
        SERVICE_APP_NAME: 'cluster-vexil',
        PORT: String(port),
        HOST: '127.0.0.1',
        SERVICE_METRICS_INTERVAL: '400',
        STORAGE_PROVIDER: 'memory',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    cleanup.push(async () => {
      if (primary.exitCode === null && primary.signalCode === null) primary.kill('SIGKILL')
    })
    primary.stdout!.on('data', (chunk: Buffer) => (output += chunk))
    primary.stderr!.on('data', (chunk: Buffer) => (output += chunk))
    const exited = new Promise<number | null>((resolve) => primary.once('exit', (code) => resolve(code)))
    await until(() => output.includes('listening on'), 'the listening line', 15_000)
    await until(
      async () => (await fetch(`http://127.0.0.1:${port}/internal-backstage/ready`)).status === 200,
      'ready',
      10_000,
    )

    // Two frontend apps on /proxy and one server SDK on /api/client, spread over both workers.
    const sent = await Promise.all([
      ...Array.from({ length: 12 }, (_, n) =>
        post(port, '/proxy/client/metrics', { authorization: KEY }, metrics('web', `tab-${n % 3}`, 2)),
      ),
      ...Array.from({ length: 8 }, () =>
        post(port, '/proxy/client/metrics', { authorization: KEY }, metrics('mobile', 'phone', 1)),
      ),
      ...Array.from({ length: 6 }, () =>
        post(port, '/api/client/metrics', { authorization: CLIENT }, metrics('api', 'pod-1', 5)),
      ),
      post(port, '/api/client/register', { authorization: CLIENT }, serverSdkRegistration('api', 'pod-1')),
    ])
    for (const status of sent) expect(status).toBeLessThan(300)
    // Some counts reach the upstream in the periodic reports; SIGTERM carries the rest.
    await until(() => bulkYes(bulkRows(recorded.bulks), 'web') > 0, 'a first report', 10_000)
    await Promise.all(
      Array.from({ length: 4 }, () =>
        post(port, '/proxy/client/metrics', { authorization: KEY }, metrics('mobile', 'phone', 1)),
      ),
    )
    primary.kill('SIGTERM')
    expect(await exited, output).toBe(0)

    const rows = bulkRows(recorded.bulks)
    expect(bulkYes(rows, 'web')).toBe(24)
    expect(bulkYes(rows, 'mobile')).toBe(12)
    expect(bulkYes(rows, 'api')).toBe(30)
    expect(bulkYes(rows, 'cluster-vexil')).toBe(0)
    const instances = new Set(rows.filter((row) => row.appName === 'web').map((row) => row.instanceId))
    expect([...instances].sort()).toEqual(['tab-0', 'tab-1', 'tab-2'])
    const applications = recorded.bulks.flatMap((bulk) => bulk.applications)
    expect(applications.filter((app) => app.appName === 'api' && app.instanceId === 'pod-1').length).toBeGreaterThan(0)
    expect(upstream.requestsTo('/client/metrics')).toHaveLength(0)
  }, 60_000)
})
