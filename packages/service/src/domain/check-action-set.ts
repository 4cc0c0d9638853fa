import type { Queryable } from '../db/database.js'
import { badData, exceedsLimit, notFound } from '../errors.js'
import type { ActionSetBody } from '../schemas/action-set.js'
import type { SignalConfig } from '../signal-config.js'
import type { ActionSetInput } from '../store/action-sets.js'
import { getSignalEndpoint } from '../store/signal-endpoints.js'
import { requireFeature, requireProjectEnvironment } from './lookups.js'
import { defaultActorId, isServiceAccount, requireServiceAccount } from './service-account.js'

/**
 * What a valid body still needs before it is saved: the filter, value and action limits
 * (400 ExceedsLimitError), the endpoint, flags and environments it names (404), actions only
 * in the set's own project (400), and its actor: a service account; when none is named, the
 * set's current one while it lives, else `signal-actions`.
 */
export async function checkActionSet(
  tx: Queryable,
  project: string,
  body: ActionSetBody,
  options: { limits: SignalConfig; now: Date; currentActorId?: number },
): Promise<ActionSetInput> {
  const { limits } = options
  const filters = Object.values(body.match.payload)
  if (filters.length > limits.filtersPerActionSetLimit)
    throw exceedsLimit('action set filters', limits.filtersPerActionSetLimit)
  if (filters.some((filter) => (filter.values?.length ?? 0) > limits.valuesPerFilterLimit))
    throw exceedsLimit('action set filter values', limits.valuesPerFilterLimit)
  if (body.actions.length > limits.actionsPerActionSetLimit)
    throw exceedsLimit('action set actions', limits.actionsPerActionSetLimit)
  if (!(await getSignalEndpoint(tx, body.match.sourceId))) throw notFound(`Signal endpoint ${body.match.sourceId}`)
  for (const [i, { executionParams: params }] of body.actions.entries()) {
    if (params.project !== project)
      throw badData(
        `body.actions.${i}.executionParams.project must be the action set's project "${project}", got "${params.project}".`,
      )
    await requireFeature(tx, project, params.featureName)
    await requireProjectEnvironment(tx, project, params.environment)
  }
  if (body.actorId !== undefined) await requireServiceAccount(tx, body.actorId)
  const keep =
    options.currentActorId !== undefined && (await isServiceAccount(tx, options.currentActorId))
      ? options.currentActorId
      : undefined
  return {
    name: body.name,
    description: body.description,
    enabled: body.enabled,
    actorId: body.actorId ?? keep ?? (await defaultActorId(tx, options.now)),
    sourceId: body.match.sourceId,
    filters: body.match.payload,
    actions: body.actions,
  }
}
