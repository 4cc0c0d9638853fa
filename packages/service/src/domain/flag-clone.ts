import type { StrategyBody } from '../schemas/strategy.js'
import {
  featureEnvironments,
  type FeatureRow,
  insertFeature,
  setEnvironmentVariants,
  toFeature,
} from '../store/features.js'
import { insertStrategy, listStrategies, toStrategy } from '../store/strategies.js'
import { type Change, recordEvent } from './change.js'
import { refuseTakenName } from './flags.js'
import { requireFeature } from './lookups.js'

interface CloneInput {
  project: string
  /** The flag copied. */
  source: string
  /** The new flag's name. */
  name: string
  /** Replace `groupId` parameters by the new name (Unleash's default). */
  replaceGroupId: boolean
}

/**
 * Unleash's clone: a new flag with the source's metadata, strategies and variants in every
 * environment, disabled everywhere.
 */
export async function cloneFlag(change: Change, input: CloneInput): Promise<FeatureRow> {
  const { tx, actor, clock } = change
  const { project, name } = input
  const source = await requireFeature(tx, project, input.source)
  await refuseTakenName(tx, name)
  const clone = await insertFeature(
    tx,
    project,
    { name, type: source.type, description: source.description, impressionData: source.impression_data },
    clock(),
    actor.userId,
  )
  await recordEvent(change, {
    type: 'feature-created',
    project,
    featureName: name,
    data: { ...toFeature(clone), clonedFrom: source.name },
  })
  for (const environment of await featureEnvironments(tx, source.name)) {
    if (environment.variants.length > 0) await setEnvironmentVariants(tx, name, environment.name, environment.variants)
  }
  for (const strategy of await listStrategies(tx, source.name)) {
    const parameters = { ...strategy.parameters }
    if (input.replaceGroupId && 'groupId' in parameters) parameters.groupId = name
    // Stored rows were validated when written, so they are StrategyBody-shaped.
    const copy: StrategyBody = {
      name: strategy.strategy_name,
      title: strategy.title,
      disabled: strategy.disabled,
      sortOrder: strategy.sort_order,
      parameters,
      constraints: strategy.constraints as StrategyBody['constraints'],
      variants: strategy.variants as StrategyBody['variants'],
      segments: strategy.segments,
    }
    const inserted = await insertStrategy(
      tx,
      { feature: name, project, environment: strategy.environment },
      copy,
      clock(),
      actor.userId,
    )
    await recordEvent(change, {
      type: 'feature-strategy-add',
      project,
      featureName: name,
      environment: strategy.environment,
      data: toStrategy(inserted),
    })
  }
  return clone
}
