import { nameExists, notFound } from '../errors.js'
import * as users from '../store/users.js'
import { type Change, recordEvent } from './change.js'
import { refuseMachineAccount } from './service-account.js'

/** A new user; email and username are each unique (409). */
export async function createUser(change: Change, input: users.UserInput): Promise<users.UserRow> {
  if (await users.identityTaken(change.tx, input))
    throw nameExists('A user with that email or username already exists.')
  const row = await users.insertUser(change.tx, input, change.clock())
  await recordEvent(change, { type: 'user-created', data: users.toUser(row) })
  return row
}

/** Changes a person's name, email or root role (403 for a service account or system user). */
export async function updateUser(change: Change, id: number, update: Partial<users.UserInput>): Promise<users.UserRow> {
  const before = await requirePerson(change, id, 'be edited through the user admin API')
  if (update.email && (await users.identityTaken(change.tx, { email: update.email }, id)))
    throw nameExists('A user with that email already exists.')
  const after = await users.updateUser(change.tx, id, update)
  await recordEvent(change, { type: 'user-updated', data: users.toUser(after), preData: users.toUser(before) })
  return after
}

/** Deletes a person (403 for a service account or system user). */
export async function deleteUser(change: Change, id: number): Promise<void> {
  const before = await requirePerson(change, id, 'be deleted through the user admin API')
  await users.deleteUser(change.tx, id, change.clock())
  await recordEvent(change, { type: 'user-deleted', preData: users.toUser(before) })
}

// --- Internal helpers ---

async function requirePerson(change: Change, id: number, what: string): Promise<users.UserRow> {
  const row = await users.getUser(change.tx, id)
  if (!row) throw notFound(`User ${id}`)
  refuseMachineAccount(row, what)
  return row
}
