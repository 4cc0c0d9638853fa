import type { Queryable } from '../db/database.js'

export interface EnvironmentRow {
  name: string
  type: string
  enabled: boolean
  protected: boolean
  sort_order: number
  project_count?: number
  enabled_toggle_count?: number
}

export interface EnvironmentInput {
  name: string
  type: string
  enabled?: boolean
  sortOrder?: number
}

/** Unleash's environmentSchema. */
export function toEnvironment(row: EnvironmentRow) {
  return {
    name: row.name,
    type: row.type,
    enabled: row.enabled,
    protected: row.protected,
    sortOrder: row.sort_order,
    projectCount: row.project_count ?? 0,
    enabledToggleCount: row.enabled_toggle_count ?? 0,
  }
}

const SELECT = `SELECT e.*,
    (SELECT count(*) FROM project_environments pe WHERE pe.environment_name = e.name)::int AS project_count,
    (SELECT count(*) FROM feature_environments fe JOIN features f ON f.name = fe.feature_name
      WHERE fe.environment = e.name AND fe.enabled AND f.archived_at IS NULL)::int AS enabled_toggle_count
  FROM environments e`

export function listEnvironments(q: Queryable): Promise<EnvironmentRow[]> {
  return q.query<EnvironmentRow>(`${SELECT} ORDER BY e.sort_order, e.name`)
}

export async function getEnvironment(q: Queryable, name: string): Promise<EnvironmentRow | undefined> {
  return (await q.query<EnvironmentRow>(`${SELECT} WHERE e.name = $1`, [name]))[0]
}

export async function insertEnvironment(q: Queryable, input: EnvironmentInput, now: Date): Promise<void> {
  await q.query(`INSERT INTO environments (name, type, enabled, sort_order, created_at) VALUES ($1, $2, $3, $4, $5)`, [
    input.name,
    input.type,
    input.enabled ?? true,
    input.sortOrder ?? 9999,
    now,
  ])
}

export async function updateEnvironment(
  q: Queryable,
  name: string,
  type: string,
  sortOrder: number | undefined,
): Promise<void> {
  await q.query(`UPDATE environments SET type = $2, sort_order = COALESCE($3, sort_order) WHERE name = $1`, [
    name,
    type,
    sortOrder ?? null,
  ])
}

export async function setEnvironmentEnabled(q: Queryable, name: string, enabled: boolean): Promise<void> {
  await q.query(`UPDATE environments SET enabled = $2 WHERE name = $1`, [name, enabled])
}

export async function deleteEnvironment(q: Queryable, name: string): Promise<void> {
  await q.query(`DELETE FROM environments WHERE name = $1`, [name])
}
