import type { Queryable } from '../db/database.js'
import { iso } from './rows.js'

/** Unleash's predefined root roles, with their ids. */
export const ROOT_ROLES = [
  {
    id: 1,
    name: 'Admin',
    type: 'root',
    description:
      'Users with the root admin role have superuser access to Unleash and can perform any operation within the Unleash platform.',
  },
  {
    id: 2,
    name: 'Editor',
    type: 'root',
    description:
      'Users with the root editor role have access to most features in Unleash, but can not manage users and roles in the root scope.',
  },
  {
    id: 3,
    name: 'Viewer',
    type: 'root',
    description: 'Users with the root viewer role can only read root resources in Unleash.',
  },
] as const

type RootRoleName = (typeof ROOT_ROLES)[number]['name']

export interface UserRow {
  id: number
  name: string | null
  username: string | null
  email: string | null
  image_url: string | null
  root_role: RootRoleName
  /** Service accounts (action sets run as one) and system users are not people: no tokens, no user admin. */
  is_service: boolean
  is_system: boolean
  created_at: Date
  seen_at: Date | null
  deleted_at: Date | null
}

export interface UserInput {
  name?: string | null
  username?: string | null
  email?: string | null
  rootRole: RootRoleName
}

/** Unleash's userSchema (the fields we keep). */
export function toUser(row: UserRow) {
  return {
    id: row.id,
    name: row.name,
    username: row.username,
    email: row.email,
    imageUrl: row.image_url,
    rootRole: ROOT_ROLES.find((role) => role.name === row.root_role)?.id ?? 3,
    seenAt: iso(row.seen_at),
    createdAt: iso(row.created_at),
    isAPI: false,
    accountType: row.is_service ? 'Service Account' : 'User',
    loginAttempts: 0,
    emailSent: false,
  }
}

/** What an account that is not a person is called in messages, or undefined for a person. */
export function machineAccountKind(row: UserRow): 'service account' | 'system user' | undefined {
  if (row.is_service) return 'service account'
  if (row.is_system) return 'system user'
  return undefined
}

export function listUsers(q: Queryable): Promise<UserRow[]> {
  return q.query<UserRow>(
    'SELECT * FROM users WHERE deleted_at IS NULL AND NOT is_service AND NOT is_system ORDER BY id',
  )
}

export async function getUser(q: Queryable, id: number): Promise<UserRow | undefined> {
  return (await q.query<UserRow>('SELECT * FROM users WHERE id = $1 AND deleted_at IS NULL', [id]))[0]
}

export async function identityTaken(
  q: Queryable,
  input: { email?: string | null; username?: string | null },
  exceptId = -1,
): Promise<boolean> {
  const rows = await q.query(
    `SELECT 1 FROM users WHERE deleted_at IS NULL AND id <> $3 AND ((lower(email) = lower($1)) OR (lower(username) = lower($2)))`,
    [input.email ?? null, input.username ?? null, exceptId],
  )
  return rows.length > 0
}

export async function insertUser(q: Queryable, input: UserInput, now: Date): Promise<UserRow> {
  const [row] = await q.query<UserRow>(
    'INSERT INTO users (name, username, email, root_role, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING *',
    [input.name ?? null, input.username ?? null, input.email ?? null, input.rootRole, now],
  )
  return row as UserRow
}

export async function updateUser(q: Queryable, id: number, patch: Partial<UserInput>): Promise<UserRow> {
  const [row] = await q.query<UserRow>(
    `UPDATE users SET name = COALESCE($2, name), email = COALESCE($3, email), root_role = COALESCE($4, root_role) WHERE id = $1 RETURNING *`,
    [id, patch.name ?? null, patch.email ?? null, patch.rootRole ?? null],
  )
  return row as UserRow
}

/** Soft delete (insights count users by `deleted_at`); the user's tokens stop working at once. */
export async function deleteUser(q: Queryable, id: number, now: Date): Promise<void> {
  await q.query('UPDATE users SET deleted_at = $2 WHERE id = $1', [id, now])
  await q.query('DELETE FROM personal_access_tokens WHERE user_id = $1', [id])
}

export async function markUserSeen(q: Queryable, id: number, now: Date): Promise<void> {
  await q.query('UPDATE users SET seen_at = $2 WHERE id = $1', [id, now])
}
