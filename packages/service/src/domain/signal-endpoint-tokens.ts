import type { Queryable } from '../db/database.js'
import { notFound } from '../errors.js'
import * as store from '../store/signal-endpoints.js'
import { newSignalTokenSecret } from '../token-secrets.js'
import { type Change, recordEvent } from './change.js'
import { enforceLimit } from './limits.js'
import { requireSignalEndpoint } from './signal-endpoints.js'

/** The token, which must belong to the endpoint of the path. */
async function requireSignalToken(q: Queryable, endpointId: number, tokenId: number): Promise<store.SignalTokenRow> {
  const row = await store.getSignalToken(q, endpointId, tokenId)
  if (!row) throw notFound(`Token ${tokenId} of signal endpoint ${endpointId}`)
  return row
}

/**
 * A new token for the endpoint; at most `limit` per endpoint (spec section 8). Only its hash is
 * stored: the secret is returned once, here.
 */
export async function createSignalToken(
  change: Change,
  endpointId: number,
  name: string,
  limit: number,
): Promise<{ row: store.SignalTokenRow; secret: string }> {
  const { tx } = change
  const secret = newSignalTokenSecret()
  await requireSignalEndpoint(tx, endpointId)
  await enforceLimit(tx, {
    scope: `signal-endpoint-tokens:${endpointId}`,
    resource: 'signal endpoint token',
    limit,
    count: () => store.countSignalTokens(tx, endpointId),
  })
  const row = await store.insertSignalToken(tx, { endpointId, name, secret }, change.clock(), change.actor.userId)
  await recordEvent(change, { type: 'signal-endpoint-token-created', data: store.toSignalToken(row) })
  return { row, secret }
}

export async function renameSignalToken(
  change: Change,
  endpointId: number,
  tokenId: number,
  name: string,
): Promise<store.SignalTokenRow> {
  const before = await requireSignalToken(change.tx, endpointId, tokenId)
  const after = await store.renameSignalToken(change.tx, before.id, name)
  await recordEvent(change, {
    type: 'signal-endpoint-token-updated',
    data: store.toSignalToken(after),
    preData: store.toSignalToken(before),
  })
  return after
}

/** Revokes the token: signals presenting it are refused from now on. */
export async function deleteSignalToken(change: Change, endpointId: number, tokenId: number): Promise<void> {
  const row = await requireSignalToken(change.tx, endpointId, tokenId)
  await store.deleteSignalToken(change.tx, row.id)
  await recordEvent(change, { type: 'signal-endpoint-token-deleted', preData: store.toSignalToken(row) })
}
