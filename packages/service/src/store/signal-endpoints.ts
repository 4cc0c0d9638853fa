import type { Queryable } from '../db/database.js'
import { hashSecret } from '../token-secrets.js'
import { iso } from './rows.js'

export interface SignalEndpointRow {
  id: number
  name: string
  description: string | null
  enabled: boolean
  created_at: Date
  created_by_user_id: number | null
}

export interface SignalTokenRow {
  id: number
  signal_endpoint_id: number
  name: string
  token_hash: string
  created_at: Date
  created_by_user_id: number | null
}

export interface SignalEndpointInput {
  name: string
  description?: string | null | undefined
  enabled?: boolean | undefined
}

/** Unleash's signalEndpointTokenSchema: never the hash; the secret only in the creating response. */
export function toSignalToken(row: SignalTokenRow, secret?: string) {
  return {
    id: row.id,
    name: row.name,
    signalEndpointId: row.signal_endpoint_id,
    createdAt: iso(row.created_at),
    createdByUserId: row.created_by_user_id,
    ...(secret ? { token: secret } : {}),
  }
}

/** Unleash's signalEndpointSchema; `url` (the ingest address) on create and update. */
export function toSignalEndpoint(row: SignalEndpointRow, tokens: SignalTokenRow[], url?: string) {
  return {
    id: row.id,
    enabled: row.enabled,
    name: row.name,
    description: row.description,
    createdAt: iso(row.created_at),
    createdByUserId: row.created_by_user_id,
    tokens: tokens.map((token) => toSignalToken(token)),
    ...(url ? { url } : {}),
  }
}

export function listSignalEndpoints(q: Queryable): Promise<SignalEndpointRow[]> {
  return q.query<SignalEndpointRow>('SELECT * FROM signal_endpoints ORDER BY id')
}

export async function getSignalEndpoint(q: Queryable, id: number): Promise<SignalEndpointRow | undefined> {
  return (await q.query<SignalEndpointRow>('SELECT * FROM signal_endpoints WHERE id = $1', [id]))[0]
}

/** Only enabled endpoints take signals: a disabled one answers like an unknown one. */
export async function findEnabledSignalEndpoint(q: Queryable, name: string): Promise<SignalEndpointRow | undefined> {
  return (await q.query<SignalEndpointRow>('SELECT * FROM signal_endpoints WHERE name = $1 AND enabled', [name]))[0]
}

export async function countSignalEndpoints(q: Queryable): Promise<number> {
  return (await q.query<{ n: number }>('SELECT count(*)::int AS n FROM signal_endpoints'))[0]?.n ?? 0
}

export async function signalEndpointNameTaken(q: Queryable, name: string, exceptId = -1): Promise<boolean> {
  return (await q.query('SELECT 1 FROM signal_endpoints WHERE name = $1 AND id <> $2', [name, exceptId])).length > 0
}

export async function insertSignalEndpoint(
  q: Queryable,
  input: SignalEndpointInput,
  now: Date,
  userId?: number,
): Promise<SignalEndpointRow> {
  const [row] = await q.query<SignalEndpointRow>(
    `INSERT INTO signal_endpoints (name, description, enabled, created_at, created_by_user_id) VALUES ($1, $2, $3, $4, $5) RETURNING *`,
    [input.name, input.description ?? null, input.enabled ?? true, now, userId ?? null],
  )
  return row as SignalEndpointRow
}

/** Replaces name and description; `enabled` only when given. */
export async function updateSignalEndpoint(
  q: Queryable,
  id: number,
  input: SignalEndpointInput,
): Promise<SignalEndpointRow> {
  const [row] = await q.query<SignalEndpointRow>(
    `UPDATE signal_endpoints SET name = $2, description = $3, enabled = COALESCE($4, enabled) WHERE id = $1 RETURNING *`,
    [id, input.name, input.description ?? null, input.enabled ?? null],
  )
  return row as SignalEndpointRow
}

export async function deleteSignalEndpoint(q: Queryable, id: number): Promise<void> {
  await q.query('DELETE FROM signal_endpoints WHERE id = $1', [id])
}

/** Tokens of the given endpoints (all when `endpointIds` is omitted), oldest first. */
export function listSignalTokens(q: Queryable, endpointIds?: number[]): Promise<SignalTokenRow[]> {
  return q.query<SignalTokenRow>(
    'SELECT * FROM signal_endpoint_tokens WHERE $1::int[] IS NULL OR signal_endpoint_id = ANY($1) ORDER BY id',
    [endpointIds ?? null],
  )
}

export async function getSignalToken(
  q: Queryable,
  endpointId: number,
  id: number,
): Promise<SignalTokenRow | undefined> {
  return (
    await q.query<SignalTokenRow>('SELECT * FROM signal_endpoint_tokens WHERE signal_endpoint_id = $1 AND id = $2', [
      endpointId,
      id,
    ])
  )[0]
}

export async function countSignalTokens(q: Queryable, endpointId: number): Promise<number> {
  return (
    (
      await q.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM signal_endpoint_tokens WHERE signal_endpoint_id = $1',
        [endpointId],
      )
    )[0]?.n ?? 0
  )
}

export async function insertSignalToken(
  q: Queryable,
  input: { endpointId: number; name: string; secret: string },
  now: Date,
  userId?: number,
): Promise<SignalTokenRow> {
  const [row] = await q.query<SignalTokenRow>(
    `INSERT INTO signal_endpoint_tokens (signal_endpoint_id, name, token_hash, created_at, created_by_user_id) VALUES ($1, $2, $3, $4, $5) RETURNING *`,
    [input.endpointId, input.name, hashSecret(input.secret), now, userId ?? null],
  )
  return row as SignalTokenRow
}

export async function renameSignalToken(q: Queryable, id: number, name: string): Promise<SignalTokenRow> {
  const [row] = await q.query<SignalTokenRow>('UPDATE signal_endpoint_tokens SET name = $2 WHERE id = $1 RETURNING *', [
    id,
    name,
  ])
  return row as SignalTokenRow
}

export async function deleteSignalToken(q: Queryable, id: number): Promise<void> {
  await q.query('DELETE FROM signal_endpoint_tokens WHERE id = $1', [id])
}
