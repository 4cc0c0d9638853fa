import type { StrategyBody } from '../schemas/strategy.js'
import { fixVariantWeights } from './variant-weights.js'

/**
 * What Unleash fills in when a strategy is stored: a flexibleRollout gets `groupId` = the flag
 * name and `stickiness` = the project's default; strategy variant weights are shared out.
 */
export function completeStrategy(body: StrategyBody, feature: string, defaultStickiness: string): StrategyBody {
  const parameters = { ...body.parameters }
  if (body.name === 'flexibleRollout') {
    if (!parameters.groupId) parameters.groupId = feature
    if (!parameters.stickiness) parameters.stickiness = defaultStickiness
    if (parameters.rollout === undefined) parameters.rollout = '100'
  }
  return { ...body, parameters, variants: fixVariantWeights(body.variants, 'body.variants') }
}

/** The strategy Unleash adds when a flag is enabled in an environment that has none. */
export function defaultStrategy(feature: string, defaultStickiness: string): StrategyBody {
  return {
    name: 'flexibleRollout',
    constraints: [],
    parameters: { rollout: '100', stickiness: defaultStickiness, groupId: feature },
    variants: [],
    segments: [],
  }
}
