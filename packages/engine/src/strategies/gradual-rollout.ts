import { ROLLOUT_SEED } from '../hash.js'
import { ROLLOUT_FIELD, ROLLOUT_RANDOM, gate, neverGate } from '../gates.js'
import { groupIdParameter, rolloutParameter } from './params.js'
import { rolloutExtra } from './rollout.js'
import type { StrategyCompiler } from './types.js'

function compileIdRollout(field: 'userId' | 'sessionId'): StrategyCompiler {
  return ({ parameters, featureName, slots, warn }) => {
    const percentage = rolloutParameter(parameters, 'percentage', warn)
    if (!(percentage > 0)) return neverGate()
    const group = groupIdParameter(parameters.groupId, featureName)
    return gate(
      ROLLOUT_FIELD,
      slots.bucket(group, ROLLOUT_SEED, 100, rolloutExtra(percentage, slots.topLevel(field), -1)),
    )
  }
}

/** gradualRolloutUserId: the userId's bucket in the group is within `percentage`. */
export const compileGradualRolloutUserId = compileIdRollout('userId')

/** gradualRolloutSessionId: the sessionId's bucket in the group is within `percentage`. */
export const compileGradualRolloutSessionId = compileIdRollout('sessionId')

/** gradualRolloutRandom: on with probability `percentage` %; 0 is never, 100 is always. */
export const compileGradualRolloutRandom: StrategyCompiler = ({ parameters, warn }) => {
  const percentage = rolloutParameter(parameters, 'percentage', warn)
  return percentage > 0 ? gate(ROLLOUT_RANDOM, percentage) : neverGate()
}
