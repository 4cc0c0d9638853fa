import type { Queryable } from '../db/database.js'
import { iso } from './rows.js'

export interface MetricsBucket {
  appName: string
  environment: string
  /** Any time inside the hour the counts belong to. */
  at: Date
  toggles: Record<string, { yes: number; no: number; variants: Record<string, number> }>
}

/** The start of the UTC hour containing `date`. */
export function hourOf(date: Date): Date {
  const hour = new Date(date)
  hour.setUTCMinutes(0, 0, 0)
  return hour
}

/**
 * Adds the bucket's counts to the hourly rows. Upserts add (`yes = yes + excluded.yes`), so
 * concurrent posts for the same hour all count. Only counts for known flags are kept (Unleash).
 */
export async function addClientMetrics(q: Queryable, bucket: MetricsBucket): Promise<number> {
  const names = Object.keys(bucket.toggles)
  if (names.length === 0) return 0
  const known = new Set(
    (await q.query<{ name: string }>('SELECT name FROM features WHERE name = ANY($1::text[])', [names])).map((row) => row.name),
  )
  const hour = hourOf(bucket.at)
  let stored = 0
  for (const [name, counts] of Object.entries(bucket.toggles)) {
    if (!known.has(name)) continue
    stored++
    await q.query(
      `INSERT INTO client_metrics_hourly (feature_name, app_name, environment, timestamp, yes, no) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (feature_name, app_name, environment, timestamp)
       DO UPDATE SET yes = client_metrics_hourly.yes + EXCLUDED.yes, no = client_metrics_hourly.no + EXCLUDED.no`,
      [name, bucket.appName, bucket.environment, hour, counts.yes, counts.no],
    )
    for (const [variant, count] of Object.entries(counts.variants)) {
      await q.query(
        `INSERT INTO client_metrics_hourly_variants (feature_name, app_name, environment, timestamp, variant, count) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (feature_name, app_name, environment, timestamp, variant)
         DO UPDATE SET count = client_metrics_hourly_variants.count + EXCLUDED.count`,
        [name, bucket.appName, bucket.environment, hour, variant, count],
      )
    }
    await q.query('UPDATE features SET last_seen_at = $2 WHERE name = $1', [name, bucket.at])
    await q.query('UPDATE feature_environments SET last_seen_at = $3 WHERE feature_name = $1 AND environment = $2', [
      name,
      bucket.environment,
      bucket.at,
    ])
  }
  return stored
}

/** Unleash's raw feature metrics (`/api/admin/client-metrics/features/:name/raw`), newest hour first. */
export async function featureMetrics(q: Queryable, feature: string, since: Date) {
  const rows = await q.query<{ app_name: string; environment: string; timestamp: Date; yes: number; no: number; variants: Record<string, number> | null }>(
    `SELECT m.app_name, m.environment, m.timestamp, m.yes, m.no,
       (SELECT jsonb_object_agg(v.variant, v.count) FROM client_metrics_hourly_variants v
         WHERE v.feature_name = m.feature_name AND v.app_name = m.app_name AND v.environment = m.environment AND v.timestamp = m.timestamp) AS variants
     FROM client_metrics_hourly m WHERE m.feature_name = $1 AND m.timestamp >= $2
     ORDER BY m.timestamp DESC, m.app_name, m.environment`,
    [feature, hourOf(since)],
  )
  return rows.map((row) => ({
    featureName: feature,
    appName: row.app_name,
    environment: row.environment,
    timestamp: iso(row.timestamp),
    yes: row.yes,
    no: row.no,
    variants: row.variants ?? {},
  }))
}
