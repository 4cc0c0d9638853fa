import { badData, notFound } from '../errors.js'
import * as tokens from '../store/personal-tokens.js'
import { getUser } from '../store/users.js'
import { newPersonalTokenSecret } from '../token-secrets.js'
import { type Change, recordEvent } from './change.js'
import { refuseMachineAccount } from './service-account.js'

interface NewPersonalToken {
  userId: number
  description: string
  expiresAt?: Date | null | undefined
}

/**
 * A personal access token for a person (never a service account or system user). Only its hash
 * is stored: the secret is returned once, here.
 */
export async function issuePersonalToken(
  change: Change,
  input: NewPersonalToken,
): Promise<{ row: tokens.PersonalTokenRow; secret: string }> {
  if (input.expiresAt && input.expiresAt.getTime() <= change.clock().getTime())
    throw badData('body.expiresAt must be in the future.')
  const secret = newPersonalTokenSecret()
  const user = await getUser(change.tx, input.userId)
  if (!user) throw notFound(`User ${input.userId}`)
  refuseMachineAccount(user, 'have a personal access token')
  const row = await tokens.insertPersonalToken(
    change.tx,
    { userId: input.userId, secret, description: input.description, expiresAt: input.expiresAt ?? null },
    change.clock(),
  )
  await recordEvent(change, { type: 'pat-created', data: tokens.toPersonalToken(row) })
  return { row, secret }
}

/** A user deletes one of their own tokens (404 for anyone else's). */
export async function deleteOwnPersonalToken(change: Change, userId: number, id: number): Promise<void> {
  if (!(await tokens.deletePersonalToken(change.tx, userId, id))) throw notFound(`Personal access token ${id}`)
  await recordEvent(change, { type: 'pat-deleted', data: { id, userId } })
}

/** An admin revokes any user's token. */
export async function revokePersonalToken(change: Change, id: number): Promise<void> {
  const revoked = await tokens.revokePersonalToken(change.tx, id)
  if (!revoked) throw notFound(`Personal access token ${id}`)
  await recordEvent(change, { type: 'pat-deleted', data: { id, userId: revoked.userId } })
}
