import type { Queryable } from '../db/database.js'
import { iso, json } from './rows.js'

interface SignalRow {
  id: number
  source: string
  source_id: number
  payload: unknown
  created_at: Date
  created_by_source_token_id: number | null
  announced: boolean
  /** Times the action runner's handling of it failed as a whole. */
  attempts: number
  /** Why the runner gave up on it, after its last attempt. */
  failure: string | null
  token_name: string | null
  source_name?: string
  source_description?: string | null
}

interface SignalQuery {
  /** Inclusive lower bound. */
  from?: Date | undefined
  /** Exclusive upper bound. */
  to?: Date | undefined
  limit: number
  offset: number
}

/** A signal as one endpoint's listing shows it (Unleash: `tokenName`, a join on the token). */
export function toEndpointSignal(row: SignalRow) {
  return {
    id: row.id,
    source: row.source,
    sourceId: row.source_id,
    createdAt: iso(row.created_at),
    payload: row.payload,
    tokenName: row.token_name,
  }
}

/** A signal as `/api/admin/signals` shows it: with its endpoint's name and description. */
export function toSignal(row: SignalRow) {
  return {
    ...toEndpointSignal(row),
    createdBySourceTokenId: row.created_by_source_token_id,
    sourceName: row.source_name ?? null,
    sourceDescription: row.source_description ?? null,
  }
}

const SELECT = `SELECT s.*, t.name AS token_name, e.name AS source_name, e.description AS source_description
  FROM signals s JOIN signal_endpoints e ON e.id = s.source_id
  LEFT JOIN signal_endpoint_tokens t ON t.id = s.created_by_source_token_id`

/** Queues a signal for the action runner (`announced = false`). */
export async function insertSignal(
  q: Queryable,
  input: { endpointId: number; tokenId: number; payload: unknown },
  now: Date,
): Promise<SignalRow> {
  const [row] = await q.query<SignalRow>(
    `INSERT INTO signals (source, source_id, payload, created_at, created_by_source_token_id) VALUES ('signal-endpoint', $1, $2, $3, $4) RETURNING *`,
    [input.endpointId, json(input.payload), now, input.tokenId],
  )
  return row as SignalRow
}

/** One endpoint's signals, newest first. */
export function listEndpointSignals(
  q: Queryable,
  endpointId: number,
  limit: number,
  offset: number,
): Promise<SignalRow[]> {
  return q.query<SignalRow>(`${SELECT} WHERE s.source_id = $1 ORDER BY s.id DESC LIMIT $2 OFFSET $3`, [
    endpointId,
    limit,
    offset,
  ])
}

/** Signals of every endpoint received in [from, to), newest first, with the total count. */
export async function searchSignals(q: Queryable, query: SignalQuery): Promise<{ rows: SignalRow[]; total: number }> {
  const where =
    'WHERE ($1::timestamptz IS NULL OR s.created_at >= $1) AND ($2::timestamptz IS NULL OR s.created_at < $2)'
  const range = [query.from ?? null, query.to ?? null]
  const rows = await q.query<SignalRow>(`${SELECT} ${where} ORDER BY s.id DESC LIMIT $3 OFFSET $4`, [
    ...range,
    query.limit,
    query.offset,
  ])
  const [count] = await q.query<{ total: number }>(`SELECT count(*)::int AS total FROM signals s ${where}`, range)
  return { rows, total: count?.total ?? 0 }
}

/**
 * Claims the oldest unprocessed signal for the rest of the transaction. `SKIP LOCKED`: a signal
 * another runner holds is passed over, never run twice.
 */
export async function claimNextSignal(tx: Queryable): Promise<SignalRow | undefined> {
  const [claimed] = await tx.query<SignalRow>(
    'SELECT * FROM signals WHERE announced = false ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED',
  )
  if (!claimed) return undefined
  const [token] = await tx.query<{ name: string }>('SELECT name FROM signal_endpoint_tokens WHERE id = $1', [
    claimed.created_by_source_token_id,
  ])
  return { ...claimed, token_name: token?.name ?? null }
}

export async function markSignalAnnounced(q: Queryable, id: number): Promise<void> {
  await q.query('UPDATE signals SET announced = true WHERE id = $1', [id])
}

/**
 * Counts a failed attempt at handling a signal; at `maxAttempts` the signal is announced (left
 * out of the queue) with `failure` kept. Returns whether it was given up on.
 */
export async function recordSignalFailure(
  q: Queryable,
  id: number,
  failure: string,
  maxAttempts: number,
): Promise<boolean> {
  const [row] = await q.query<{ announced: boolean }>(
    `UPDATE signals SET attempts = attempts + 1, announced = attempts + 1 >= $3, failure = CASE WHEN attempts + 1 >= $3 THEN $2 ELSE failure END
     WHERE id = $1 RETURNING announced`,
    [id, failure.slice(0, 2_000), maxAttempts],
  )
  return row?.announced ?? false
}
