import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createFlag, startTestService, type TestService } from './helpers/service.js'

// A client token reports usage of the flags it can fetch, in its environment, around now:
// metrics of other projects' flags, buckets in the far future or past, and unbounded toggle or
// variant lists must not reach the hourly rows, `lastSeenAt` or insights.
const NOW = new Date('2026-04-10T10:30:00Z')
const HOUR = '2026-04-10T10:00:00.000Z'
let now = NOW
let service: TestService
let alphaDev: string
let everyDev: string
let everyProd: string

const post = (
  token: string,
  bucket: { start?: string; stop?: string; toggles: Record<string, unknown> },
  appName = 'web',
) =>
  service.api('POST', '/api/client/metrics', {
    token,
    body: {
      appName,
      instanceId: 'i-1',
      bucket: {
        start: bucket.start ?? '2026-04-10T10:20:00Z',
        stop: bucket.stop ?? '2026-04-10T10:29:00Z',
        toggles: bucket.toggles,
      },
    },
  })
const raw = async (flag: string) =>
  (await service.api('GET', `/api/admin/client-metrics/features/${flag}/raw?hoursBack=48`)).body.data
const flag = async (project: string, name: string) =>
  (await service.api('GET', `/api/admin/projects/${project}/features/${name}`)).body
const rowCount = async () =>
  Number((await service.db.query<{ n: number }>('SELECT count(*)::int AS n FROM client_metrics_hourly'))[0]?.n)

beforeAll(async () => {
  service = await startTestService({ clock: () => now })
  for (const id of ['alpha', 'beta']) await service.api('POST', '/api/admin/projects', { body: { id, name: id } })
  await createFlag(service, 'alpha', 'alpha-flag')
  await createFlag(service, 'beta', 'beta-flag')
  // beta is not in production: a production token cannot fetch beta-flag.
  expect((await service.api('DELETE', '/api/admin/projects/beta/environments/production')).status).toBe(200)
  alphaDev = await service.clientToken('development', ['alpha'])
  everyDev = await service.clientToken('development', ['*'])
  everyProd = await service.clientToken('production', ['*'])
})
afterAll(() => service.close())
beforeEach(async () => {
  now = NOW
  await service.db.query('DELETE FROM client_metrics_hourly')
  await service.db.query('DELETE FROM client_metrics_hourly_variants')
  await service.db.query('UPDATE features SET last_seen_at = NULL')
  await service.db.query('UPDATE feature_environments SET last_seen_at = NULL')
})

describe('POST /api/client/metrics counts only the flags the token can fetch', () => {
  it('a token of project alpha cannot count (or mark seen) a flag of project beta', async () => {
    expect(
      (await post(alphaDev, { toggles: { 'beta-flag': { yes: 1000, no: 0 }, 'alpha-flag': { yes: 2, no: 1 } } }))
        .status,
    ).toBe(202)
    expect(await raw('beta-flag')).toEqual([])
    expect((await flag('beta', 'beta-flag')).lastSeenAt).toBeNull()
    expect(await raw('alpha-flag')).toEqual([
      expect.objectContaining({ environment: 'development', timestamp: HOUR, yes: 2, no: 1 }),
    ])
  })

  it('a token of every project counts flags of every project', async () => {
    await post(everyDev, { toggles: { 'beta-flag': { yes: 3, no: 0 }, 'alpha-flag': { yes: 1, no: 1 } } })
    expect(await raw('beta-flag')).toEqual([expect.objectContaining({ yes: 3, no: 0 })])
    expect(await raw('alpha-flag')).toEqual([expect.objectContaining({ yes: 1, no: 1 })])
  })

  it("a flag whose project is not in the token's environment is ignored", async () => {
    await post(everyProd, { toggles: { 'beta-flag': { yes: 5, no: 0 }, 'alpha-flag': { yes: 4, no: 0 } } })
    expect(await raw('beta-flag')).toEqual([])
    expect(await raw('alpha-flag')).toEqual([expect.objectContaining({ environment: 'production', yes: 4 })])
  })

  it('unknown and out-of-scope names are no error: SDKs report what they evaluated', async () => {
    const response = await post(alphaDev, {
      toggles: { 'no-such-flag': { yes: 1, no: 1 }, 'beta-flag': { yes: 1, no: 1 } },
    })
    expect(response.status).toBe(202)
    expect(await rowCount()).toBe(0)
  })
})

describe('POST /api/client/metrics keeps bucket times around now', () => {
  it('a bucket in 2099 is counted in the current hour, and lastSeenAt is never in the future', async () => {
    expect(
      (
        await post(alphaDev, {
          start: '2099-01-01T00:00:00Z',
          stop: '2099-01-01T01:00:00Z',
          toggles: { 'alpha-flag': { yes: 7, no: 0 } },
        })
      ).status,
    ).toBe(202)
    const data = await raw('alpha-flag')
    expect(data).toEqual([expect.objectContaining({ yes: 7 })])
    expect(Date.parse(data[0].timestamp)).toBeLessThanOrEqual(NOW.getTime())
    expect(Date.parse(data[0].timestamp)).toBeGreaterThanOrEqual(NOW.getTime() - 3_600_000 - 3_600_000)
    const view = await flag('alpha', 'alpha-flag')
    expect(Date.parse(view.lastSeenAt)).toBeLessThanOrEqual(NOW.getTime())
    const development = view.environments.find((e: { name: string }) => e.name === 'development')
    expect(Date.parse(development.lastSeenAt)).toBeLessThanOrEqual(NOW.getTime())
  })

  it('a bucket from long ago is counted in the last hour, not written into a closed week', async () => {
    await post(alphaDev, {
      start: '1999-06-01T00:00:00Z',
      stop: '1999-06-01T00:01:00Z',
      toggles: { 'alpha-flag': { yes: 1, no: 0 } },
    })
    const data = await raw('alpha-flag')
    expect(data).toEqual([expect.objectContaining({ yes: 1 })])
    expect(Date.parse(data[0].timestamp)).toBeGreaterThanOrEqual(NOW.getTime() - 2 * 3_600_000)
  })

  it('a bucket ending a few minutes ahead (clock skew) keeps its hour; lastSeenAt stays at now', async () => {
    await post(alphaDev, {
      start: '2026-04-10T10:25:00Z',
      stop: '2026-04-10T10:33:00Z',
      toggles: { 'alpha-flag': { yes: 1, no: 0 } },
    })
    expect(await raw('alpha-flag')).toEqual([expect.objectContaining({ timestamp: HOUR })])
    expect((await flag('alpha', 'alpha-flag')).lastSeenAt).toBe(NOW.toISOString())
  })

  it('a bucket from earlier today keeps its hour (a proxy sending counts it could not send before)', async () => {
    await post(alphaDev, {
      start: '2026-04-10T02:10:00Z',
      stop: '2026-04-10T02:11:00Z',
      toggles: { 'alpha-flag': { yes: 1, no: 0 } },
    })
    expect(await raw('alpha-flag')).toEqual([expect.objectContaining({ timestamp: '2026-04-10T02:00:00.000Z' })])
  })

  it('an older bucket never moves lastSeenAt back', async () => {
    await post(alphaDev, { toggles: { 'alpha-flag': { yes: 1, no: 0 } } })
    await post(alphaDev, {
      start: '2026-04-10T02:10:00Z',
      stop: '2026-04-10T02:11:00Z',
      toggles: { 'alpha-flag': { yes: 1, no: 0 } },
    })
    expect((await flag('alpha', 'alpha-flag')).lastSeenAt).toBe('2026-04-10T10:29:00.000Z')
  })
})

describe('POST /api/client/metrics bounds what one post writes', () => {
  it('counts at most 1,000 flags of a post and ignores the rest', async () => {
    const names = Array.from({ length: 1_005 }, (_, i) => `many-${String(i).padStart(4, '0')}`)
    await service.db.query(
      `INSERT INTO features (name, project, created_at) SELECT n, 'alpha', now() FROM unnest($1::text[]) AS n`,
      [names],
    )
    const toggles = Object.fromEntries(names.map((name) => [name, { yes: 1, no: 0 }]))
    expect((await post(alphaDev, { toggles })).status).toBe(202)
    expect(await rowCount()).toBe(1_000)
    await service.db.query(`DELETE FROM features WHERE name LIKE 'many-%'`)
  })

  it('counts at most 50 variants of a flag and ignores the rest', async () => {
    const variants = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`v${i}`, 1]))
    expect((await post(alphaDev, { toggles: { 'alpha-flag': { yes: 60, no: 0, variants } } })).status).toBe(202)
    const [row] = await raw('alpha-flag')
    expect(Object.keys(row.variants)).toHaveLength(50)
  })

  it('counts that would overflow a row saturate instead of failing the post', async () => {
    await post(alphaDev, { toggles: { 'alpha-flag': { yes: 1, no: 0, variants: { a: 1 } } } })
    await service.db.query(`UPDATE client_metrics_hourly SET yes = 9223372036854775000`)
    await service.db.query(`UPDATE client_metrics_hourly_variants SET count = 9223372036854775000`)
    const big = Number.MAX_SAFE_INTEGER
    expect(
      (await post(alphaDev, { toggles: { 'alpha-flag': { yes: big, no: 0, variants: { a: big } } } })).status,
    ).toBe(202)
    const [row] = await service.db.query<{ yes: string }>(`SELECT yes::text FROM client_metrics_hourly`)
    expect(row?.yes).toBe('9223372036854775807')
  })
})
