import type { Queryable } from '../db/database.js'
import { nameExists, notFound, ServiceError } from '../errors.js'
import { actionSetsUsing } from '../store/action-sets.js'
import * as store from '../store/signal-endpoints.js'
import { type Change, recordEvent } from './change.js'
import { enforceLimit } from './limits.js'

export async function requireSignalEndpoint(q: Queryable, id: number): Promise<store.SignalEndpointRow> {
  const row = await store.getSignalEndpoint(q, id)
  if (!row) throw notFound(`Signal endpoint ${id}`)
  return row
}

/** A new signal endpoint; at most `limit` exist (spec section 8), names are unique. */
export async function createSignalEndpoint(
  change: Change,
  input: store.SignalEndpointInput,
  limit: number,
): Promise<store.SignalEndpointRow> {
  const { tx } = change
  await enforceLimit(tx, {
    scope: 'signal-endpoints',
    resource: 'signal endpoint',
    limit,
    count: () => store.countSignalEndpoints(tx),
  })
  await refuseTakenName(tx, input.name)
  const row = await store.insertSignalEndpoint(tx, input, change.clock(), change.actor.userId)
  await recordEvent(change, { type: 'signal-endpoint-created', data: store.toSignalEndpoint(row, []) })
  return row
}

export async function updateSignalEndpoint(
  change: Change,
  id: number,
  input: store.SignalEndpointInput,
): Promise<store.SignalEndpointRow> {
  const before = await requireSignalEndpoint(change.tx, id)
  await refuseTakenName(change.tx, input.name, id)
  return replace(change, before, input)
}

/** Turns an endpoint on or off (a disabled one refuses signals). */
export async function setSignalEndpointEnabled(
  change: Change,
  id: number,
  enabled: boolean,
): Promise<store.SignalEndpointRow> {
  const before = await requireSignalEndpoint(change.tx, id)
  return replace(change, before, { ...before, enabled })
}

/** Deletes an endpoint with its tokens and signals; 409 while an action set listens to it. */
export async function deleteSignalEndpoint(change: Change, id: number): Promise<void> {
  const row = await requireSignalEndpoint(change.tx, id)
  const users = await actionSetsUsing(change.tx, id)
  if (users.length > 0)
    throw new ServiceError(
      'ConflictError',
      `Signal endpoint ${id} is used by action sets (${users.join(', ')}); delete or change them first.`,
    )
  await store.deleteSignalEndpoint(change.tx, id)
  await recordEvent(change, { type: 'signal-endpoint-deleted', preData: store.toSignalEndpoint(row, []) })
}

// --- Internal helpers ---

async function refuseTakenName(q: Queryable, name: string, exceptId?: number): Promise<void> {
  if (await store.signalEndpointNameTaken(q, name, exceptId))
    throw nameExists(`A signal endpoint named "${name}" already exists.`)
}

async function replace(
  change: Change,
  before: store.SignalEndpointRow,
  input: store.SignalEndpointInput,
): Promise<store.SignalEndpointRow> {
  const after = await store.updateSignalEndpoint(change.tx, before.id, input)
  await recordEvent(change, {
    type: 'signal-endpoint-updated',
    data: store.toSignalEndpoint(after, []),
    preData: store.toSignalEndpoint(before, []),
  })
  return after
}
