import type { Queryable } from '../db/database.js'
import { runActor } from '../domain/service-account.js'
import { runToggleAction } from '../domain/toggle.js'
import { badData, isServiceError } from '../errors.js'
import type { Logger } from '../logger.js'
import type { Clock } from '../service-context.js'
import { insertActionSetEvent } from '../store/action-set-events.js'
import { type ActionRow, type ActionSetRow, toAction, toActionSet } from '../store/action-sets.js'

/** An action's state in a recorded run (Unleash's vocabulary). */
type ActionState = 'not started' | 'started' | 'success' | 'failed'

interface RunContext {
  clock: Clock
  logger: Logger
}

/**
 * Runs one action set for one signal inside the runner's transaction: its actions in order,
 * each behind a savepoint so a failing one undoes only itself, stopping at the first failure;
 * then records the run with the signal and the set as they were and each action's state.
 */
export async function runActionSet(
  tx: Queryable,
  run: RunContext,
  set: ActionSetRow,
  actions: ActionRow[],
  signal: { id: number; sourceId: number },
): Promise<void> {
  const signalId = signal.id
  const states: (ReturnType<typeof toAction> & { state: ActionState; details?: string })[] = actions.map((row) => ({
    ...toAction(row),
    state: 'not started',
  }))
  const actor = await runActor(tx, set, { signalId, signalEndpointId: signal.sourceId })
  for (const [i, entry] of states.entries()) {
    entry.state = 'started'
    await tx.query('SAVEPOINT vexil_action')
    try {
      if (typeof actor === 'string') throw badData(actor)
      const { action, execution_params: params } = actions[i] as ActionRow
      await runToggleAction({ tx, actor, clock: run.clock }, set.project, {
        project: params.project,
        feature: params.featureName,
        environment: params.environment,
        enabled: action === 'TOGGLE_FEATURE_ON',
      })
      await tx.query('RELEASE SAVEPOINT vexil_action')
      entry.state = 'success'
    } catch (error) {
      await tx.query('ROLLBACK TO SAVEPOINT vexil_action')
      entry.state = 'failed'
      entry.details = reason(error, run.logger)
      break
    }
  }
  await insertActionSetEvent(
    tx,
    {
      actionSetId: set.id,
      signalId,
      state: states.some((entry) => entry.state === 'failed') ? 'failed' : 'success',
      signal,
      actionSet: { ...toActionSet(set, []), actions: states },
    },
    run.clock(),
  )
}

// --- Internal helpers ---

/** A failure's reason for the record; anything that is not a service error is logged with its stack. */
function reason(error: unknown, logger: Logger): string {
  if (isServiceError(error)) return error.message
  logger.error('an action failed unexpectedly', error instanceof Error ? error.stack : error)
  return error instanceof Error ? error.message : String(error)
}
