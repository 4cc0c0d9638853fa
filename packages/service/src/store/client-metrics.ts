import type { Queryable } from '../db/database.js'
import { iso } from './rows.js'

export interface MetricsBucket {
  appName: string
  /** The reporting token's environment and projects (`['*']`: every project). */
  environment: string
  projects: readonly string[]
  /** The hour the counts belong to is the one containing `start`. */
  start: Date
  /** When the flags were last evaluated: `lastSeenAt` moves up to it, never back. */
  lastSeen: Date
  toggles: Record<string, { yes: number; no: number; variants: Record<string, number> }>
}

/** What one post may write: the first flags (in scope) and variants of each, in body order. */
interface MetricsLimits {
  toggles: number
  variantsPerToggle: number
}

/** PostgreSQL's bigint maximum: counts saturate there instead of failing the post (SQLSTATE 22003). */
const MAX_COUNT = '9223372036854775807'

/** The start of the UTC hour containing `date`: the hourly rows' timestamps. */
export function hourOf(date: Date): Date {
  const hour = new Date(date)
  hour.setUTCMinutes(0, 0, 0)
  return hour
}

/**
 * Adds the bucket's counts to the hourly rows. Upserts add (`yes = yes + excluded.yes`), so
 * concurrent posts for the same hour all count. Only flags the token could fetch are counted:
 * in its projects, in a project that has its environment (archived ones too: SDKs keep
 * evaluating a flag until their next fetch). Other names are ignored, as Unleash ignores
 * unknown flags. Returns how many flags were counted.
 */
export async function addClientMetrics(q: Queryable, bucket: MetricsBucket, limits: MetricsLimits): Promise<number> {
  const names = Object.keys(bucket.toggles)
  if (names.length === 0) return 0
  const projects = bucket.projects.includes('*') ? null : [...bucket.projects]
  const inScope = new Set(
    (
      await q.query<{ name: string }>(
        `SELECT f.name FROM features f
     JOIN project_environments pe ON pe.project_id = f.project AND pe.environment_name = $2
     WHERE f.name = ANY($1::text[]) AND ($3::text[] IS NULL OR f.project = ANY($3::text[]))`,
        [names, bucket.environment, projects],
      )
    ).map((row) => row.name),
  )
  // Sorted, so concurrent posts lock the same rows in the same order (no deadlock).
  const counted = names
    .filter((name) => inScope.has(name))
    .slice(0, limits.toggles)
    .sort()
  if (counted.length === 0) return 0
  const variants = counted
    .flatMap((name) =>
      Object.entries((bucket.toggles[name] as MetricsBucket['toggles'][string]).variants)
        .slice(0, limits.variantsPerToggle)
        .map(([variant, count]) => ({ name, variant, count })),
    )
    .sort((a, b) => (a.name === b.name ? compare(a.variant, b.variant) : compare(a.name, b.name)))
  const hour = hourOf(bucket.start)
  const key = [bucket.appName, bucket.environment, hour]
  await q.query(
    `INSERT INTO client_metrics_hourly (feature_name, app_name, environment, timestamp, yes, no)
     SELECT t.name, $1, $2, $3, t.yes, t.no FROM unnest($4::text[], $5::bigint[], $6::bigint[]) AS t(name, yes, no)
     ON CONFLICT (feature_name, app_name, environment, timestamp) DO UPDATE SET
       yes = LEAST(client_metrics_hourly.yes::numeric + EXCLUDED.yes, ${MAX_COUNT})::bigint,
       no = LEAST(client_metrics_hourly.no::numeric + EXCLUDED.no, ${MAX_COUNT})::bigint`,
    [
      ...key,
      counted,
      counted.map((name) => bucket.toggles[name]?.yes ?? 0),
      counted.map((name) => bucket.toggles[name]?.no ?? 0),
    ],
  )
  if (variants.length > 0) {
    await q.query(
      `INSERT INTO client_metrics_hourly_variants (feature_name, app_name, environment, timestamp, variant, count)
       SELECT t.name, $1, $2, $3, t.variant, t.count FROM unnest($4::text[], $5::text[], $6::bigint[]) AS t(name, variant, count)
       ON CONFLICT (feature_name, app_name, environment, timestamp, variant) DO UPDATE SET
         count = LEAST(client_metrics_hourly_variants.count::numeric + EXCLUDED.count, ${MAX_COUNT})::bigint`,
      [...key, variants.map((v) => v.name), variants.map((v) => v.variant), variants.map((v) => v.count)],
    )
  }
  // GREATEST skips NULL: a first report sets lastSeenAt, an older bucket never moves it back.
  await q.query('UPDATE features SET last_seen_at = GREATEST(last_seen_at, $2) WHERE name = ANY($1::text[])', [
    counted,
    bucket.lastSeen,
  ])
  await q.query(
    'UPDATE feature_environments SET last_seen_at = GREATEST(last_seen_at, $3) WHERE feature_name = ANY($1::text[]) AND environment = $2',
    [counted, bucket.environment, bucket.lastSeen],
  )
  return counted.length
}

/** Unleash's raw feature metrics (`/api/admin/client-metrics/features/:name/raw`), newest hour first. */
export async function featureMetrics(q: Queryable, feature: string, since: Date) {
  const rows = await q.query<{
    app_name: string
    environment: string
    timestamp: Date
    yes: number
    no: number
    variants: Record<string, number> | null
  }>(
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

// --- Internal helpers ---

/** Code-unit order, as `Array.prototype.sort` without a comparator (locale-independent). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
