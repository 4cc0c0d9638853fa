import type { Queryable } from '../db/database.js'
import { hashSecret } from '../token-secrets.js'
import { iso } from './rows.js'
import type { UserRow } from './users.js'

export interface PersonalTokenRow {
  id: number
  user_id: number
  description: string
  expires_at: Date | null
  created_at: Date
  seen_at: Date | null
}

/** Unleash's patSchema; `secret` only in the response that created it. */
export function toPersonalToken(row: PersonalTokenRow, secret?: string) {
  return {
    id: row.id,
    description: row.description,
    expiresAt: iso(row.expires_at),
    createdAt: iso(row.created_at),
    seenAt: iso(row.seen_at),
    userId: row.user_id,
    ...(secret ? { secret } : {}),
  }
}

export function listPersonalTokens(q: Queryable, userId: number): Promise<PersonalTokenRow[]> {
  return q.query<PersonalTokenRow>(
    'SELECT id, user_id, description, expires_at, created_at, seen_at FROM personal_access_tokens WHERE user_id = $1 ORDER BY id',
    [userId],
  )
}

/** Every user's token with its owner's email and name (an admin's view; never a secret). */
export async function listAllPersonalTokens(q: Queryable) {
  const rows = await q.query<PersonalTokenRow & { email: string | null; name: string | null; username: string | null }>(
    `SELECT t.id, t.user_id, t.description, t.expires_at, t.created_at, t.seen_at, u.email, u.name, u.username
     FROM personal_access_tokens t JOIN users u ON u.id = t.user_id ORDER BY t.id`,
  )
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    userEmail: row.email,
    userName: row.name ?? row.username,
    description: row.description,
    createdAt: iso(row.created_at),
    expiresAt: iso(row.expires_at),
    seenAt: iso(row.seen_at),
  }))
}

export async function insertPersonalToken(
  q: Queryable,
  input: { userId: number; secret: string; description: string; expiresAt: Date | null },
  now: Date,
): Promise<PersonalTokenRow> {
  const [row] = await q.query<PersonalTokenRow>(
    `INSERT INTO personal_access_tokens (user_id, secret_hash, description, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)
     RETURNING id, user_id, description, expires_at, created_at, seen_at`,
    [input.userId, hashSecret(input.secret), input.description, input.expiresAt, now],
  )
  return row as PersonalTokenRow
}

export async function deletePersonalToken(q: Queryable, userId: number, id: number): Promise<boolean> {
  const rows = await q.query('DELETE FROM personal_access_tokens WHERE user_id = $1 AND id = $2 RETURNING 1', [
    userId,
    id,
  ])
  return rows.length > 0
}

/** Deletes any user's token (an admin revoking it); returns its owner, or undefined when there was none. */
export async function revokePersonalToken(q: Queryable, id: number): Promise<{ userId: number } | undefined> {
  const [row] = await q.query<{ user_id: number }>(
    'DELETE FROM personal_access_tokens WHERE id = $1 RETURNING user_id',
    [id],
  )
  return row ? { userId: row.user_id } : undefined
}

/**
 * The live (not deleted) user owning the token, with the token's expiry. Service accounts and
 * system users never sign in with one: a token the old service let an admin make for them
 * (a hidden Admin credential) is refused, and stays listed for an admin to revoke.
 */
export async function findUserByPersonalToken(
  q: Queryable,
  secret: string,
): Promise<{ user: UserRow; tokenId: number; expiresAt: Date | null } | undefined> {
  const rows = await q.query<UserRow & { token_id: number; token_expires_at: Date | null }>(
    `SELECT u.*, t.id AS token_id, t.expires_at AS token_expires_at FROM personal_access_tokens t
     JOIN users u ON u.id = t.user_id
     WHERE t.secret_hash = $1 AND u.deleted_at IS NULL AND NOT u.is_service AND NOT u.is_system`,
    [hashSecret(secret)],
  )
  const row = rows[0]
  if (!row) return undefined
  const { token_id, token_expires_at, ...user } = row
  return { user, tokenId: token_id, expiresAt: token_expires_at }
}
