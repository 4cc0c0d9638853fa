import type { Queryable } from '../db/database.js'
import { exceedsLimit } from '../errors.js'

/**
 * Throws 400 `ExceedsLimitError` when `count()` has reached `limit`. An advisory lock on
 * `scope` (two-key form, apart from the migrations' lock) makes racing creations in other
 * transactions wait, so they never pass the limit together. Call it inside the transaction
 * that creates the resource.
 */
export async function enforceLimit(
  q: Queryable,
  options: { scope: string; resource: string; limit: number; count: () => Promise<number> },
): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock(6, hashtext($1))', [options.scope])
  if ((await options.count()) >= options.limit) throw exceedsLimit(options.resource, options.limit)
}
