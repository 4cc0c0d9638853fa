import type { Actor, Clock } from '../context.js'
import type { Queryable } from '../db/database.js'
import { defaultStrategy } from './strategy-defaults.js'
import { writeEvent } from '../events.js'
import { getEnvironment } from '../store/environments.js'
import { recordLifecycle, setEnabled, type FeatureRow } from '../store/features.js'
import { getProject } from '../store/projects.js'
import { insertStrategy, listStrategies, setStrategyDisabled, toStrategy } from '../store/strategies.js'

/**
 * Enables or disables a flag in one environment, as Unleash does: enabling a flag that has no
 * strategy there adds the default one (flexibleRollout 100%), `activateDisabled` turns disabled
 * strategies back on, and an event is written only when the state changes.
 */
export async function toggleFeature(
  tx: Queryable,
  actor: Actor,
  clock: Clock,
  feature: FeatureRow,
  environment: string,
  enabled: boolean,
  activateDisabled = false,
): Promise<void> {
  if (enabled) {
    const strategies = await listStrategies(tx, feature.name, environment)
    if (strategies.length === 0) {
      const project = await getProject(tx, feature.project)
      const strategy = await insertStrategy(
        tx,
        { feature: feature.name, project: feature.project, environment },
        defaultStrategy(feature.name, project?.default_stickiness ?? 'default'),
        clock(),
        actor.userId,
      )
      await writeEvent(tx, actor, clock, { type: 'feature-strategy-add', project: feature.project, featureName: feature.name, environment, data: toStrategy(strategy) })
    } else if (activateDisabled) {
      for (const strategy of strategies.filter((s) => s.disabled)) {
        const after = await setStrategyDisabled(tx, strategy.id, false)
        await writeEvent(tx, actor, clock, { type: 'feature-strategy-update', project: feature.project, featureName: feature.name, environment, data: toStrategy(after), preData: toStrategy(strategy) })
      }
    }
  }
  const before = await setEnabled(tx, feature.name, environment, enabled)
  if (before === enabled) return
  await writeEvent(tx, actor, clock, {
    type: enabled ? 'feature-environment-enabled' : 'feature-environment-disabled',
    project: feature.project,
    featureName: feature.name,
    environment,
    data: { enabled },
    preData: { enabled: before },
  })
  if (enabled) {
    const type = (await getEnvironment(tx, environment))?.type
    await recordLifecycle(tx, feature.name, type === 'production' ? 'live' : 'pre-live', clock())
  }
}
