import type { ServiceConfig } from './config.js'
import type { Database } from './db/database.js'
import type { Logger } from './logger.js'

/** Returns "now"; injected so tests (and insights) control time. */
export type Clock = () => Date

/** Who made a change, as written to the event log. */
export interface Actor {
  name: string
  userId?: number
  /** For an action run: the action set that ran and the signal (and its endpoint) that triggered it. */
  origin?: EventOrigin
}

/** What made a change no person or token made: an action set's run on a signal. */
export interface EventOrigin {
  actionSetId: number
  signalId: number
  signalEndpointId: number
}

/** What every route handler gets: injected once by `createServiceApp`, never reached for. */
export interface ServiceContext {
  db: Database
  config: ServiceConfig
  logger: Logger
  clock: Clock
}
