import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../src/db/database.js'
import { createInsightsScheduler, type InsightsScheduler } from '../src/insights/scheduler.js'
import { silentLogger } from '../src/logger.js'
import { databaseDrivers } from './helpers/drivers.js'
import { insightsSchemaErrors } from './helpers/instance-insights-schema.js'
import { createFlag, startTestService, type TestService } from './helpers/service.js'

// Spec 2.7 / 4.7 and issue 7: every number of GET /api/admin/insights from a scenario built through
// the admin and client APIs, with the clock in the test's hands, on both database drivers.
// "Now" is N = 2026-03-16 12:00 UTC (a Monday, ISO week 2026-12); the story starts 70 days earlier.
const N = '2026-03-16T12:00:00Z'
const end = (day: string) => `${day}T23:59:59.999Z`

const drivers = await databaseDrivers('insights')

describe.each(drivers)('instance insights on $name', ({ open }) => {
  const suite = open ? describe : describe.skip
  suite('a scenario with users, flags, metrics and configuration changes', () => {
    const clock = { now: new Date('2026-01-05T09:00:00Z') }
    const at = (iso: string) => (clock.now = new Date(iso))
    let db: Database
    let service: TestService
    let scheduler: InsightsScheduler
    const pats: Record<string, string> = {}
    const ids: Record<string, number> = {}

    const ok = async (method: string, path: string, options: { body?: unknown; token?: string } = {}) => {
      const response = await service.api(method, path, options)
      if (response.status >= 300)
        throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`)
      return response.body
    }
    const enable = (project: string, flag: string, environment: string) =>
      ok('POST', `/api/admin/projects/${project}/features/${flag}/environments/${environment}/on`)
    // An SDK posts its bucket as it ends: the service files buckets far from its clock under the last hour.
    const postMetrics = (
      token: string,
      appName: string,
      start: string,
      toggles: Record<string, { yes: number; no: number }>,
    ) => {
      at(new Date(Date.parse(start) + 60_000).toISOString())
      return ok('POST', '/api/client/metrics', {
        token,
        body: { appName, instanceId: 'i-1', bucket: { start, stop: start, toggles } },
      })
    }
    const insights = (query = '', token?: string) =>
      service.api('GET', `/api/admin/insights${query}`, token ? { token } : {})

    beforeAll(async () => {
      db = await (open as () => Promise<Database>)()
      service = await startTestService({ db, clock: () => clock.now })
      scheduler = createInsightsScheduler({ db, clock: () => clock.now, logger: silentLogger })

      // 2026-01-05 (ISO week 2026-02): users, a second project, flags; alice uses her token.
      await db.query(
        `INSERT INTO users (username, is_service, created_at, seen_at) VALUES ('deploy-bot', true, $1, $1)`,
        [clock.now],
      )
      await db.query(`INSERT INTO users (username, is_system, created_at, seen_at) VALUES ('system', true, $1, $1)`, [
        clock.now,
      ])
      await ok('POST', '/api/admin/projects', { body: { id: 'web', name: 'Web' } })
      for (const [name, rootRole] of [
        ['alice', 'Editor'],
        ['bob', 'Viewer'],
        ['carol', 'Admin'],
        ['dave', 'Viewer'],
      ] as const) {
        ids[name] = (await ok('POST', '/api/admin/user-admin', { body: { email: `${name}@example.com`, rootRole } })).id
        pats[name] = (
          await ok('POST', `/api/admin/user-admin/${ids[name]}/tokens`, { body: { description: 'cli' } })
        ).secret
      }
      await ok('GET', '/api/admin/user', { token: pats.alice })
      at('2026-01-05T12:00:00Z')
      await createFlag(service, 'web', 'web-release')
      await createFlag(service, 'web', 'web-marked-stale')
      await createFlag(service, 'web', 'web-killswitch', { type: 'kill-switch' })
      await createFlag(service, 'web', 'web-archived')
      await createFlag(service, 'default', 'default-op', { type: 'operational' })
      await enable('web', 'web-killswitch', 'development') // 2 development updates: default strategy + enabled
      at('2026-01-05T18:00:00Z')
      await scheduler.runNow()

      // 2026-01-10: default-op reaches production 5 days after creation (2 production updates).
      at('2026-01-10T12:00:00Z')
      await enable('default', 'default-op', 'production')
      at('2026-01-12T18:00:00Z') // week 2026-03; default-op (operational, 7 days) is now potentially stale
      await scheduler.runNow()

      // 2026-03-06 (N - 10 days): bob uses his token, dave leaves, one flag marked stale, one archived.
      at('2026-03-06T12:00:00Z')
      await ok('GET', '/api/admin/user', { token: pats.bob })
      await ok('DELETE', `/api/admin/user-admin/${ids.dave}`)
      await ok('POST', '/api/admin/features/web-marked-stale/stale/on')
      await ok('DELETE', '/api/admin/projects/web/features/web-archived')
      await createFlag(service, 'web', 'web-to-prod')
      await createFlag(service, 'web', 'web-fast')
      at('2026-03-07T12:00:00Z') // week 2026-10: web-fast in production after 1 day
      await enable('web', 'web-fast', 'production')
      at('2026-03-08T23:30:00Z') // Sunday night, still week 2026-10 in UTC: one strategy in development
      await ok('POST', '/api/admin/projects/web/features/web-release/environments/development/strategies', {
        body: { name: 'default' },
      })
      at('2026-03-09T12:00:00Z') // week 2026-11: web-to-prod in production after 3 days
      await enable('web', 'web-to-prod', 'production')

      // Client metrics: two projects, two apps, two environments, weeks 2026-10 and 2026-11.
      const production = await service.clientToken('production')
      const development = await service.clientToken('development')
      await postMetrics(production, 'web-app', '2026-03-04T10:00:00Z', {
        'web-release': { yes: 10, no: 5 },
        'web-killswitch': { yes: 1, no: 0 },
        'not-a-flag': { yes: 100, no: 100 },
      })
      await postMetrics(production, 'mobile', '2026-03-04T11:30:00Z', { 'web-release': { yes: 2, no: 3 } })
      await postMetrics(development, 'web-app', '2026-03-05T08:00:00Z', { 'web-release': { yes: 4, no: 0 } })
      await postMetrics(production, 'api-svc', '2026-03-04T10:00:00Z', { 'default-op': { yes: 7, no: 3 } })
      await postMetrics(production, 'api-svc', '2026-03-08T23:10:00Z', { 'default-op': { yes: 2, no: 0 } })
      await postMetrics(production, 'api-svc', '2026-03-10T10:00:00Z', { 'default-op': { yes: 1, no: 1 } })

      at(N)
      await scheduler.runNow()
    })
    afterAll(async () => {
      await scheduler?.stop()
      await service?.close()
      await db?.close()
    })

    it('answers 200 with a body that validates against the schema of spec 2.7', async () => {
      const response = await insights()
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toContain('application/json')
      expect(insightsSchemaErrors(response.body)).toEqual([])
    })

    it('users: real users only (no deleted, service or system users); active = seen in the past 60 days', async () => {
      // alice was seen 70 days ago, bob 10 days ago, carol never; dave is deleted.
      expect((await insights()).body.users).toEqual({ total: 3, active: 1, inactive: 2 })
    })

    it('flags: the non-archived flags', async () => {
      expect((await insights()).body.flags).toEqual({ total: 6 })
    })

    it('userTrends: one point per daily snapshot, dated at the end of its UTC day', async () => {
      expect((await insights()).body.userTrends).toEqual([
        { date: end('2026-01-05'), total: 4, active: 1, inactive: 3 },
        { date: end('2026-01-12'), total: 4, active: 1, inactive: 3 },
        { date: end('2026-03-16'), total: 3, active: 1, inactive: 2 },
      ])
    })

    it("flagTrends: per day; active = total - stale - potentially stale; potentially stale = older than its type's lifetime", async () => {
      expect((await insights()).body.flagTrends).toEqual([
        { date: end('2026-01-05'), total: 5, active: 5, stale: 0, potentiallyStale: 0 },
        { date: end('2026-01-12'), total: 5, active: 4, stale: 0, potentiallyStale: 1 },
        { date: end('2026-03-16'), total: 6, active: 3, stale: 1, potentiallyStale: 2 },
      ])
    })

    it('projectFlagTrends: per project and ISO week, with health, time to production and users', async () => {
      const week = (w: string, day: string) => ({ week: w, date: end(day) })
      expect((await insights()).body.projectFlagTrends).toEqual([
        {
          ...week('2026-02', '2026-01-05'),
          project: 'default',
          total: 1,
          active: 1,
          stale: 0,
          potentiallyStale: 0,
          health: 100,
          users: 4,
        },
        {
          ...week('2026-02', '2026-01-05'),
          project: 'web',
          total: 4,
          active: 4,
          stale: 0,
          potentiallyStale: 0,
          health: 100,
          users: 4,
        },
        // default-op went to production 5 days after its creation, inside the 30 days before this snapshot.
        {
          ...week('2026-03', '2026-01-12'),
          project: 'default',
          total: 1,
          active: 0,
          stale: 0,
          potentiallyStale: 1,
          health: 0,
          timeToProduction: 5,
          users: 4,
        },
        {
          ...week('2026-03', '2026-01-12'),
          project: 'web',
          total: 4,
          active: 4,
          stale: 0,
          potentiallyStale: 0,
          health: 100,
          users: 4,
        },
        {
          ...week('2026-12', '2026-03-16'),
          project: 'default',
          total: 1,
          active: 0,
          stale: 0,
          potentiallyStale: 1,
          health: 0,
          users: 3,
        },
        // web-fast took 1 day and web-to-prod 3 days: an average of 2; health = round(100 * 3 / 5).
        {
          ...week('2026-12', '2026-03-16'),
          project: 'web',
          total: 5,
          active: 3,
          stale: 1,
          potentiallyStale: 1,
          health: 60,
          timeToProduction: 2,
          users: 3,
        },
      ])
    })

    it('metricsSummaryTrends: per project and ISO week of the client metrics (unknown flags are not counted)', async () => {
      expect((await insights()).body.metricsSummaryTrends).toEqual([
        {
          week: '2026-10',
          date: end('2026-03-08'),
          project: 'default',
          totalRequests: 12,
          totalYes: 9,
          totalNo: 3,
          totalApps: 1,
          totalFlags: 1,
          totalEnvironments: 1,
        },
        {
          week: '2026-10',
          date: end('2026-03-08'),
          project: 'web',
          totalRequests: 25,
          totalYes: 17,
          totalNo: 8,
          totalApps: 2,
          totalFlags: 2,
          totalEnvironments: 2,
        },
        {
          week: '2026-11',
          date: end('2026-03-15'),
          project: 'default',
          totalRequests: 2,
          totalYes: 1,
          totalNo: 1,
          totalApps: 1,
          totalFlags: 1,
          totalEnvironments: 1,
        },
      ])
    })

    it('environmentTypeTrends: configuration updates from the event log per environment type and ISO week', async () => {
      expect((await insights()).body.environmentTypeTrends).toEqual([
        { week: '2026-02', date: end('2026-01-11'), environmentType: 'development', totalUpdates: 2 },
        { week: '2026-02', date: end('2026-01-11'), environmentType: 'production', totalUpdates: 2 },
        { week: '2026-10', date: end('2026-03-08'), environmentType: 'development', totalUpdates: 1 },
        { week: '2026-10', date: end('2026-03-08'), environmentType: 'production', totalUpdates: 2 },
        { week: '2026-11', date: end('2026-03-15'), environmentType: 'production', totalUpdates: 2 },
      ])
    })

    it('from/to select the trend window by snapshot date; live user and flag totals are not windowed', async () => {
      const { status, body } = await insights('?from=2026-01-06&to=2026-01-12')
      expect(status).toBe(200)
      expect(insightsSchemaErrors(body)).toEqual([])
      expect(body.users).toEqual({ total: 3, active: 1, inactive: 2 })
      expect(body.userTrends.map((t: { date: string }) => t.date)).toEqual([end('2026-01-12')])
      expect(body.flagTrends.map((t: { date: string }) => t.date)).toEqual([end('2026-01-12')])
      expect(body.projectFlagTrends.map((t: { week: string; project: string }) => `${t.week} ${t.project}`)).toEqual([
        '2026-03 default',
        '2026-03 web',
      ])
      expect(body.metricsSummaryTrends).toEqual([])
      expect(body.environmentTypeTrends.map((t: { week: string }) => t.week)).toEqual(['2026-02', '2026-02'])
      const single = await insights('?from=2026-03-16&to=2026-03-16')
      expect(single.body.userTrends).toHaveLength(1)
    })

    it('the deprecated executive endpoint answers the same, with Deprecation and a Link to its successor', async () => {
      const [executive, current] = await Promise.all([service.api('GET', '/api/admin/dashboard/executive'), insights()])
      expect(executive.status).toBe(200)
      expect(executive.body).toEqual(current.body)
      expect(executive.headers.get('deprecation')).toMatch(/^@\d+$/)
      expect(executive.headers.get('link')).toBe('</api/admin/insights>; rel="successor-version"')
      expect(current.headers.get('deprecation')).toBeNull()
      const windowed = await service.api('GET', '/api/admin/dashboard/executive?from=2026-03-16&to=2026-03-16')
      expect(windowed.body.userTrends).toHaveLength(1)
    })

    it('the default window is the last 12 weeks (84 days up to today)', async () => {
      at('2026-03-30T12:00:00Z') // 84 days after 2026-01-06: the 2026-01-05 snapshot falls out
      const { body } = await insights()
      expect(body.userTrends.map((t: { date: string }) => t.date)).toEqual([end('2026-01-12'), end('2026-03-16')])
      expect(body.users).toEqual({ total: 3, active: 1, inactive: 2 }) // bob was seen 24 days ago
      at(N)
    })
  })
})
