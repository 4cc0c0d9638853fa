import type { StrategyBody } from '../schemas/strategy.js'
import type { DefaultStrategy } from '../store/default-strategies.js'
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

/**
 * Unleash's built-in default strategy, what a project environment without its own adds: a
 * flexibleRollout of 100% with the project's default stickiness; its empty groupId becomes the
 * flag's name when it is added (`completeStrategy`).
 */
export function builtInDefaultStrategy(defaultStickiness: string): DefaultStrategy {
  return {
    name: 'flexibleRollout',
    title: null,
    disabled: false,
    constraints: [],
    parameters: { rollout: '100', stickiness: defaultStickiness, groupId: '' },
    variants: [],
    segments: [],
  }
}
