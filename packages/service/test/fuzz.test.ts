// Hostile HTTP against the service (issue 13), generated from the route table: every route with
// random methods, path parameters, spellings, query strings, bodies, content types, headers and
// credentials of every kind (test/helpers/fuzz-*.ts). Whatever comes in: no answer is a 5xx, no
// request hangs, no handler runs for a caller its route does not admit, a caller without a valid
// token gets a refusal in the error shape and never data, the fixtures made before the fuzz read
// the same afterwards, and the service still answers its health check. A new route is fuzzed by
// registering it. The seed is fixed and printed: FUZZ_SEED=<n> replays a run, FUZZ_RUNS=<n>
// explores longer (locally).
import { Agent } from 'node:http'
import fc from 'fast-check'
import { MiB, retainedBytes } from '@vexil/test-fixtures/memory.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RouteSpec } from '../src/routes/api-router.js'
import { createFixtures, type Fixtures, snapshotFixtures } from './helpers/fuzz-fixtures.js'
import { checkAnswer } from './helpers/fuzz-checks.js'
import { describeRequest, type FuzzRequest, type FuzzResponse, sendRaw } from './helpers/fuzz-http.js'
import { createPlayground, type Playground, replenish, replenishSignals } from './helpers/fuzz-playground.js'
import { baselineSpec, materialize, type RequestSpec, specFor } from './helpers/fuzz-requests.js'
import { incompressible } from './helpers/fuzz-values.js'
import { createFuzzWorld, type FuzzCredential, type FuzzWorld } from './helpers/fuzz-world.js'

const SEED = Number(process.env.FUZZ_SEED ?? 1_312_026)
const RUNS = Number(process.env.FUZZ_RUNS ?? 4_000)
const TIMEOUT_MS = 5_000
/** Paths off the table, per route: the fuzz also sends these (the admin UI, odd paths). */
const OFF_TABLE_SHARE = 8

let world: FuzzWorld
let fixtures: Fixtures
let before: Record<string, unknown>
let pg: Playground
// One keep-alive connection: every request goes over the connection the requests before it used,
// so one that leaves it unusable shows up.
const agent = new Agent({ keepAlive: true, maxSockets: 1 })

beforeAll(async () => {
  world = await createFuzzWorld(SEED)
  fixtures = await createFixtures(world.service)
  await snapshotFixtures(world.service, fixtures) // marks the fixture credentials seen (see snapshotFixtures)
  before = await snapshotFixtures(world.service, fixtures)
  pg = createPlayground()
  await replenish(world.service, pg, world.credentials, 0)
}, 60_000)

afterAll(async () => {
  agent.destroy()
  await world?.close()
})

/** Reads before writes before deletes: a round deletes what it named only once the rest of it ran. */
const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

/** The routes of a round, in the order they are called; then a share of slots for paths off the table. */
function roundOf(routes: readonly RouteSpec[]): (RouteSpec | undefined)[] {
  const ordered = [...routes].sort((a, b) => METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method))
  return [...ordered, ...Array.from({ length: Math.ceil(routes.length / OFF_TABLE_SHARE) }, () => undefined)]
}

const arbitraries = new Map<RouteSpec | undefined, fc.Arbitrary<RequestSpec>>()

/** The i-th request of the run: a round of each route's well-formed call first, then rounds of hostile ones. */
function specAt(i: number, round: (RouteSpec | undefined)[]): RequestSpec {
  const route = round[i % round.length]
  if (i < round.length && route) return baselineSpec(route, world.credentials, world.port)
  if (!arbitraries.has(route)) arbitraries.set(route, specFor(route, world.credentials, world.port))
  return fc.sample(arbitraries.get(route) as fc.Arbitrary<RequestSpec>, {
    seed: requestSeed(SEED, i),
    numRuns: 1,
  })[0] as RequestSpec
}

/** The seed of the i-th request (FNV-1a of "seed:i"): runs of nearby seeds share no requests. */
function requestSeed(seed: number, i: number): number {
  let hash = 0x811c9dc5
  for (const c of `${seed}:${i}`) hash = Math.imul(hash ^ c.charCodeAt(0), 0x01000193)
  return hash | 0
}

/** Sends the i-th request of the run and checks its answer. */
async function fuzzOne(
  i: number,
  round: (RouteSpec | undefined)[],
): Promise<{ status: number | undefined; problems: string[] }> {
  if (i > 0 && i % round.length === 0) await replenish(world.service, pg, world.credentials, i / round.length)
  const spec = specAt(i, round)
  // A signal route's access check reads the endpoint, which the fuzz renames, disables and deletes.
  if (spec.route?.access === 'signal') await replenishSignals(world.service, pg, world.credentials, i)
  const { status, problems } = await exchange(
    materialize(spec, world.credentials, pg, i),
    world.credentials[spec.credential] as FuzzCredential,
  )
  return { status, problems: problems.map((problem) => `#${i} ${problem}`) }
}

/** Sends `request` and checks its answer. */
async function exchange(
  request: FuzzRequest,
  credential: FuzzCredential,
): Promise<{ status: number | undefined; problems: string[] }> {
  const where = (problem: string) => `${problem}\n    ${describeRequest(request)}`
  world.takeHandled()
  let response: FuzzResponse
  try {
    response = await sendRaw(world.port, agent, request, TIMEOUT_MS)
  } catch (error) {
    return { status: undefined, problems: [where(`no answer (${(error as Error).message})`)] }
  }
  const handled = world.takeHandled()
  for (const route of handled) handledRoutes.add(`${route.method} ${route.path}`)
  const problems = checkAnswer(request, response, handled, credential, fixtures.suffix)
  return { status: response.status, problems: problems.map(where) }
}

/** Requests the fuzz found answered 5xx, each fixed since: replayed first on every run. A text body is sent as is. */
const REGRESSIONS: [
  label: string,
  method: string,
  path: string,
  credential: string,
  body: object | string,
  host?: string,
][] = [
  [
    'a segment name too long for its unique index',
    'POST',
    '/api/admin/segments',
    'admin token',
    { name: incompressible(21, 5_000), constraints: [] },
  ],
  [
    'a username too long for its unique index',
    'POST',
    '/api/admin/user-admin',
    'admin personal token',
    { username: incompressible(22, 5_000), rootRole: 'Viewer' },
  ],
  [
    'an email too long for its unique index',
    'POST',
    '/api/admin/user-admin',
    'admin token',
    { email: `a@${incompressible(23, 5_000)}.com`, rootRole: 'Viewer' },
  ],
  [
    'a project id made from a long name',
    'POST',
    '/api/admin/projects',
    'admin token',
    { name: incompressible(24, 5_000) },
  ],
  [
    'an appName too long for its primary key',
    'POST',
    '/api/client/register',
    'backend token',
    { appName: incompressible(25, 5_000), instanceId: 'i', strategies: [] },
  ],
  [
    'a signal endpoint made with Host %',
    'POST',
    '/api/admin/signal-endpoints',
    'admin token',
    { name: 'fz-regression' },
    '%',
  ],
  [
    'a name whose `length` is an array nested 30,000 deep',
    'POST',
    '/api/admin/segments',
    'admin token',
    `{"name":{"length":${'['.repeat(30_000)}${']'.repeat(30_000)}},"constraints":[]}`,
  ],
]

const handledRoutes = new Set<string>()

describe('fuzzing the service over HTTP', () => {
  it.each(REGRESSIONS)(
    'regression: %s',
    async (_label, method, path, label, body, host = `127.0.0.1:${world.port}`) => {
      const credential = world.credentials.find((c) => c.label === label) as FuzzCredential
      const headers = {
        host,
        'content-type': 'application/json',
        ...(credential.header ? { authorization: credential.header } : {}),
      }
      const request: FuzzRequest = {
        target: `${method} ${path}`,
        credential: label,
        method,
        path,
        headers,
        body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
        chunked: false,
      }
      expect((await exchange(request, credential)).problems).toEqual([])
    },
  )

  it(
    'never answers 5xx, never hangs, admits only whom a route admits and tells a caller without a valid token nothing',
    async () => {
      const round = roundOf(world.service.routes)
      const failures: string[] = []
      const statuses = new Map<number | string, number>()
      const retainedBefore = retainedBytes({ external: false })
      const started = performance.now()
      for (let i = 0; i < RUNS; i++) {
        const { status, problems } = await fuzzOne(i, round)
        statuses.set(status ?? 'no answer', (statuses.get(status ?? 'no answer') ?? 0) + 1)
        failures.push(...problems)
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(1)
      const histogram = [...statuses]
        .sort(([a], [b]) => String(a).localeCompare(String(b)))
        .map(([status, n]) => `${status}: ${n}`)
        .join(', ')
      console.log(
        `service fuzz: seed ${SEED}, ${RUNS} requests over ${world.service.routes.length} routes in ${seconds} s; statuses ${histogram}; handlers reached ${handledRoutes.size}`,
      )
      if (failures.length > 0)
        console.log(
          `service fuzz: ${failures.length} problems (replay with FUZZ_SEED=${SEED}):\n${failures.join('\n')}`,
        )
      expect(failures).toEqual([])
      // What callers send is bounded (docs/security.md): the JS heap the service keeps after the run
      // (PGlite's WebAssembly memory, which grows with the rows the fuzz writes, aside).
      const kept = (retainedBytes({ external: false }) - retainedBefore) / MiB
      console.log(`service fuzz: ${kept.toFixed(1)} MiB of JS heap kept after the run`)
      expect(kept).toBeLessThan(64)
    },
    process.env.FUZZ_RUNS ? 3_600_000 : 120_000,
  )

  it('reached the handler of every route in the table', () => {
    const missed = world.service.routes
      .map((route) => `${route.method} ${route.path}`)
      .filter((route) => !handledRoutes.has(route))
    expect(missed).toEqual([])
  })

  it('left the fixtures made before it intact', async () => {
    expect(await snapshotFixtures(world.service, fixtures)).toEqual(before)
  })

  it('still answers GET /health 200', async () => {
    const response = await world.service.api('GET', '/health', { token: null })
    expect(response).toMatchObject({ status: 200, body: { health: 'GOOD' } })
  })
})
