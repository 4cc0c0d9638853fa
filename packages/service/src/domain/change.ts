import type { Actor, Clock } from '../service-context.js'
import type { Queryable } from '../db/database.js'
import { type EventInput, writeEvent } from '../events.js'

/**
 * What every domain operation takes first: the transaction it runs in, who makes the change
 * (written to the event log) and "now". A route builds one per request (routes/http.ts), the
 * action runner per action, the demo seed once.
 */
export interface Change {
  tx: Queryable
  actor: Actor
  clock: Clock
}

/** Appends the change's event-log row in the change's transaction (committed with it or not at all). */
export function recordEvent(change: Change, event: EventInput): Promise<void> {
  return writeEvent(change.tx, change.actor, change.clock, event)
}
