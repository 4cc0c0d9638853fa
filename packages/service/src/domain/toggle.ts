import { badData } from '../errors.js'
import { getEnvironment } from '../store/environments.js'
import { recordLifecycle, setEnabled, type FeatureRow } from '../store/features.js'
import { insertStrategy, listStrategies, setStrategyDisabled, toStrategy } from '../store/strategies.js'
import { type Change, recordEvent } from './change.js'
import { projectDefaultStrategy } from './default-strategies.js'
import { requireFeature, requireProject, requireProjectEnvironment } from './lookups.js'
import { completeStrategy } from './strategy-defaults.js'

interface ToggleInput {
  project: string
  environment: string
  enabled: boolean
  /** Turn the flag's disabled strategies in the environment back on (Unleash's `shouldActivateDisabledStrategies`). */
  activateDisabled?: boolean
}

/** One flag on or off in one environment of its project (the admin route and the action runner). */
export async function setFlagEnabled(change: Change, input: ToggleInput & { feature: string }): Promise<void> {
  const feature = await requireFeature(change.tx, input.project, input.feature, { lock: true })
  await requireProjectEnvironment(change.tx, input.project, input.environment)
  await toggleFeature(change, feature, input.environment, input.enabled, input.activateDisabled)
}

/** Several flags of one project on or off in one environment, all or none. */
export async function setFlagsEnabled(change: Change, input: ToggleInput & { features: string[] }): Promise<void> {
  await requireProjectEnvironment(change.tx, input.project, input.environment)
  for (const name of input.features) {
    const feature = await requireFeature(change.tx, input.project, name, { lock: true })
    await toggleFeature(change, feature, input.environment, input.enabled, input.activateDisabled)
  }
}

/** What an action does: a toggle of a flag in the action set's own project only (Unleash #5982). */
export async function runToggleAction(
  change: Change,
  setProject: string,
  input: ToggleInput & { feature: string },
): Promise<void> {
  if (input.project !== setProject)
    throw badData(`The action's project "${input.project}" is not the action set's project "${setProject}".`)
  await setFlagEnabled(change, input)
}

/**
 * Enables or disables a flag in one environment, as Unleash does: enabling a flag that has no
 * strategy there adds the project's default strategy for the environment (default-strategies.ts),
 * filled in as any added strategy is (groupId = the flag's name when empty); `activateDisabled`
 * turns disabled strategies back on, and an event is written only when the state changes.
 */
async function toggleFeature(
  change: Change,
  feature: FeatureRow,
  environment: string,
  enabled: boolean,
  activateDisabled = false,
): Promise<void> {
  const { tx, actor, clock } = change
  const where = { project: feature.project, featureName: feature.name, environment }
  if (enabled) {
    const strategies = await listStrategies(tx, feature.name, environment)
    if (strategies.length === 0) {
      const project = await requireProject(tx, feature.project)
      const body = completeStrategy(
        await projectDefaultStrategy(tx, project, environment),
        feature.name,
        project.default_stickiness,
      )
      const strategy = await insertStrategy(
        tx,
        { feature: feature.name, project: feature.project, environment },
        body,
        clock(),
        actor.userId,
      )
      await recordEvent(change, { type: 'feature-strategy-add', ...where, data: toStrategy(strategy) })
    } else if (activateDisabled) {
      for (const strategy of strategies.filter((s) => s.disabled)) {
        const after = await setStrategyDisabled(tx, strategy.id, false)
        await recordEvent(change, {
          type: 'feature-strategy-update',
          ...where,
          data: toStrategy(after),
          preData: toStrategy(strategy),
        })
      }
    }
  }
  const before = await setEnabled(tx, feature.name, environment, enabled)
  if (before === enabled) return
  await recordEvent(change, {
    type: enabled ? 'feature-environment-enabled' : 'feature-environment-disabled',
    ...where,
    data: { enabled },
    preData: { enabled: before },
  })
  if (enabled) {
    const type = (await getEnvironment(tx, environment))?.type
    await recordLifecycle(tx, feature.name, type === 'production' ? 'live' : 'pre-live', clock())
  }
}
