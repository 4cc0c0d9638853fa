import type { Queryable } from '../db/database.js'
import type { Constraint } from '../schemas/constraint.js'
import { iso, json } from './rows.js'

export interface SegmentRow {
  id: number
  name: string
  description: string | null
  project: string | null
  constraints: unknown[]
  created_at: Date
  created_by: string | null
  used_in_features?: number
  used_in_projects?: number
}

export interface SegmentInput {
  name: string
  description?: string | null
  project?: string | null
  constraints: Constraint[]
}

/** Unleash's adminSegmentSchema. */
export function toSegment(row: SegmentRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    project: row.project,
    constraints: row.constraints,
    usedInFeatures: row.used_in_features ?? 0,
    usedInProjects: row.used_in_projects ?? 0,
    createdBy: row.created_by,
    createdAt: iso(row.created_at),
  }
}

const SELECT = `SELECT sg.*,
    (SELECT count(DISTINCT s.feature_name) FROM feature_strategy_segment fss JOIN feature_strategies s ON s.id = fss.feature_strategy_id WHERE fss.segment_id = sg.id)::int AS used_in_features,
    (SELECT count(DISTINCT s.project_name) FROM feature_strategy_segment fss JOIN feature_strategies s ON s.id = fss.feature_strategy_id WHERE fss.segment_id = sg.id)::int AS used_in_projects
  FROM segments sg`

export function listSegments(q: Queryable): Promise<SegmentRow[]> {
  return q.query<SegmentRow>(`${SELECT} ORDER BY sg.id`)
}

export async function getSegment(q: Queryable, id: number): Promise<SegmentRow | undefined> {
  return (await q.query<SegmentRow>(`${SELECT} WHERE sg.id = $1`, [id]))[0]
}

export async function segmentNameTaken(q: Queryable, name: string, exceptId?: number): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM segments WHERE name = $1 AND id <> $2', [name, exceptId ?? -1])
  return rows.length > 0
}

/** The ids among `ids` that do not exist. */
export async function missingSegments(q: Queryable, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return []
  const rows = await q.query<{ id: number }>('SELECT id FROM segments WHERE id = ANY($1::int[])', [ids])
  const found = new Set(rows.map((row) => row.id))
  return ids.filter((id) => !found.has(id))
}

export async function insertSegment(
  q: Queryable,
  input: SegmentInput,
  createdBy: string,
  now: Date,
): Promise<SegmentRow> {
  const [row] = await q.query<{ id: number }>(
    `INSERT INTO segments (name, description, project, constraints, created_at, created_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [input.name, input.description ?? null, input.project ?? null, json(input.constraints), now, createdBy],
  )
  return (await getSegment(q, (row as { id: number }).id)) as SegmentRow
}

export async function updateSegment(q: Queryable, id: number, input: SegmentInput): Promise<void> {
  await q.query(`UPDATE segments SET name = $2, description = $3, project = $4, constraints = $5 WHERE id = $1`, [
    id,
    input.name,
    input.description ?? null,
    input.project ?? null,
    json(input.constraints),
  ])
}

export async function deleteSegment(q: Queryable, id: number): Promise<void> {
  await q.query('DELETE FROM segments WHERE id = $1', [id])
}

/** The strategies that use the segment (Unleash's segmentStrategiesSchema items). */
export async function segmentStrategies(q: Queryable, id: number) {
  const rows = await q.query<{
    id: string
    project_name: string
    feature_name: string
    strategy_name: string
    title: string | null
    environment: string
  }>(
    `SELECT s.id, s.project_name, s.feature_name, s.strategy_name, s.title, s.environment FROM feature_strategy_segment fss
     JOIN feature_strategies s ON s.id = fss.feature_strategy_id WHERE fss.segment_id = $1 ORDER BY s.feature_name, s.environment`,
    [id],
  )
  return rows.map((row) => ({
    id: row.id,
    projectId: row.project_name,
    featureName: row.feature_name,
    strategyName: row.strategy_name,
    name: row.title || row.strategy_name,
    environment: row.environment,
  }))
}
