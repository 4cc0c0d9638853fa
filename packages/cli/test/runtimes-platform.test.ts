// The platform (`vexil start`: the service on PGlite plus the proxy syncing from it, the built
// packages/cli/dist/cli.js as users run it) under Bun and Deno (issue 23), beside the same under
// Node, each on a fresh data folder: it migrates, seeds the demo, answers the service's health,
// the admin API (reads and a write), the admin UI's page and files, and the proxy with the client
// key it prints, with Node's statuses, headers and bodies; SIGTERM stops it with exit code 0.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '@vexil/test-fixtures/ports.ts'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'
import { waitFor } from '@vexil/test-fixtures/wait-for.ts'
import {
  type Answer,
  answers,
  BUILT,
  OTHER_RUNTIMES,
  requireBuilt,
  type Runtime,
  type RuntimeServer,
  runtimeSuiteRuns,
  type Sent,
  send,
  startRuntimeServer,
} from './helpers/runtimes.js'

/** INIT_ADMIN_API_TOKENS: the same admin token on every platform (the demo's own is random). */
const ADMIN = '*:*.runtimes-platform-admin-0123456789abcdef'
const NEW_FLAG = 'made-by-the-runtimes-test'

const runtimes = OTHER_RUNTIMES.filter((runtime) => runtimeSuiteRuns(runtime, 'runtimes-platform'))

interface Platform {
  server: RuntimeServer
  dataDir: string
  service: string
  proxy: string
  /** What it printed, by label ("Proxy client key" → the key). */
  printed: Record<string, string>
}

// --- The requests ---

interface Step {
  name: string
  /** `service` or `proxy`: which of the platform's two servers it goes to. */
  to: 'service' | 'proxy'
  /** The request; a function of what the platform printed (its client key, its frontend token). */
  request: (printed: Record<string, string>) => Sent
}

const admin = { authorization: ADMIN }
const json = { 'content-type': 'application/json' }
const STEPS: Step[] = [
  { name: 'GET /health', to: 'service', request: () => ({ method: 'GET', path: '/health' }) },
  {
    name: 'GET /api/admin/projects',
    to: 'service',
    request: () => ({ method: 'GET', path: '/api/admin/projects', headers: admin }),
  },
  {
    name: 'GET /api/admin/projects/demo/features',
    to: 'service',
    request: () => ({ method: 'GET', path: '/api/admin/projects/demo/features', headers: admin }),
  },
  {
    name: 'GET /api/admin/segments',
    to: 'service',
    request: () => ({ method: 'GET', path: '/api/admin/segments', headers: admin }),
  },
  {
    name: 'GET /api/admin/environments',
    to: 'service',
    request: () => ({ method: 'GET', path: '/api/admin/environments', headers: admin }),
  },
  {
    name: 'GET /api/admin/api-tokens',
    to: 'service',
    request: () => ({ method: 'GET', path: '/api/admin/api-tokens', headers: admin }),
  },
  {
    name: 'GET /api/admin/projects without a token: 401',
    to: 'service',
    request: () => ({ method: 'GET', path: '/api/admin/projects' }),
  },
  {
    name: 'GET an unknown admin path: 404',
    to: 'service',
    request: () => ({ method: 'GET', path: '/api/admin/no-such-thing', headers: admin }),
  },
  {
    name: 'POST /api/admin/projects/demo/features: a new flag, written to PGlite',
    to: 'service',
    request: () => ({
      method: 'POST',
      path: '/api/admin/projects/demo/features',
      headers: { ...admin, ...json },
      body: JSON.stringify({ name: NEW_FLAG, type: 'release', description: 'Made under each runtime' }),
    }),
  },
  {
    name: `POST …/features/${NEW_FLAG}/environments/development/on`,
    to: 'service',
    request: () => ({
      method: 'POST',
      path: `/api/admin/projects/demo/features/${NEW_FLAG}/environments/development/on`,
      headers: admin,
    }),
  },
  { name: 'GET / (the admin UI page)', to: 'service', request: () => ({ method: 'GET', path: '/' }) },
  {
    name: 'GET /proxy with the printed client key',
    to: 'proxy',
    request: (printed) => ({
      method: 'GET',
      path: '/proxy?userId=42&sessionId=42',
      headers: { authorization: printed['Proxy client key']! },
    }),
  },
  {
    name: 'GET /api/frontend with the printed frontend token',
    to: 'proxy',
    request: (printed) => ({
      method: 'GET',
      path: '/api/frontend?userId=42&sessionId=42',
      headers: { authorization: printed['Frontend token']! },
    }),
  },
  {
    name: 'POST OFREP with the printed frontend token',
    to: 'proxy',
    request: (printed) => ({
      method: 'POST',
      path: '/ofrep/v1/evaluate/flags',
      headers: { authorization: printed['Frontend token']!, ...json },
      body: '{"context":{"targetingKey":"42","sessionId":"42"}}',
    }),
  },
]

// --- Comparing answers ---

/** The demo's flag that is on for a random 30% of requests (gradualRolloutRandom): no two answers agree on it. */
const RANDOM_FLAG = 'gradual-random'

/**
 * What is compared of an answer. Each platform made its own demo secrets, ids and times: in a
 * JSON body, values under `secret` and `...At` keys and a random error `id` are replaced by what
 * they are, the random flag is left out of evaluations, and the headers made from the exact bytes
 * (ETag, length) are left out. `date` is the clock's. The rest is compared as sent.
 */
function comparable(
  answer: Answer,
  printed: Record<string, string>,
): { status: number; headers: Record<string, string>; body: unknown } {
  const { date: _, ...headers } = answer.headers
  let body: unknown = answer.body.toString('utf8')
  for (const secret of Object.values(printed)) body = (body as string).replaceAll(secret, '<printed>')
  if (headers['content-type']?.startsWith('application/json')) {
    body = JSON.parse(body as string, (key, value) => {
      if (key === 'secret') return '<secret>'
      if (/At$/.test(key) && typeof value === 'string') return '<time>'
      if (key === 'id' && typeof value === 'string' && /^[0-9a-f-]{36}$/.test(value)) return '<uuid>'
      // /proxy and /api/frontend list `toggles` by name, OFREP lists `flags` by key.
      if ((key === 'toggles' || key === 'flags') && Array.isArray(value))
        return value.filter((flag: { name?: string; key?: string }) => (flag.name ?? flag.key) !== RANDOM_FLAG)
      return value
    })
    delete headers.etag
    delete headers['content-length']
  }
  return { status: answer.status, headers, body }
}

// --- Platforms ---

const work = tempDir('runtimes-platform')
const platforms = new Map<Runtime, Platform>()
const answered = new Map<Runtime, Answer[]>()
/** The files the admin UI page names (scripts, styles, icon), each compared too. */
let assets: string[] = []
const assetAnswers = new Map<Runtime, Answer[]>()

/** `Label:   value` lines of the platform's banner. */
function banner(logs: string): Record<string, string> {
  return Object.fromEntries([...logs.matchAll(/^ {2}([A-Z][\w ()]+?):\s+(\S+)/gm)].map((m) => [m[1]!, m[2]!]))
}

async function startPlatform(runtime: Runtime): Promise<void> {
  const [proxyPort, servicePort] = [await freePort(), await freePort()]
  const dataDir = join(work.path, runtime, 'data')
  const proxy = `http://127.0.0.1:${proxyPort}`
  const server = await startRuntimeServer(runtime, BUILT.cli, ['start'], {
    cwd: work.path,
    env: {
      HOST: '127.0.0.1',
      PORT: String(proxyPort),
      SERVICE_PORT: String(servicePort),
      DATA_DIR: dataDir,
      INIT_ADMIN_API_TOKENS: ADMIN,
      STORAGE_FILE_DIRECTORY: join(work.path, runtime),
      SERVICE_METRICS_INTERVAL: '600000',
    },
    // Ready once it printed its banner and the proxy has its first flags from the service.
    ready: async (logs) =>
      logs.includes('Press Ctrl-C to stop.') &&
      answers(`${proxy}/proxy?userId=1&sessionId=1`, 200, { authorization: banner(logs)['Proxy client key'] ?? '' }),
    startTimeoutMs: 90_000,
  })
  platforms.set(runtime, {
    server,
    dataDir,
    service: `http://127.0.0.1:${servicePort}`,
    proxy,
    printed: banner(server.logs()),
  })
}

beforeAll(async () => {
  if (runtimes.length === 0) return
  requireBuilt(BUILT.cli)
  // One after another: PGlite's first start (initdb, migrations) takes both cores for a few seconds.
  for (const runtime of ['node', ...runtimes] as Runtime[]) await startPlatform(runtime)
  for (const step of STEPS) {
    for (const [runtime, platform] of platforms) {
      if (!answered.has(runtime)) answered.set(runtime, [])
      answered.get(runtime)!.push(await send(platform[step.to], step.request(platform.printed)))
    }
  }
  const page = answered.get('node')![STEPS.findIndex((step) => step.name.startsWith('GET / '))]!.body.toString('utf8')
  assets = [...page.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1]!)
  for (const [runtime, platform] of platforms)
    assetAnswers.set(runtime, await Promise.all(assets.map((path) => send(platform.service, { method: 'GET', path }))))
}, 240_000)

afterAll(async () => {
  await Promise.allSettled([...platforms.values()].map(({ server }) => server.stop()))
  work.remove()
})

for (const runtime of OTHER_RUNTIMES) {
  describe.runIf(runtimes.includes(runtime))(`the platform under ${runtime} answers as under Node`, () => {
    it('migrates and seeds a fresh data folder, as Node does', () => {
      const { server, dataDir, printed } = platforms.get(runtime)!
      const migrated = (logs: string) => /database migrated to version \d+ \(pglite\)/.exec(logs)?.[0]
      expect(migrated(server.logs())).toBeDefined()
      expect(migrated(server.logs())).toBe(migrated(platforms.get('node')!.server.logs()))
      expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true)
      expect(existsSync(join(dataDir, 'demo-credentials.json'))).toBe(true)
      expect(Object.keys(printed)).toEqual(Object.keys(platforms.get('node')!.printed))
      expect(printed['Proxy client key']).toMatch(/^proxy-/)
    })

    it.each(STEPS.map((step, index) => ({ ...step, index })))('$name', ({ index }) => {
      const mine = platforms.get(runtime)!
      const node = platforms.get('node')!
      expect(comparable(answered.get(runtime)![index]!, mine.printed)).toEqual(
        comparable(answered.get('node')![index]!, node.printed),
      )
    })

    it('serves the admin UI’s files as Node does', () => {
      expect(assets.length).toBeGreaterThan(0)
      for (const [index, path] of assets.entries()) {
        const answer = assetAnswers.get(runtime)![index]!
        expect({ path, ...comparable(answer, {}) }).toEqual({
          path,
          ...comparable(assetAnswers.get('node')![index]!, {}),
        })
        expect(answer.status, path).toBe(200)
      }
    })

    it('the proxy serves the flag made through the admin API', async () => {
      const { proxy, printed } = platforms.get(runtime)!
      await waitFor(async () => {
        const answer = await send(proxy, {
          method: 'GET',
          path: '/proxy?userId=42&sessionId=42',
          headers: { authorization: printed['Proxy client key']! },
        })
        return answer.body.toString('utf8').includes(NEW_FLAG)
      }, `${NEW_FLAG} in the ${runtime} proxy's answer`)
    })

    it('stops on SIGTERM with exit code 0, proxy first', async () => {
      const { server } = platforms.get(runtime)!
      expect(await server.stop()).toBe(0)
      expect(server.logs()).toContain('SIGTERM: stopping the proxy (sending its metrics), then the service.')
    })

    it('a restart reopens the data folder: the same demo credentials, the flag made before, no new migration', async () => {
      const before = platforms.get(runtime)!
      await startPlatform(runtime)
      const after = platforms.get(runtime)!
      expect(after.printed['Proxy client key']).toBe(before.printed['Proxy client key'])
      expect(after.printed['Frontend token']).toBe(before.printed['Frontend token'])
      expect(after.server.logs()).not.toMatch(/database migrated/)
      const answer = await send(after.proxy, {
        method: 'GET',
        path: '/proxy?userId=42&sessionId=42',
        headers: { authorization: after.printed['Proxy client key']! },
      })
      expect(answer.body.toString('utf8')).toContain(NEW_FLAG)
      expect(await after.server.stop()).toBe(0)
    }, 60_000)
  })
}
