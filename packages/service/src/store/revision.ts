import type { Queryable } from '../db/database.js'

/**
 * The revision of everything the client API serves: bumped at the commit of every event-log row,
 * in commit order (migration 008). Equal revisions mean equal configuration, whichever instance
 * made the changes.
 */
export async function readRevision(q: Queryable): Promise<number> {
  const [row] = await q.query<{ value: number }>('SELECT value FROM revision')
  return row?.value ?? 0
}
