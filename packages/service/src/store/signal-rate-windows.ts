import type { Queryable } from '../db/database.js'

/** An endpoint's rate-limit window after a request was counted in it. */
interface RateWindow {
  started_at: Date
  /** Requests counted in the window, this one included (refused ones too). */
  count: number
}

/**
 * Counts one request at `now` against the endpoint's window, in one atomic upsert (the row lock
 * orders racing instances): the window goes on while `now` is less than `windowMs` from its start,
 * either way (instances' clocks differ a little); otherwise `now` opens a new one.
 */
export async function countInRateWindow(
  q: Queryable,
  endpointId: number,
  now: Date,
  windowMs: number,
): Promise<RateWindow> {
  const [row] = await q.query<RateWindow>(
    `INSERT INTO signal_rate_windows AS w (endpoint_id, started_at, count) VALUES ($1, $2, 1)
     ON CONFLICT (endpoint_id) DO UPDATE SET
       started_at = CASE WHEN abs(extract(epoch FROM EXCLUDED.started_at - w.started_at)) * 1000 < $3 THEN w.started_at ELSE EXCLUDED.started_at END,
       count = CASE WHEN abs(extract(epoch FROM EXCLUDED.started_at - w.started_at)) * 1000 < $3 THEN w.count + 1 ELSE 1 END
     RETURNING started_at, count`,
    [endpointId, now, windowMs],
  )
  return row as RateWindow
}
