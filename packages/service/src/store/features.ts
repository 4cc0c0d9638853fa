import type { Queryable } from '../db/database.js'
import { iso } from './rows.js'

export interface FeatureRow {
  name: string
  project: string
  type: string
  description: string | null
  impression_data: boolean
  stale: boolean
  created_at: Date
  archived_at: Date | null
  last_seen_at: Date | null
}

interface FeatureInput {
  name: string
  type?: string
  description?: string | null
  impressionData?: boolean
}

interface FeatureEnvironmentRow {
  name: string
  type: string
  sort_order: number
  enabled: boolean
  variants: unknown[]
  last_seen_at: Date | null
}

/** The flag fields every admin shape shares (Unleash featureSchema without environments). */
export function toFeature(row: FeatureRow) {
  return {
    name: row.name,
    type: row.type,
    description: row.description,
    project: row.project,
    stale: row.stale,
    impressionData: row.impression_data,
    archived: row.archived_at !== null,
    archivedAt: iso(row.archived_at),
    createdAt: iso(row.created_at),
    lastSeenAt: iso(row.last_seen_at),
    favorite: false,
  }
}

export async function getFeature(q: Queryable, name: string): Promise<FeatureRow | undefined> {
  return (await q.query<FeatureRow>('SELECT * FROM features WHERE name = $1', [name]))[0]
}

/** Locks the flag's row for the rest of the transaction, so concurrent changes to it queue. */
export async function lockFeature(q: Queryable, name: string): Promise<FeatureRow | undefined> {
  return (await q.query<FeatureRow>('SELECT * FROM features WHERE name = $1 FOR UPDATE', [name]))[0]
}

export function listFeatures(q: Queryable, project: string, archived: boolean): Promise<FeatureRow[]> {
  return q.query<FeatureRow>(
    `SELECT * FROM features WHERE project = $1 AND (archived_at IS NOT NULL) = $2 ORDER BY created_at, name`,
    [project, archived],
  )
}

export function listAllFeatures(q: Queryable, archived: boolean): Promise<FeatureRow[]> {
  return q.query<FeatureRow>(`SELECT * FROM features WHERE (archived_at IS NOT NULL) = $1 ORDER BY created_at, name`, [
    archived,
  ])
}

/** Inserts the flag, disabled in each of its project's environments, and its `initial` lifecycle stage. */
export async function insertFeature(
  q: Queryable,
  project: string,
  input: FeatureInput,
  now: Date,
  userId?: number,
): Promise<FeatureRow> {
  const [row] = await q.query<FeatureRow>(
    `INSERT INTO features (name, project, type, description, impression_data, created_at, created_by_user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
    [
      input.name,
      project,
      input.type ?? 'release',
      input.description ?? null,
      input.impressionData ?? false,
      now,
      userId ?? null,
    ],
  )
  await q.query(
    `INSERT INTO feature_environments (feature_name, environment, enabled)
     SELECT $1, environment_name, false FROM project_environments WHERE project_id = $2`,
    [input.name, project],
  )
  await recordLifecycle(q, input.name, 'initial', now)
  return row as FeatureRow
}

export async function updateFeature(
  q: Queryable,
  name: string,
  patch: { type?: string; description?: string | null; impressionData?: boolean; stale?: boolean },
): Promise<FeatureRow> {
  const [row] = await q.query<FeatureRow>(
    `UPDATE features SET type = COALESCE($2, type), description = CASE WHEN $3::boolean THEN $4 ELSE description END,
       impression_data = COALESCE($5, impression_data), stale = COALESCE($6, stale)
     WHERE name = $1 RETURNING *`,
    [
      name,
      patch.type ?? null,
      patch.description !== undefined,
      patch.description ?? null,
      patch.impressionData ?? null,
      patch.stale ?? null,
    ],
  )
  return row as FeatureRow
}

export async function setArchived(q: Queryable, name: string, archivedAt: Date | null): Promise<void> {
  await q.query('UPDATE features SET archived_at = $2 WHERE name = $1', [name, archivedAt])
  if (archivedAt) await recordLifecycle(q, name, 'archived', archivedAt)
  else await q.query(`DELETE FROM feature_lifecycles WHERE feature = $1 AND stage = 'archived'`, [name])
}

export async function deleteFeature(q: Queryable, name: string): Promise<void> {
  await q.query('DELETE FROM features WHERE name = $1', [name])
}

export async function featureEnvironments(q: Queryable, name: string): Promise<FeatureEnvironmentRow[]> {
  return q.query<FeatureEnvironmentRow>(
    `SELECT e.name, e.type, e.sort_order, COALESCE(fe.enabled, false) AS enabled, COALESCE(fe.variants, '[]'::jsonb) AS variants, fe.last_seen_at
     FROM features f
     JOIN project_environments pe ON pe.project_id = f.project
     JOIN environments e ON e.name = pe.environment_name
     LEFT JOIN feature_environments fe ON fe.feature_name = f.name AND fe.environment = e.name
     WHERE f.name = $1 ORDER BY e.sort_order, e.name`,
    [name],
  )
}

/** Sets the flag's state in one environment; returns the previous state. */
export async function setEnabled(q: Queryable, name: string, environment: string, enabled: boolean): Promise<boolean> {
  const before = await q.query<{ enabled: boolean }>(
    'SELECT enabled FROM feature_environments WHERE feature_name = $1 AND environment = $2',
    [name, environment],
  )
  await q.query(
    `INSERT INTO feature_environments (feature_name, environment, enabled) VALUES ($1, $2, $3)
     ON CONFLICT (feature_name, environment) DO UPDATE SET enabled = EXCLUDED.enabled`,
    [name, environment, enabled],
  )
  return before[0]?.enabled ?? false
}

export async function setEnvironmentVariants(
  q: Queryable,
  name: string,
  environment: string,
  variants: unknown[],
): Promise<void> {
  await q.query(
    `INSERT INTO feature_environments (feature_name, environment, variants) VALUES ($1, $2, $3)
     ON CONFLICT (feature_name, environment) DO UPDATE SET variants = EXCLUDED.variants`,
    [name, environment, JSON.stringify(variants)],
  )
}

/** Lifecycle stages for insights, first time reached: initial, pre-live, live, archived. */
export async function recordLifecycle(q: Queryable, name: string, stage: string, now: Date): Promise<void> {
  await q.query(
    `INSERT INTO feature_lifecycles (feature, stage, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
    [name, stage, now],
  )
}
