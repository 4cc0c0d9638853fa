import { eventHandler, type H3Event, setResponseHeader } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../service-context.js'
import { addDays, isCalendarDay, utcDay } from '../../insights/dates.js'
import { instanceInsights } from '../../insights/report.js'
import { nextDailySnapshot } from '../../insights/scheduler.js'
import { takeInsightsSnapshot } from '../../insights/snapshot.js'
import { lastSnapshotAt } from '../../store/insight-snapshots.js'
import type { TrendWindow } from '../../store/insights.js'
import { queryWith } from '../../validate.js'
import type { ApiRouter } from '../api-router.js'

/** Issue 7: without `from`, the trends of the last 12 weeks up to `to` (default: today, UTC). */
const DEFAULT_WINDOW_WEEKS = 12

/**
 * RFC 9745 `Deprecation` (an RFC 9651 date): Unleash moved its UI from the executive endpoint to
 * /api/admin/insights in March 2024 (#6662, #6664); Vexil serves it deprecated from the start.
 */
const DEPRECATED_SINCE = `@${Date.UTC(2024, 3, 1) / 1000}`

const day = z.string().refine(isCalendarDay, 'must be a calendar day written yyyy-MM-dd, from 1970-01-01')

function windowSchema(today: string) {
  return z.object({ from: day.optional(), to: day.optional() }).transform((query, ctx): TrendWindow => {
    const to = query.to ?? today
    const from = query.from ?? addDays(to, -(DEFAULT_WINDOW_WEEKS * 7 - 1))
    if (from > to) ctx.addIssue({ code: 'custom', path: ['from'], message: `must not be after to (${from} > ${to})` })
    return { from, to }
  })
}

/**
 * Instance insights (spec 2.7, 4.7): `GET /api/admin/insights?from&to` and the deprecated
 * `GET /api/admin/dashboard/executive`, one `instanceInsightsSchema` body. Any user's personal
 * token or an admin token may read them (see `auth.ts`); taking a snapshot now needs ADMIN.
 */
export function registerInsightsRoutes(api: ApiRouter, ctx: ServiceContext): void {
  const insights = (event: H3Event) => {
    const now = ctx.clock()
    return instanceInsights(ctx.db, now, queryWith(event, windowSchema(utcDay(now))))
  }

  api.get('/api/admin/insights', 'user', eventHandler(insights))

  /** What the trends are built from: the latest snapshot and when the daily one is next taken. */
  const snapshotState = async () => {
    const last = await lastSnapshotAt(ctx.db)
    return {
      schedule: 'daily at 23:55 UTC',
      lastTakenAt: last?.toISOString() ?? null,
      nextAt: nextDailySnapshot(ctx.clock()).toISOString(),
    }
  }
  api.get('/api/admin/insights/snapshot', 'user', eventHandler(snapshotState))

  // Today's snapshot, now (it replaces today's rows); the snapshot's lock keeps it from racing the scheduler's.
  api.post(
    '/api/admin/insights/snapshot',
    'admin',
    eventHandler(async () => {
      await takeInsightsSnapshot(ctx.db, ctx.clock())
      return snapshotState()
    }),
  )

  api.get(
    '/api/admin/dashboard/executive',
    'user',
    eventHandler((event) => {
      setResponseHeader(event, 'deprecation', DEPRECATED_SINCE)
      setResponseHeader(event, 'link', '</api/admin/insights>; rel="successor-version"')
      return insights(event)
    }),
  )
}
