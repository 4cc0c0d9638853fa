import type { Clock } from '../service-context.js'
import type { Database } from '../db/database.js'
import type { Logger } from '../logger.js'
import { hasSnapshot } from '../store/insight-snapshots.js'
import { utcDay } from './dates.js'
import { takeInsightsSnapshot } from './snapshot.js'

/** The timer functions the scheduler uses; tests pass ones they advance by hand. */
export interface InsightsTimers {
  /** The callback returns the run it starts, so a test's timers can await it. */
  setTimeout(callback: () => unknown, ms: number): unknown
  clearTimeout(handle: unknown): void
}

export interface InsightsSchedulerOptions {
  db: Database
  clock: Clock
  logger: Logger
  timers?: InsightsTimers
}

export interface InsightsScheduler {
  /** Takes today's snapshot if it is missing, then one every day at 23:55 UTC. */
  start(): Promise<void>
  /** Takes (or retakes) today's snapshot now; rejects when it fails or the scheduler is stopped. */
  runNow(): Promise<void>
  /** Clears the timer and waits for a run in flight: afterwards the scheduler queries nothing. */
  stop(): Promise<void>
}

/** The daily run, close to the end of the UTC day its row is dated (spec 2.7: end of day). */
const DAILY_RUN_UTC_MS = (23 * 60 + 55) * 60_000
const DAY_MS = 86_400_000

/** When the daily run after `now` is due: today's at 23:55 UTC, or tomorrow's once that has passed. */
export function nextDailySnapshot(now: Date): Date {
  const time = now.getTime()
  const today = time - (time % DAY_MS)
  return new Date(today + DAILY_RUN_UTC_MS > time ? today + DAILY_RUN_UTC_MS : today + DAY_MS + DAILY_RUN_UTC_MS)
}

const nodeTimers: InsightsTimers = {
  setTimeout(callback, ms) {
    const handle = setTimeout(callback, ms)
    handle.unref() // never the reason a process stays up
    return handle
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
}

/** The insights snapshot scheduler (issue 7): daily, at startup when today's is missing, on demand. */
export function createInsightsScheduler(options: InsightsSchedulerOptions): InsightsScheduler {
  const { db, clock, logger } = options
  const timers = options.timers ?? nodeTimers
  let handle: unknown
  let started = false
  let stopped = false
  // Runs are chained: never two at once from one scheduler, and stop() awaits the tail.
  let tail: Promise<void> = Promise.resolve()

  const enqueue = (run: () => Promise<void>): Promise<void> => {
    const next = tail.then(run)
    tail = next.catch(() => undefined)
    return next
  }
  const snapshot = () => (stopped ? Promise.resolve() : takeInsightsSnapshot(db, clock()))
  const logged = (run: Promise<void>, when: string) =>
    run.catch((error: unknown) =>
      logger.error(`insights snapshot (${when}) failed`, error instanceof Error ? error.stack : error),
    )

  const schedule = () => {
    if (stopped) return
    const now = clock()
    handle = timers.setTimeout(() => {
      handle = undefined
      return logged(enqueue(snapshot), 'daily').then(schedule)
    }, nextDailySnapshot(now).getTime() - now.getTime())
  }

  return {
    async start() {
      if (stopped || started) return
      started = true
      await logged(
        enqueue(async () => {
          if (!stopped && !(await hasSnapshot(db, utcDay(clock())))) await takeInsightsSnapshot(db, clock())
        }),
        'startup',
      )
      schedule()
    },
    runNow() {
      if (stopped) return Promise.reject(new Error('The insights scheduler is stopped.'))
      return enqueue(snapshot)
    },
    async stop() {
      stopped = true
      if (handle !== undefined) timers.clearTimeout(handle)
      handle = undefined
      await tail
    },
  }
}
