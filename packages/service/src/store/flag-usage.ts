import type { Queryable } from '../db/database.js'
import { hourOf } from './client-metrics.js'
import { iso } from './rows.js'

// Reads of the hourly client metrics for people: a flag's usage as Unleash's featureUsageSchema
// has it, and every flag's counts since two instants (the flag list and the flag page). Rows are
// hourly, so "since" means since the start of the UTC hour containing that instant.

export interface UsageCounts {
  yes: number
  no: number
  variants: Record<string, number>
}

export interface FlagUsage {
  featureName: string
  lastHour: UsageCounts
  lastDay: UsageCounts
}

/** Unleash's `lastHourUsage` rows: per environment and hour, newest hour first. */
export async function lastHourUsage(q: Queryable, feature: string, since: Date) {
  const rows = await q.query<{ environment: string; timestamp: Date; yes: number; no: number }>(
    `SELECT environment, timestamp, sum(yes)::float8 AS yes, sum(no)::float8 AS no
     FROM client_metrics_hourly WHERE feature_name = $1 AND timestamp >= $2
     GROUP BY environment, timestamp ORDER BY timestamp DESC, environment`,
    [feature, hourOf(since)],
  )
  return rows.map((row) => ({ environment: row.environment, timestamp: iso(row.timestamp), yes: row.yes, no: row.no }))
}

/** The applications that ever reported the flag, by name. */
export async function seenApplications(q: Queryable, feature: string): Promise<string[]> {
  const rows = await q.query<{ app_name: string }>(
    'SELECT DISTINCT app_name FROM client_metrics_hourly WHERE feature_name = $1 ORDER BY app_name',
    [feature],
  )
  return rows.map((row) => row.app_name)
}

/** Each reported flag's counts since `hour` and since `day` (one flag when `feature` is given). */
export async function flagUsage(
  q: Queryable,
  since: { hour: Date; day: Date },
  feature?: string,
): Promise<FlagUsage[]> {
  const params = [hourOf(since.hour), hourOf(since.day), feature ?? null]
  const [counts, variants] = await Promise.all([
    q.query<{ name: string; hour_yes: number; hour_no: number; day_yes: number; day_no: number }>(
      `SELECT feature_name AS name,
         COALESCE(sum(yes) FILTER (WHERE timestamp >= $1), 0)::float8 AS hour_yes,
         COALESCE(sum(no) FILTER (WHERE timestamp >= $1), 0)::float8 AS hour_no,
         sum(yes)::float8 AS day_yes, sum(no)::float8 AS day_no
       FROM client_metrics_hourly WHERE timestamp >= $2 AND ($3::text IS NULL OR feature_name = $3)
       GROUP BY feature_name ORDER BY feature_name`,
      params,
    ),
    q.query<{ name: string; variant: string; hour: number; day: number }>(
      `SELECT feature_name AS name, variant,
         COALESCE(sum(count) FILTER (WHERE timestamp >= $1), 0)::float8 AS hour, sum(count)::float8 AS day
       FROM client_metrics_hourly_variants WHERE timestamp >= $2 AND ($3::text IS NULL OR feature_name = $3)
       GROUP BY feature_name, variant ORDER BY feature_name, variant`,
      params,
    ),
  ])
  const byName = new Map<string, FlagUsage>(
    counts.map((row) => [
      row.name,
      {
        featureName: row.name,
        lastHour: { yes: row.hour_yes, no: row.hour_no, variants: {} },
        lastDay: { yes: row.day_yes, no: row.day_no, variants: {} },
      },
    ]),
  )
  for (const row of variants) {
    const usage = byName.get(row.name)
    if (!usage) continue
    if (row.hour > 0) usage.lastHour.variants[row.variant] = row.hour
    usage.lastDay.variants[row.variant] = row.day
  }
  return [...byName.values()]
}
