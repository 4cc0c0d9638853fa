import type { Queryable } from '../db/database.js'
import { badData, invalidOperation, ServiceError } from '../errors.js'
import type { Actor } from '../service-context.js'
import { machineAccountKind, type UserRow } from '../store/users.js'

/** The service account action sets run as when their creator names no actor. */
const ACTIONS_SERVICE_ACCOUNT = 'signal-actions'

/**
 * The id of the live `signal-actions` service account, created on first use (root role Admin,
 * no tokens: it cannot sign in). Racing creations meet on the unique username index.
 */
export async function defaultActorId(tx: Queryable, now: Date): Promise<number> {
  await tx.query(
    `INSERT INTO users (name, username, root_role, is_service, created_at) VALUES ('Signal actions', $1, 'Admin', true, $2) ON CONFLICT DO NOTHING`,
    [ACTIONS_SERVICE_ACCOUNT, now],
  )
  const [row] = await tx.query<UserRow>('SELECT * FROM users WHERE lower(username) = $1 AND deleted_at IS NULL', [
    ACTIONS_SERVICE_ACCOUNT,
  ])
  if (!row?.is_service) {
    throw new ServiceError(
      'ConflictError',
      `A user named "${ACTIONS_SERVICE_ACCOUNT}" exists and is not a service account; name an actorId.`,
    )
  }
  return row.id
}

export async function isServiceAccount(tx: Queryable, id: number): Promise<boolean> {
  const [row] = await tx.query<UserRow>('SELECT * FROM users WHERE id = $1 AND deleted_at IS NULL', [id])
  return row?.is_service === true
}

/** 400 unless `id` is a live service account (the actor an action set may name). */
export async function requireServiceAccount(tx: Queryable, id: number): Promise<void> {
  if (!(await isServiceAccount(tx, id)))
    throw badData(`body.actorId must be the id of a service account; ${id} is not one.`)
}

/**
 * The actor written to the event log for a run, or why there is none: named for the action set
 * (its service account is the user id), with the set and the signal as the change's origin.
 */
export async function runActor(
  tx: Queryable,
  set: { id: number; name: string; actor_id: number },
  signal: { signalId: number; signalEndpointId: number },
): Promise<Actor | string> {
  const [row] = await tx.query<UserRow>('SELECT * FROM users WHERE id = $1', [set.actor_id])
  if (!row || row.deleted_at)
    return `The action set's actor (user ${set.actor_id}) has been deleted; update the action set to run as another one.`
  return { name: `action-set:${set.name}`, userId: row.id, origin: { actionSetId: set.id, ...signal } }
}

/**
 * 403 for a service account or system user in the user admin API: they are listed nowhere there,
 * and `signal-actions` is an Admin every default action set runs as, so a token for it would be
 * a hidden admin credential and an edit or delete would change what those sets do.
 */
export function refuseMachineAccount(row: UserRow, what: string): void {
  const kind = machineAccountKind(row)
  if (kind) throw invalidOperation(`User ${row.id} is a ${kind}, not a person: it cannot ${what}.`)
}
