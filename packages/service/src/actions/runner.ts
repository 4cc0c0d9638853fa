import type { Clock } from '../service-context.js'
import type { Database, Queryable } from '../db/database.js'
import type { Logger } from '../logger.js'
import { actionsOf, enabledActionSetsFor } from '../store/action-sets.js'
import { claimNextSignal, markSignalAnnounced, recordSignalFailure, toEndpointSignal } from '../store/signals.js'
import { createCompiledFilters } from './compiled-filters.js'
import { runActionSet } from './execute.js'

export interface ActionRunnerOptions {
  db: Database
  logger: Logger
  clock: Clock
  /** Time between sweeps of the queue, in ms (the wake after an insert is the fast path). */
  sweepIntervalMs: number
  /** Signals handled per cycle before the runner yields; Unleash's docs say 10. */
  signalsPerCycle?: number
  /** Attempts at a signal whose handling fails as a whole before it is given up on (default 3). */
  maxAttempts?: number
}

export interface ActionRunner {
  /** Asks for a cycle now (after a signal was stored); a cycle under way runs once more. */
  wake(): void
  /** Stops the sweep, lets the cycle in flight finish, then runs no more queries. */
  close(): Promise<void>
}

type Outcome = 'handled' | 'empty' | 'busy' | 'failed'

/**
 * Runs action sets on queued signals (`signals.announced = false`): at startup, on `wake()`
 * and every `sweepIntervalMs`. Each signal is one transaction: it takes a transaction-scoped
 * advisory lock (one runner at a time across service instances, so signals run in arrival
 * order), claims the oldest signal `FOR UPDATE SKIP LOCKED` (never twice), runs each matching
 * enabled action set once (its filters compiled once per version of the set: compiled-filters.ts),
 * and marks the signal announced. Its flag changes, their events and the run records commit
 * together, or not at all and the signal is retried at the next cycle,
 * up to `maxAttempts` times; then it is announced with the failure recorded on it, so one signal
 * that cannot be handled neither blocks the queue nor vanishes unexplained.
 */
export function createActionRunner(options: ActionRunnerOptions): ActionRunner {
  const { db, logger } = options
  const perCycle = options.signalsPerCycle ?? 10
  const maxAttempts = options.maxAttempts ?? 3
  const filters = createCompiledFilters()
  let closed = false
  let again = false
  let running: Promise<void> | undefined

  async function loop(): Promise<void> {
    do {
      again = false
      let outcome: Outcome = 'handled'
      for (let i = 0; i < perCycle && outcome === 'handled' && !closed; i++) outcome = await handleNext()
      // A full cycle means more may be waiting; anything else waits for a wake or the sweep.
      if (outcome === 'handled') again = true
    } while (again && !closed)
  }

  async function handleNext(): Promise<Outcome> {
    let claimed: number | undefined
    try {
      return await db.transaction(async (tx) => {
        const [lock] = await tx.query<{ locked: boolean }>(
          'SELECT pg_try_advisory_xact_lock(6, hashtext($1)) AS locked',
          ['signal-action-runner'],
        )
        if (!lock?.locked) return 'busy'
        const signal = await claimNextSignal(tx)
        if (!signal) return 'empty'
        claimed = signal.id
        await runMatchingSets(tx, toEndpointSignal(signal))
        await markSignalAnnounced(tx, signal.id)
        return 'handled'
      })
    } catch (error) {
      logger.error(
        `signal actions: handling signal ${claimed ?? '(none claimed)'} failed`,
        error instanceof Error ? error.stack : error,
      )
      if (claimed !== undefined && !closed) {
        const reason = error instanceof Error ? error.message : String(error)
        const gaveUp = await recordSignalFailure(db, claimed, reason, maxAttempts).catch(() => false)
        if (gaveUp)
          logger.error(`signal actions: gave up on signal ${claimed} after ${maxAttempts} attempts: ${reason}`)
      }
      return 'failed'
    }
  }

  async function runMatchingSets(tx: Queryable, signal: ReturnType<typeof toEndpointSignal>): Promise<void> {
    const sets = await enabledActionSetsFor(tx, signal.sourceId)
    const actions = await actionsOf(
      tx,
      sets.map((set) => set.id),
    )
    for (const set of sets) {
      if (!filters.testFor(set)(signal.payload)) continue
      await runActionSet(tx, options, set, actions.get(set.id) ?? [], signal)
    }
  }

  function wake(): void {
    if (closed) return
    if (running) {
      again = true
      return
    }
    running = loop().finally(() => {
      running = undefined
    })
  }

  const timer = setInterval(wake, options.sweepIntervalMs)
  timer.unref()
  wake()

  return {
    wake,
    async close() {
      closed = true
      clearInterval(timer)
      await running
    },
  }
}
