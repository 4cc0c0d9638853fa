import type { Queryable } from '../db/database.js'
import { activeAt, flagsPerProject, REAL_USERS } from './insight-snapshots.js'

// The reads behind GET /api/admin/insights: live totals, and the stored snapshots whose day (or,
// for weekly rows, last covered day) lies in the window [$1, $2] (`yyyy-MM-dd`, inclusive).
// Days come back as `yyyy-MM-dd` text and weeks as ISO `YYYY-WW`, never as driver dates.

export interface TrendWindow {
  from: string
  to: string
}

interface UserTrendRow {
  day: string
  total: number
  active: number
}
interface FlagCountsRow {
  total: number
  stale: number
  potentially_stale: number
}
export interface FlagTrendRow extends FlagCountsRow {
  day: string
}
interface ProjectFlagTrendRow extends FlagTrendRow {
  week: string
  project: string
  time_to_production: number | null
  users: number
}
interface MetricsTrendRow {
  week: string
  day: string
  project: string
  yes: number
  no: number
  apps: number
  flags: number
  environments: number
}
interface EnvironmentTypeTrendRow {
  week: string
  day: string
  environment_type: string
  updates: number
}

const DAY = (column: string) => `to_char(${column}::timestamp, 'YYYY-MM-DD')`
const WEEK = (column: string) => `to_char(${column}::timestamp, 'IYYY-IW')`
const windowParams = (window: TrendWindow) => [window.from, window.to]

/** Real users now, and those active (seen in the past 60 days). */
export async function countUsers(q: Queryable, now: Date): Promise<{ total: number; active: number }> {
  const [row] = await q.query<{ total: number; active: number }>(
    `SELECT count(*)::int AS total, (count(*) FILTER (WHERE ${activeAt('$1')}))::int AS active ${REAL_USERS}`,
    [now],
  )
  return row ?? { total: 0, active: 0 }
}

/** Flags now, counted as a snapshot counts them: the Flags total and today's point of its chart. */
export async function countFlags(q: Queryable, now: Date): Promise<FlagCountsRow> {
  const [row] = await q.query<FlagCountsRow>(
    `SELECT COALESCE(sum(total), 0)::int AS total, COALESCE(sum(stale), 0)::int AS stale,
       COALESCE(sum(potentially_stale), 0)::int AS potentially_stale FROM (${flagsPerProject('$1')}) flags`,
    [now],
  )
  return row ?? { total: 0, stale: 0, potentially_stale: 0 }
}

export function readUserTrends(q: Queryable, window: TrendWindow): Promise<UserTrendRow[]> {
  return q.query<UserTrendRow>(
    `SELECT ${DAY('day')} AS day, total_users AS total, active_users AS active FROM user_trends
     WHERE day BETWEEN $1::date AND $2::date ORDER BY user_trends.day`,
    windowParams(window),
  )
}

/** The projects' rows summed per snapshot day (a day with no project counts zero flags). */
export function readFlagTrends(q: Queryable, window: TrendWindow): Promise<FlagTrendRow[]> {
  return q.query<FlagTrendRow>(
    `SELECT ${DAY('u.day')} AS day, COALESCE(sum(p.total_flags), 0)::int AS total, COALESCE(sum(p.stale_flags), 0)::int AS stale,
       COALESCE(sum(p.potentially_stale_flags), 0)::int AS potentially_stale
     FROM user_trends u LEFT JOIN project_flag_trends p ON p.day = u.day
     WHERE u.day BETWEEN $1::date AND $2::date GROUP BY u.day ORDER BY u.day`,
    windowParams(window),
  )
}

/** Per project and ISO week, the week's latest daily snapshot in the window. */
export function readProjectFlagTrends(q: Queryable, window: TrendWindow): Promise<ProjectFlagTrendRow[]> {
  return q.query<ProjectFlagTrendRow>(
    `SELECT * FROM (
       SELECT DISTINCT ON (project, ${WEEK('day')}) ${WEEK('day')} AS week, project, ${DAY('day')} AS day,
         total_flags AS total, stale_flags AS stale, potentially_stale_flags AS potentially_stale, time_to_production, users
       FROM project_flag_trends WHERE day BETWEEN $1::date AND $2::date
       ORDER BY project, ${WEEK('day')}, project_flag_trends.day DESC
     ) latest ORDER BY week, project`,
    windowParams(window),
  )
}

export function readMetricsTrends(q: Queryable, window: TrendWindow): Promise<MetricsTrendRow[]> {
  return q.query<MetricsTrendRow>(
    `SELECT ${WEEK('week_start')} AS week, ${DAY('through')} AS day, project, total_yes AS yes, total_no AS no,
       total_apps AS apps, total_flags AS flags, total_environments AS environments
     FROM project_metrics_trends WHERE through BETWEEN $1::date AND $2::date ORDER BY week_start, project`,
    windowParams(window),
  )
}

export function readEnvironmentTypeTrends(q: Queryable, window: TrendWindow): Promise<EnvironmentTypeTrendRow[]> {
  return q.query<EnvironmentTypeTrendRow>(
    `SELECT ${WEEK('week_start')} AS week, ${DAY('through')} AS day, environment_type, total_updates AS updates
     FROM environment_type_trends WHERE through BETWEEN $1::date AND $2::date ORDER BY week_start, environment_type`,
    windowParams(window),
  )
}
