import { randomUUID } from 'node:crypto'
import type { Queryable } from '../db/database.js'
import type { StrategyBody } from '../schemas/strategy.js'
import { json } from './rows.js'

export interface StrategyRow {
  id: string
  feature_name: string
  project_name: string
  environment: string
  strategy_name: string
  title: string | null
  disabled: boolean
  parameters: Record<string, string>
  constraints: unknown[]
  variants: unknown[]
  sort_order: number
  segments: number[]
}

/** Unleash's featureStrategySchema. */
export function toStrategy(row: StrategyRow) {
  return {
    id: row.id,
    name: row.strategy_name,
    title: row.title,
    disabled: row.disabled,
    featureName: row.feature_name,
    sortOrder: row.sort_order,
    segments: row.segments,
    constraints: row.constraints,
    variants: row.variants,
    parameters: row.parameters,
  }
}

const SELECT = `SELECT s.*, COALESCE(
    (SELECT array_agg(fss.segment_id ORDER BY fss.segment_id) FROM feature_strategy_segment fss WHERE fss.feature_strategy_id = s.id),
    '{}') AS segments
  FROM feature_strategies s`

export function listStrategies(q: Queryable, feature: string, environment?: string): Promise<StrategyRow[]> {
  return q.query<StrategyRow>(
    `${SELECT} WHERE s.feature_name = $1 AND ($2::text IS NULL OR s.environment = $2) ORDER BY s.sort_order, s.created_at, s.id`,
    [feature, environment ?? null],
  )
}

export async function getStrategy(q: Queryable, id: string): Promise<StrategyRow | undefined> {
  return (await q.query<StrategyRow>(`${SELECT} WHERE s.id = $1`, [id]))[0]
}

export interface StrategyTarget {
  feature: string
  project: string
  environment: string
}

/** Inserts a strategy; without a sortOrder it goes last. Returns the stored row. */
export async function insertStrategy(
  q: Queryable,
  target: StrategyTarget,
  body: StrategyBody,
  now: Date,
  userId?: number,
): Promise<StrategyRow> {
  const id = randomUUID()
  await q.query(
    `INSERT INTO feature_strategies (id, feature_name, project_name, environment, strategy_name, title, disabled, parameters, constraints, variants, sort_order, created_at, created_by_user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
       COALESCE($11, (SELECT COALESCE(max(sort_order) + 1, 0) FROM feature_strategies WHERE feature_name = $2 AND environment = $4)), $12, $13)`,
    [
      id,
      target.feature,
      target.project,
      target.environment,
      body.name,
      body.title ?? null,
      body.disabled ?? false,
      json(body.parameters),
      json(body.constraints),
      json(body.variants),
      body.sortOrder ?? null,
      now,
      userId ?? null,
    ],
  )
  await setStrategySegments(q, id, body.segments)
  return (await getStrategy(q, id)) as StrategyRow
}

export async function updateStrategy(q: Queryable, id: string, body: StrategyBody): Promise<StrategyRow> {
  await q.query(
    `UPDATE feature_strategies SET strategy_name = $2, title = $3, disabled = $4, parameters = $5, constraints = $6, variants = $7,
       sort_order = COALESCE($8, sort_order) WHERE id = $1`,
    [
      id,
      body.name,
      body.title ?? null,
      body.disabled ?? false,
      json(body.parameters),
      json(body.constraints),
      json(body.variants),
      body.sortOrder ?? null,
    ],
  )
  await setStrategySegments(q, id, body.segments)
  return (await getStrategy(q, id)) as StrategyRow
}

export async function deleteStrategy(q: Queryable, id: string): Promise<void> {
  await q.query('DELETE FROM feature_strategies WHERE id = $1', [id])
}

export async function setStrategyDisabled(q: Queryable, id: string, disabled: boolean): Promise<StrategyRow> {
  await q.query('UPDATE feature_strategies SET disabled = $2 WHERE id = $1', [id, disabled])
  return (await getStrategy(q, id)) as StrategyRow
}

export async function setSortOrder(q: Queryable, id: string, sortOrder: number): Promise<void> {
  await q.query('UPDATE feature_strategies SET sort_order = $2 WHERE id = $1', [id, sortOrder])
}

async function setStrategySegments(q: Queryable, id: string, segments: number[]): Promise<void> {
  await q.query('DELETE FROM feature_strategy_segment WHERE feature_strategy_id = $1', [id])
  for (const segment of new Set(segments)) {
    await q.query('INSERT INTO feature_strategy_segment (feature_strategy_id, segment_id) VALUES ($1, $2)', [
      id,
      segment,
    ])
  }
}
