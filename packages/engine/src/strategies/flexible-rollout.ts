import { ROLLOUT_DEFAULT, ROLLOUT_FIELD, ROLLOUT_RANDOM, gate, neverGate } from '../gates.js'
import { ROLLOUT_SEED, createBucketer } from '../hash.js'
import { groupIdParameter, percentageParameter } from './params.js'
import type { RolloutData } from './rollout.js'
import type { StrategyCompiler } from './types.js'

/**
 * flexibleRollout: `rollout` % of the stickiness values in the group. Stickiness `default` is
 * userId, else sessionId, else random; `random` is random; any other name is a context field,
 * and a missing value is off (spec 10 and 12).
 */
export const compileFlexibleRollout: StrategyCompiler = ({ parameters, featureName, slots }) => {
  const rollout = percentageParameter(parameters.rollout)
  if (!(rollout > 0)) return neverGate()
  const stickiness = typeof parameters.stickiness === 'string' && parameters.stickiness !== '' ? parameters.stickiness : 'default'
  if (stickiness === 'random') return gate(ROLLOUT_RANDOM, rollout)
  const bucket = createBucketer(groupIdParameter(parameters.groupId, featureName), ROLLOUT_SEED, 100)
  if (stickiness === 'default') {
    const data: RolloutData = { bucket, percentage: rollout, field: slots.topLevel('userId'), fallback: slots.topLevel('sessionId') }
    return gate(ROLLOUT_DEFAULT, data)
  }
  const data: RolloutData = { bucket, percentage: rollout, field: slots.field(stickiness), fallback: -1 }
  return gate(ROLLOUT_FIELD, data)
}
