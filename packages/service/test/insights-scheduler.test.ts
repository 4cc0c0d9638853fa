import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../src/db/database.js'
import { migrate } from '../src/db/migrate.js'
import { createPgliteDatabase } from '../src/db/pglite.js'
import { createInsightsScheduler } from '../src/insights/scheduler.js'
import { type Logger, silentLogger } from '../src/logger.js'
import { startService } from '../src/server.js'
import { databaseDrivers } from './helpers/drivers.js'
import { manualTimers } from './helpers/manual-timers.js'
import { createFlag, startTestService, type TestService } from './helpers/service.js'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'

// The snapshot scheduler (issue 7): today's snapshot at startup when missing, then one a day at
// 23:55 UTC; a day's second run replaces its rows; stop() leaves no timer and no query behind;
// several instances on one database never duplicate a row. Timers are the test's: no sleeping.
const HOUR = 3_600_000
const cleanups: (() => Promise<unknown> | unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const snapshotRows = async (db: Database) =>
  db.query<{ day: string; taken_at: Date; total_users: number }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, taken_at, total_users FROM user_trends ORDER BY day`,
  )

describe('the insights scheduler', () => {
  // One service for these tests; each starts from no flags, events or snapshots at 10:00 UTC.
  const clock = { now: new Date() }
  let service: TestService
  beforeAll(async () => {
    service = await startTestService({ clock: () => clock.now })
  })
  afterAll(() => service.close())

  async function setUp() {
    clock.now = new Date('2026-04-15T10:00:00Z')
    await service.db.query(
      'TRUNCATE user_trends, project_flag_trends, project_metrics_trends, environment_type_trends, events',
    )
    await service.db.query('DELETE FROM features')
    const timers = manualTimers(clock)
    const errors: unknown[] = []
    const logger: Logger = { ...silentLogger, error: (...args: unknown[]) => void errors.push(args) }
    const scheduler = createInsightsScheduler({ db: service.db, clock: () => clock.now, logger, timers })
    cleanups.push(() => scheduler.stop())
    return { clock, timers, service, scheduler, errors }
  }

  it("start() takes today's snapshot when it is missing, then runs daily at 23:55 UTC", async () => {
    const { timers, service, scheduler } = await setUp()
    await scheduler.start()
    expect(await snapshotRows(service.db)).toEqual([
      { day: '2026-04-15', taken_at: new Date('2026-04-15T10:00:00Z'), total_users: 0 },
    ])
    expect(timers.pending()).toBe(1)

    await timers.advance(13 * HOUR + 54 * 60_000) // 23:54: not yet
    expect((await snapshotRows(service.db))[0]?.taken_at).toEqual(new Date('2026-04-15T10:00:00Z'))
    await timers.advance(60_000)
    expect((await snapshotRows(service.db)).map((r) => [r.day, r.taken_at.toISOString()])).toEqual([
      ['2026-04-15', '2026-04-15T23:55:00.000Z'],
    ])
    await timers.advance(48 * HOUR)
    expect((await snapshotRows(service.db)).map((r) => [r.day, r.taken_at.toISOString()])).toEqual([
      ['2026-04-15', '2026-04-15T23:55:00.000Z'],
      ['2026-04-16', '2026-04-16T23:55:00.000Z'],
      ['2026-04-17', '2026-04-17T23:55:00.000Z'],
    ])
    expect(timers.pending()).toBe(1)
  })

  it("start() does not take a second snapshot when today's exists (a restart the same day)", async () => {
    const { clock, service, scheduler } = await setUp()
    await scheduler.runNow()
    clock.now = new Date('2026-04-15T15:00:00Z')
    await scheduler.start()
    expect((await snapshotRows(service.db)).map((r) => r.taken_at.toISOString())).toEqual(['2026-04-15T10:00:00.000Z'])
  })

  it("a second run the same day replaces that day's rows: the latest state wins, nothing is duplicated", async () => {
    const { clock, service, scheduler } = await setUp()
    await scheduler.runNow()
    await createFlag(service, 'default', 'later-that-day')
    await service.api('POST', '/api/admin/projects/default/features/later-that-day/environments/production/on')
    clock.now = new Date('2026-04-15T20:00:00Z')
    await scheduler.runNow()
    await scheduler.runNow()
    const trends = (await service.api('GET', '/api/admin/insights')).body
    expect(trends.userTrends).toHaveLength(1)
    expect(trends.projectFlagTrends).toEqual([
      expect.objectContaining({ project: 'default', total: 1, date: '2026-04-15T23:59:59.999Z' }),
    ])
    expect(trends.environmentTypeTrends).toEqual([
      expect.objectContaining({ environmentType: 'production', totalUpdates: 2 }),
    ])
    const counts = await service.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM project_flag_trends) + (SELECT count(*) FROM environment_type_trends) AS n`,
    )
    expect(counts[0]?.n).toBe(2)
  })

  it('a failed run is logged and the schedule goes on', async () => {
    const { timers, service, scheduler, errors } = await setUp()
    await scheduler.start()
    await service.db.query('ALTER TABLE user_trends RENAME TO user_trends_away')
    await timers.advance(14 * HOUR)
    expect(errors).toHaveLength(1)
    expect(timers.pending()).toBe(1)
    await service.db.query('ALTER TABLE user_trends_away RENAME TO user_trends')
    await timers.advance(24 * HOUR)
    expect((await snapshotRows(service.db)).map((r) => r.day)).toEqual(['2026-04-15', '2026-04-16'])
    await expect(scheduler.runNow()).resolves.toBeUndefined()
  })

  it('stop() clears its timer and waits for a run in flight; no query reaches the database afterwards', async () => {
    const clock = { now: new Date('2026-04-15T23:00:00Z') }
    const timers = manualTimers(clock)
    const inner = await createPgliteDatabase()
    await migrate(inner)
    const db = gatedDatabase(inner)
    const scheduler = createInsightsScheduler({ db, clock: () => clock.now, logger: silentLogger, timers })
    await scheduler.start()
    expect(timers.pending()).toBe(1)

    db.hold()
    const firing = timers.advance(HOUR) // 23:55: a run starts and waits on the gate
    await db.waiting()
    let stopped = false
    const stopping = scheduler.stop().then(() => (stopped = true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(stopped).toBe(false)
    db.release()
    await Promise.all([firing, stopping])
    expect(timers.pending()).toBe(0)
    await db.close()
    await timers.advance(48 * HOUR)
    await expect(scheduler.runNow()).rejects.toThrow(/stopped/)
    expect(db.queriesAfterClose()).toBe(0)
  })
})

describe('startService runs the scheduler', () => {
  const data = tempDir('insights-restart')
  afterAll(() => data.remove())
  const clock = { now: new Date('2026-04-15T10:00:00Z') }
  const timers = manualTimers(clock)
  const start = () =>
    startService({
      port: 0,
      host: '127.0.0.1',
      dataDir: data.path,
      logger: silentLogger,
      env: {},
      clock: () => clock.now,
      timers,
      seedDemo: true,
    })
  const userTrendDates = async (url: string, token: string) => {
    const response = await fetch(`${url}/api/admin/insights`, { headers: { authorization: token } })
    return ((await response.json()) as { userTrends: { date: string }[] }).userTrends.map((t) => t.date)
  }

  it('snapshots at startup, on its timer, and on demand; close() leaves no timer', async () => {
    const service = await start()
    try {
      expect(timers.pending()).toBe(1)
      const token = service.demo?.adminToken as string
      expect(await userTrendDates(service.url, token)).toEqual(['2026-04-15T23:59:59.999Z'])
      await timers.advance(24 * HOUR) // 23:55 on the 15th, then 10:00 on the 16th
      await service.snapshotInsights()
      expect(await userTrendDates(service.url, token)).toEqual(['2026-04-15T23:59:59.999Z', '2026-04-16T23:59:59.999Z'])
    } finally {
      await service.close()
    }
    expect(timers.pending()).toBe(0)
  })

  it('history survives a restart, and the restart adds the missing day', async () => {
    clock.now = new Date('2026-04-18T08:00:00Z')
    const service = await start()
    try {
      expect(await userTrendDates(service.url, service.demo?.adminToken as string)).toEqual([
        '2026-04-15T23:59:59.999Z',
        '2026-04-16T23:59:59.999Z',
        '2026-04-18T23:59:59.999Z',
      ])
    } finally {
      await service.close()
    }
    expect(timers.pending()).toBe(0)
  })
})

const drivers = await databaseDrivers('insights-scheduler')

describe.each(drivers)('several service instances on one $name database', ({ name, open, openAgain }) => {
  const run = open ? it : it.skip
  run('schedulers racing on the same day leave one row per day, project, week and type', async () => {
    const first = await (open as () => Promise<Database>)()
    const second = openAgain ? await openAgain() : first
    cleanups.push(
      () => first.close(),
      () => (second === first ? undefined : second.close()),
    )
    const service = await startTestService({ db: first, clock: () => new Date('2026-04-15T10:00:00Z') })
    cleanups.push(() => service.close())
    await service.api('POST', '/api/admin/projects', { body: { id: 'web', name: 'Web' } })
    await createFlag(service, 'web', 'racing')
    await service.api('POST', '/api/admin/projects/web/features/racing/environments/development/on')

    const clock = () => new Date('2026-04-15T23:55:00Z')
    const schedulers = [first, second, first, second].map((db) =>
      createInsightsScheduler({ db, clock, logger: silentLogger }),
    )
    await Promise.all(schedulers.map((scheduler) => scheduler.runNow()))
    await Promise.all(schedulers.map((scheduler) => scheduler.stop()))

    const count = async (table: string) =>
      (await first.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]?.n
    expect(await count('user_trends'), name).toBe(1)
    expect(await count('project_flag_trends')).toBe(2)
    expect(await count('environment_type_trends')).toBe(1)
    const { body } = await service.api('GET', '/api/admin/insights')
    expect(body.environmentTypeTrends).toEqual([
      expect.objectContaining({ environmentType: 'development', totalUpdates: 2 }),
    ])
  })
})

/** A database whose queries can be held at a gate, and which counts queries made after close(). */
function gatedDatabase(inner: Database) {
  let gate: Promise<void> | undefined
  let open: (() => void) | undefined
  let arrived: (() => void) | undefined
  let arrival = new Promise<void>((resolve) => (arrived = resolve))
  let closed = false
  let late = 0
  const pass = async () => {
    if (closed) late++
    if (gate) {
      arrived?.()
      await gate
    }
  }
  const db: Database = {
    driver: inner.driver,
    query: async (sql, params) => {
      await pass()
      return inner.query(sql, params)
    },
    transaction: (fn) =>
      inner.transaction((tx) => fn({ query: async (sql, params) => (await pass(), tx.query(sql, params)) })),
    listen: (channel, onNotify) => inner.listen(channel, onNotify),
    close: async () => {
      closed = true
      await inner.close()
    },
  }
  return {
    ...db,
    hold: () => {
      gate = new Promise((resolve) => (open = resolve))
      arrival = new Promise((resolve) => (arrived = resolve))
    },
    waiting: () => arrival,
    release: () => {
      gate = undefined
      open?.()
    },
    queriesAfterClose: () => late,
  }
}
