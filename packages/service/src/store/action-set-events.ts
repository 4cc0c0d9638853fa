import type { Queryable } from '../db/database.js'
import { iso, json } from './rows.js'

interface ActionSetEventRow {
  id: number
  action_set_id: number
  signal_id: number
  created_at: Date
  state: string
  signal: unknown
  action_set: unknown
}

/** Records one run: the signal and the set as they were, each action with its state. */
export async function insertActionSetEvent(
  q: Queryable,
  input: { actionSetId: number; signalId: number; state: 'success' | 'failed'; signal: unknown; actionSet: unknown },
  now: Date,
): Promise<void> {
  await q.query(
    'INSERT INTO action_set_events (action_set_id, signal_id, created_at, state, signal, action_set) VALUES ($1, $2, $3, $4, $5, $6)',
    [input.actionSetId, input.signalId, now, input.state, json(input.signal), json(input.actionSet)],
  )
}

/** One set's runs, newest first (Unleash's actionSetEventSchema). */
export async function listActionSetEvents(q: Queryable, actionSetId: number, limit: number, offset: number) {
  const rows = await q.query<ActionSetEventRow>(
    'SELECT * FROM action_set_events WHERE action_set_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3',
    [actionSetId, limit, offset],
  )
  return rows.map((row) => ({
    id: row.id,
    actionSetId: row.action_set_id,
    signalId: row.signal_id,
    createdAt: iso(row.created_at),
    state: row.state,
    signal: row.signal,
    actionSet: row.action_set,
  }))
}
