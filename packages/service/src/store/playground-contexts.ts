import { createHash } from 'node:crypto'
import type { Database } from '../db/database.js'
import { iso } from './rows.js'

/** How many recent contexts are kept: the playground offers these to pick from. */
const RECENT_CONTEXTS = 20

/** A context as the playground lists it. */
export interface RecentContext {
  context: Record<string, unknown>
  lastUsedAt: string
}

/**
 * Records that the playground evaluated `context`: a context seen before (the same JSON, keys in
 * any order) moves to the top instead of adding a row; past RECENT_CONTEXTS, the oldest go.
 */
export async function rememberContext(db: Database, context: Record<string, unknown>, now: Date): Promise<void> {
  const text = canonicalJson(context)
  const key = createHash('sha256').update(text, 'utf8').digest('hex')
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO playground_contexts (key, context, last_used_at) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO UPDATE SET last_used_at = EXCLUDED.last_used_at, used = nextval('playground_context_use')`,
      [key, text, now],
    )
    await tx.query(
      `DELETE FROM playground_contexts WHERE used < (
         SELECT min(used) FROM (SELECT used FROM playground_contexts ORDER BY used DESC LIMIT $1) AS kept)`,
      [RECENT_CONTEXTS],
    )
  })
}

/** The recent contexts, newest first. */
export async function recentContexts(db: Database): Promise<RecentContext[]> {
  const rows = await db.query<{ context: string; last_used_at: Date }>(
    'SELECT context, last_used_at FROM playground_contexts ORDER BY used DESC LIMIT $1',
    [RECENT_CONTEXTS],
  )
  return rows.map((row) => ({
    context: JSON.parse(row.context) as Record<string, unknown>,
    lastUsedAt: iso(row.last_used_at) as string,
  }))
}

/**
 * JSON with every object's keys sorted, so two spellings of one context are one text. Written
 * directly, not through a sorted copy: a `__proto__` key stays an ordinary key.
 */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>
    const entries = Object.keys(record)
      .sort()
      .filter((key) => record[key] !== undefined)
    return `{${entries.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
