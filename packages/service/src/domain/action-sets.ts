import type { Queryable } from '../db/database.js'
import { nameExists, notFound } from '../errors.js'
import type { ActionSetBody } from '../schemas/action-set.js'
import type { SignalConfig } from '../signal-config.js'
import * as store from '../store/action-sets.js'
import { type Change, recordEvent } from './change.js'
import { checkActionSet } from './check-action-set.js'
import { enforceLimit } from './limits.js'
import { requireProject } from './lookups.js'

/** Unleash's actionSetSchema of a stored set, with its actions. */
type ActionSetView = ReturnType<typeof store.toActionSet>

/** The action set, which must be in the project of the path (the project must exist). */
export async function requireActionSet(q: Queryable, project: string, id: number): Promise<store.ActionSetRow> {
  await requireProject(q, project)
  const row = await store.getActionSet(q, project, id)
  if (!row) throw notFound(`Action set ${id} in project "${project}"`)
  return row
}

export async function actionSetView(q: Queryable, row: store.ActionSetRow): Promise<ActionSetView> {
  return store.toActionSet(row, (await store.actionsOf(q, [row.id])).get(row.id) ?? [])
}

/** A new action set in the project: limits, names and references checked (check-action-set.ts). */
export async function createActionSet(
  change: Change,
  project: string,
  body: ActionSetBody,
  limits: SignalConfig,
): Promise<ActionSetView> {
  const { tx, clock } = change
  await requireProject(tx, project)
  await enforceLimit(tx, {
    scope: `action-sets:${project}`,
    resource: 'action set',
    limit: limits.actionSetsPerProjectLimit,
    count: () => store.countActionSets(tx, project),
  })
  await refuseTakenName(tx, project, body.name)
  const input = await checkActionSet(tx, project, body, { limits, now: clock() })
  const saved = await actionSetView(tx, await store.insertActionSet(tx, project, input, clock(), change.actor.userId))
  await recordEvent(change, { type: 'actions-created', project, data: saved })
  return saved
}

/** Replaces the set's fields and actions; it keeps its actor unless the body names another. */
export async function updateActionSet(
  change: Change,
  project: string,
  id: number,
  body: ActionSetBody,
  limits: SignalConfig,
): Promise<ActionSetView> {
  const { tx, clock } = change
  const before = await actionSetView(tx, await requireActionSet(tx, project, id))
  await refuseTakenName(tx, project, body.name, id)
  const input = await checkActionSet(tx, project, body, { limits, now: clock(), currentActorId: before.actorId })
  const saved = await actionSetView(tx, await store.updateActionSet(tx, id, input, clock(), change.actor.userId))
  await recordEvent(change, { type: 'actions-updated', project, data: saved, preData: before })
  return saved
}

export async function setActionSetEnabled(
  change: Change,
  project: string,
  id: number,
  enabled: boolean,
): Promise<ActionSetView> {
  const before = await actionSetView(change.tx, await requireActionSet(change.tx, project, id))
  const saved = await actionSetView(change.tx, await store.setActionSetEnabled(change.tx, id, enabled))
  await recordEvent(change, { type: 'actions-updated', project, data: saved, preData: before })
  return saved
}

export async function deleteActionSet(change: Change, project: string, id: number): Promise<void> {
  const before = await actionSetView(change.tx, await requireActionSet(change.tx, project, id))
  await store.deleteActionSet(change.tx, id)
  await recordEvent(change, { type: 'actions-deleted', project, preData: before })
}

// --- Internal helpers ---

async function refuseTakenName(q: Queryable, project: string, name: string, exceptId?: number): Promise<void> {
  if (await store.actionSetNameTaken(q, project, name, exceptId))
    throw nameExists(`An action set named "${name}" already exists in project "${project}".`)
}
