import type { Queryable } from '../db/database.js'
import type { PayloadFilter } from '../schemas/action-set.js'
import { iso, json } from './rows.js'

export type ActionName = 'TOGGLE_FEATURE_ON' | 'TOGGLE_FEATURE_OFF'

interface ExecutionParams {
  project: string
  environment: string
  featureName: string
}

export interface ActionSetRow {
  id: number
  project: string
  name: string
  description: string | null
  enabled: boolean
  actor_id: number
  source: string
  source_id: number
  payload: Record<string, PayloadFilter>
  /** Bumped by every update (migration 009): the action runner compiles the filters once per version. */
  version: number
  created_at: Date
  created_by_user_id: number | null
}

export interface ActionRow {
  id: number
  action_set_id: number
  sort_order: number
  action: ActionName
  execution_params: ExecutionParams
  created_at: Date
  created_by_user_id: number | null
}

export interface ActionSetInput {
  name: string
  description?: string | null | undefined
  enabled?: boolean | undefined
  actorId: number
  sourceId: number
  filters: Record<string, PayloadFilter>
  actions: { action: ActionName; sortOrder: number; executionParams: ExecutionParams }[]
}

export function toAction(row: ActionRow) {
  return {
    id: row.id,
    action: row.action,
    sortOrder: row.sort_order,
    executionParams: row.execution_params,
    createdAt: iso(row.created_at),
    createdByUserId: row.created_by_user_id,
  }
}

/** Unleash's actionSetSchema. */
export function toActionSet(row: ActionSetRow, actions: ActionRow[]) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    enabled: row.enabled,
    project: row.project,
    actorId: row.actor_id,
    match: { source: row.source, sourceId: row.source_id, payload: row.payload },
    actions: actions.map(toAction),
    createdAt: iso(row.created_at),
    createdByUserId: row.created_by_user_id,
  }
}

export function listActionSets(q: Queryable, project: string): Promise<ActionSetRow[]> {
  return q.query<ActionSetRow>('SELECT * FROM action_sets WHERE project = $1 ORDER BY id', [project])
}

export async function getActionSet(q: Queryable, project: string, id: number): Promise<ActionSetRow | undefined> {
  return (await q.query<ActionSetRow>('SELECT * FROM action_sets WHERE project = $1 AND id = $2', [project, id]))[0]
}

/** The enabled action sets that listen to one signal endpoint, oldest first. */
export function enabledActionSetsFor(q: Queryable, endpointId: number): Promise<ActionSetRow[]> {
  return q.query<ActionSetRow>(
    `SELECT * FROM action_sets WHERE source = 'signal-endpoint' AND source_id = $1 AND enabled ORDER BY id`,
    [endpointId],
  )
}

/** Every set's actions in run order (sortOrder, then as listed), grouped by set id. */
export async function actionsOf(q: Queryable, setIds: number[]): Promise<Map<number, ActionRow[]>> {
  const rows = await q.query<ActionRow>(
    'SELECT * FROM actions WHERE action_set_id = ANY($1::int[]) ORDER BY sort_order, id',
    [setIds],
  )
  const bySet = new Map<number, ActionRow[]>(setIds.map((id) => [id, []]))
  for (const row of rows) bySet.get(row.action_set_id)?.push(row)
  return bySet
}

export async function countActionSets(q: Queryable, project: string): Promise<number> {
  return (
    (await q.query<{ n: number }>('SELECT count(*)::int AS n FROM action_sets WHERE project = $1', [project]))[0]?.n ??
    0
  )
}

export async function actionSetNameTaken(q: Queryable, project: string, name: string, exceptId = -1): Promise<boolean> {
  return (
    (
      await q.query('SELECT 1 FROM action_sets WHERE project = $1 AND name = $2 AND id <> $3', [
        project,
        name,
        exceptId,
      ])
    ).length > 0
  )
}

/** Names of the action sets (any project) that listen to an endpoint. */
export async function actionSetsUsing(q: Queryable, endpointId: number): Promise<string[]> {
  const rows = await q.query<{ label: string }>(
    `SELECT project || '/' || name AS label FROM action_sets WHERE source_id = $1 ORDER BY id`,
    [endpointId],
  )
  return rows.map((row) => row.label)
}

export async function insertActionSet(
  q: Queryable,
  project: string,
  input: ActionSetInput,
  now: Date,
  userId?: number,
): Promise<ActionSetRow> {
  const [row] = await q.query<ActionSetRow>(
    `INSERT INTO action_sets (project, name, description, enabled, actor_id, source, source_id, payload, created_at, created_by_user_id)
     VALUES ($1, $2, $3, $4, $5, 'signal-endpoint', $6, $7, $8, $9) RETURNING *`,
    [
      project,
      input.name,
      input.description ?? null,
      input.enabled ?? true,
      input.actorId,
      input.sourceId,
      json(input.filters),
      now,
      userId ?? null,
    ],
  )
  await insertActions(q, (row as ActionSetRow).id, input.actions, now, userId)
  return row as ActionSetRow
}

/** Replaces the set's fields and its actions; `enabled` only when given. */
export async function updateActionSet(
  q: Queryable,
  id: number,
  input: ActionSetInput,
  now: Date,
  userId?: number,
): Promise<ActionSetRow> {
  const [row] = await q.query<ActionSetRow>(
    `UPDATE action_sets SET name = $2, description = $3, enabled = COALESCE($4, enabled), actor_id = $5, source_id = $6, payload = $7,
       version = version + 1
     WHERE id = $1 RETURNING *`,
    [
      id,
      input.name,
      input.description ?? null,
      input.enabled ?? null,
      input.actorId,
      input.sourceId,
      json(input.filters),
    ],
  )
  await q.query('DELETE FROM actions WHERE action_set_id = $1', [id])
  await insertActions(q, id, input.actions, now, userId)
  return row as ActionSetRow
}

export async function setActionSetEnabled(q: Queryable, id: number, enabled: boolean): Promise<ActionSetRow> {
  const [row] = await q.query<ActionSetRow>(
    'UPDATE action_sets SET enabled = $2, version = version + 1 WHERE id = $1 RETURNING *',
    [id, enabled],
  )
  return row as ActionSetRow
}

export async function deleteActionSet(q: Queryable, id: number): Promise<void> {
  await q.query('DELETE FROM action_sets WHERE id = $1', [id])
}

// --- Internal helpers ---

async function insertActions(
  q: Queryable,
  setId: number,
  actions: ActionSetInput['actions'],
  now: Date,
  userId?: number,
): Promise<void> {
  for (const action of actions) {
    await q.query(
      `INSERT INTO actions (action_set_id, sort_order, action, execution_params, created_at, created_by_user_id) VALUES ($1, $2, $3, $4, $5, $6)`,
      [setId, action.sortOrder, action.action, json(action.executionParams), now, userId ?? null],
    )
  }
}
