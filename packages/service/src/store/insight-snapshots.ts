import type { Queryable } from '../db/database.js'

// The writes of an insights snapshot, one SQL statement per aggregate. `$1` is the snapshot's UTC
// day (`yyyy-MM-dd`), `$2` the instant it describes. Every statement upserts on the table's
// unique key: rerunning a day replaces its rows, and racing instances never duplicate one.

/** Users insights count: not deleted, not service accounts, not system users (Unleash's userStore.count). */
export const REAL_USERS = 'FROM users WHERE deleted_at IS NULL AND NOT is_service AND NOT is_system'

/** Spec 8: a user is active when seen (any authenticated use) in the 60 days before `instant`. */
export const activeAt = (instant: string) => `seen_at > ${instant}::timestamptz - interval '60 days'`

/**
 * Per project as of `instant`: non-archived flags, those marked stale, and those not stale but
 * older than their type's lifetime (potentially stale). The snapshot and the live totals both count so.
 */
export const flagsPerProject = (instant: string) =>
  `SELECT f.project, count(*) AS total, count(*) FILTER (WHERE f.stale) AS stale,
     count(*) FILTER (WHERE NOT f.stale AND t.lifetime_days IS NOT NULL AND f.created_at + make_interval(days => t.lifetime_days) < ${instant}::timestamptz) AS potentially_stale
   FROM features f LEFT JOIN feature_types t ON t.id = f.type
   WHERE f.archived_at IS NULL GROUP BY f.project`

/** Days within which a flag's first production enablement counts towards time to production. */
const TIME_TO_PRODUCTION_DAYS = 30

/** The UTC week-start Monday of an instant column, as a date. */
const weekOf = (column: string) => `date_trunc('week', ${column} AT TIME ZONE 'UTC')::date`

/** When the latest snapshot was taken, if any. */
export async function lastSnapshotAt(q: Queryable): Promise<Date | undefined> {
  const [row] = await q.query<{ at: Date | null }>('SELECT max(taken_at) AS at FROM user_trends')
  return row?.at ? new Date(row.at) : undefined
}

export async function lastSnapshotDay(q: Queryable): Promise<string | undefined> {
  const [row] = await q.query<{ day: string | null }>(`SELECT to_char(max(day), 'YYYY-MM-DD') AS day FROM user_trends`)
  return row?.day ?? undefined
}

export async function hasSnapshot(q: Queryable, day: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM user_trends WHERE day = $1::date', [day])).length > 0
}

export async function snapshotUsers(q: Queryable, day: string, at: Date): Promise<void> {
  await q.query(
    `INSERT INTO user_trends (day, total_users, active_users, taken_at)
     SELECT $1::date, count(*), count(*) FILTER (WHERE ${activeAt('$2')}), $2 ${REAL_USERS}
     ON CONFLICT (day) DO UPDATE SET total_users = EXCLUDED.total_users, active_users = EXCLUDED.active_users, taken_at = EXCLUDED.taken_at`,
    [day, at],
  )
}

/**
 * Per project: non-archived flags, those marked stale, those not stale but older than their
 * type's lifetime (potentially stale), the average days from creation to the first enablement in
 * a production-type environment (lifecycle stage `live`) of flags that got there in the 30 days
 * before `$2`, and the users with access (every real user: root roles all see every project).
 */
export async function snapshotProjectFlags(q: Queryable, day: string, at: Date): Promise<void> {
  await q.query(
    `WITH flags AS (${flagsPerProject('$2')}), to_production AS (
       SELECT f.project, round(avg(extract(epoch FROM l.created_at - f.created_at)) / 86400, 1)::float8 AS days
       FROM feature_lifecycles l JOIN features f ON f.name = l.feature
       WHERE l.stage = 'live' AND l.created_at > $2::timestamptz - make_interval(days => $3) AND l.created_at <= $2::timestamptz
       GROUP BY f.project
     )
     INSERT INTO project_flag_trends (day, project, total_flags, stale_flags, potentially_stale_flags, time_to_production, users, taken_at)
     SELECT $1::date, p.id, COALESCE(flags.total, 0), COALESCE(flags.stale, 0), COALESCE(flags.potentially_stale, 0),
       to_production.days, (SELECT count(*) ${REAL_USERS}), $2
     FROM projects p LEFT JOIN flags ON flags.project = p.id LEFT JOIN to_production ON to_production.project = p.id
     ON CONFLICT (day, project) DO UPDATE SET total_flags = EXCLUDED.total_flags, stale_flags = EXCLUDED.stale_flags,
       potentially_stale_flags = EXCLUDED.potentially_stale_flags, time_to_production = EXCLUDED.time_to_production,
       users = EXCLUDED.users, taken_at = EXCLUDED.taken_at`,
    [day, at, TIME_TO_PRODUCTION_DAYS],
  )
}

/**
 * Per project and ISO week from `since` (a Monday; `-infinity` on the first snapshot) up to `$2`:
 * yes and no counts of the project's flags, and the distinct apps, flags and environments that
 * reported them. Recomputing from the previous snapshot's week means a week is complete once a
 * snapshot follows it, however long the service was down.
 */
export async function snapshotMetrics(q: Queryable, day: string, at: Date, since: string | undefined): Promise<void> {
  await q.query(
    `INSERT INTO project_metrics_trends (week_start, project, total_yes, total_no, total_apps, total_flags, total_environments, through)
     SELECT week_start, project, yes, no, apps, flags, environments, LEAST(week_start + 6, $1::date) FROM (
       SELECT ${weekOf('m.timestamp')} AS week_start, f.project, sum(m.yes) AS yes, sum(m.no) AS no,
         count(DISTINCT m.app_name) AS apps, count(DISTINCT m.feature_name) AS flags, count(DISTINCT m.environment) AS environments
       FROM client_metrics_hourly m JOIN features f ON f.name = m.feature_name
       WHERE m.timestamp >= $3::timestamptz AND m.timestamp <= $2::timestamptz
       GROUP BY 1, 2
     ) weekly
     ON CONFLICT (week_start, project) DO UPDATE SET total_yes = EXCLUDED.total_yes, total_no = EXCLUDED.total_no,
       total_apps = EXCLUDED.total_apps, total_flags = EXCLUDED.total_flags, total_environments = EXCLUDED.total_environments,
       through = EXCLUDED.through`,
    [day, at, since ? `${since}T00:00:00Z` : '-infinity'],
  )
}

/**
 * Per environment type and ISO week (same range as the metrics): event-log rows that name an
 * environment, i.e. configuration changes there. Unleash counts the same rows with a trigger.
 */
export async function snapshotEnvironmentTypes(
  q: Queryable,
  day: string,
  at: Date,
  since: string | undefined,
): Promise<void> {
  await q.query(
    `INSERT INTO environment_type_trends (week_start, environment_type, total_updates, through)
     SELECT week_start, type, updates, LEAST(week_start + 6, $1::date) FROM (
       SELECT ${weekOf('e.created_at')} AS week_start, env.type, count(*) AS updates
       FROM events e JOIN environments env ON env.name = e.environment
       WHERE e.created_at >= $3::timestamptz AND e.created_at <= $2::timestamptz
       GROUP BY 1, 2
     ) weekly
     ON CONFLICT (week_start, environment_type) DO UPDATE SET total_updates = EXCLUDED.total_updates, through = EXCLUDED.through`,
    [day, at, since ? `${since}T00:00:00Z` : '-infinity'],
  )
}
