import type { Queryable } from '../db/database.js'
import { displayToken, hashSecret } from '../token-secrets.js'
import { iso } from './rows.js'

export type ApiTokenType = 'client' | 'backend' | 'admin' | 'frontend'

/** The variables a deployment lists bootstrap tokens in (config.ts). */
type InitVariable = 'INIT_ADMIN_API_TOKENS' | 'INIT_CLIENT_API_TOKENS'

export interface ApiTokenRow {
  id: number
  display: string
  token_name: string
  type: ApiTokenType
  environment: string
  projects: string[]
  expires_at: Date | null
  created_at: Date
  seen_at: Date | null
  /** The INIT_* variable the token was inserted from; null for tokens made through the API or the demo. */
  init_variable: InitVariable | null
}

interface ApiTokenInput {
  secret: string
  tokenName: string
  type: ApiTokenType
  environment: string
  projects: string[]
  expiresAt?: Date | null
  initVariable?: InitVariable
}

/**
 * Unleash's apiTokenSchema. Only hashes are stored, so `secret` is the full secret when the
 * caller just created it and the display form (`project:env.abcd…`) otherwise.
 */
export function toApiToken(row: ApiTokenRow, secret?: string) {
  return {
    id: row.id,
    secret: secret ?? row.display,
    tokenName: row.token_name,
    username: row.token_name,
    type: row.type,
    environment: row.environment,
    project: row.projects.length === 1 ? row.projects[0] : '[]',
    projects: row.projects,
    expiresAt: iso(row.expires_at),
    createdAt: iso(row.created_at),
    seenAt: iso(row.seen_at),
    alias: null,
  }
}

export function listApiTokens(q: Queryable): Promise<ApiTokenRow[]> {
  return q.query<ApiTokenRow>('SELECT * FROM api_tokens ORDER BY id')
}

export async function findApiTokenBySecret(q: Queryable, secret: string): Promise<ApiTokenRow | undefined> {
  return (await q.query<ApiTokenRow>('SELECT * FROM api_tokens WHERE secret_hash = $1', [hashSecret(secret)]))[0]
}

/** The tokens among `secrets` (one query, however many), by secret. */
export async function findApiTokensBySecrets(
  q: Queryable,
  secrets: readonly string[],
): Promise<Map<string, ApiTokenRow>> {
  const bySecretHash = new Map(secrets.map((secret) => [hashSecret(secret), secret]))
  const rows = await q.query<ApiTokenRow & { secret_hash: string }>(
    'SELECT * FROM api_tokens WHERE secret_hash = ANY($1)',
    [[...bySecretHash.keys()]],
  )
  return new Map(rows.map((row) => [bySecretHash.get(row.secret_hash) as string, row]))
}

/** The largest `serial` id: a larger one names no token (and would be a range error in SQL). */
const MAX_ID = 2_147_483_647

export async function getApiToken(q: Queryable, id: number): Promise<ApiTokenRow | undefined> {
  if (!Number.isSafeInteger(id) || id < 0 || id > MAX_ID) return undefined
  return (await q.query<ApiTokenRow>('SELECT * FROM api_tokens WHERE id = $1', [id]))[0]
}

/**
 * Inserts the token unless one with the same secret exists (left as it is, also its origin);
 * returns the row either way.
 */
export async function insertApiToken(q: Queryable, input: ApiTokenInput, now: Date): Promise<ApiTokenRow> {
  await q.query(
    `INSERT INTO api_tokens (secret_hash, display, token_name, type, environment, projects, expires_at, created_at, init_variable)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (secret_hash) DO NOTHING`,
    [
      hashSecret(input.secret),
      displayToken(input.secret),
      input.tokenName,
      input.type,
      input.environment,
      input.projects,
      input.expiresAt ?? null,
      now,
      input.initVariable ?? null,
    ],
  )
  return (await findApiTokenBySecret(q, input.secret)) as ApiTokenRow
}

/** Deletes the tokens inserted from INIT_* whose secret is no longer listed; returns them. */
export function deleteUnlistedInitTokens(q: Queryable, listedSecrets: readonly string[]): Promise<ApiTokenRow[]> {
  return q.query<ApiTokenRow>(
    'DELETE FROM api_tokens WHERE init_variable IS NOT NULL AND NOT (secret_hash = ANY($1::text[])) RETURNING *',
    [listedSecrets.map(hashSecret)],
  )
}

export async function updateApiTokenExpiry(q: Queryable, id: number, expiresAt: Date): Promise<void> {
  await q.query('UPDATE api_tokens SET expires_at = $2 WHERE id = $1', [id, expiresAt])
}

export async function deleteApiToken(q: Queryable, id: number): Promise<void> {
  await q.query('DELETE FROM api_tokens WHERE id = $1', [id])
}

/**
 * Marks the tokens with these secret hashes seen at `now` (never moving `seen_at` back): a proxy
 * reports the tokens it served with its metrics. Admin tokens are never served by a proxy.
 */
export async function markApiTokensSeenByHash(q: Queryable, hashes: readonly string[], now: Date): Promise<void> {
  if (hashes.length === 0) return
  await q.query(
    `UPDATE api_tokens SET seen_at = GREATEST(seen_at, $2) WHERE secret_hash = ANY($1::text[]) AND type <> 'admin'`,
    [hashes, now],
  )
}

export async function markApiTokenSeen(q: Queryable, id: number, now: Date): Promise<void> {
  await q.query('UPDATE api_tokens SET seen_at = $2 WHERE id = $1', [id, now])
}
