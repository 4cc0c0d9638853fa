import { ROLLOUT_DEFAULT, ROLLOUT_FIELD, ROLLOUT_RANDOM, gate, neverGate } from '../gates.js'
import { ROLLOUT_SEED } from '../hash.js'
import { groupIdParameter, rolloutParameter } from './params.js'
import { rolloutExtra } from './rollout.js'
import type { StrategyCompiler } from './types.js'

/**
 * flexibleRollout: `rollout` % of the stickiness values in the group. Stickiness `default` is
 * userId, else sessionId, else random; `random` is random; any other name is a context field,
 * and a missing value is off (spec 10 and 12).
 */
export const compileFlexibleRollout: StrategyCompiler = ({ parameters, featureName, slots, warn }) => {
  const rollout = rolloutParameter(parameters, 'rollout', warn)
  if (!(rollout > 0)) return neverGate()
  const stickiness =
    typeof parameters.stickiness === 'string' && parameters.stickiness !== '' ? parameters.stickiness : 'default'
  if (stickiness === 'random') return gate(ROLLOUT_RANDOM, rollout)
  const group = groupIdParameter(parameters.groupId, featureName)
  if (stickiness === 'default') {
    return gate(
      ROLLOUT_DEFAULT,
      slots.bucket(
        group,
        ROLLOUT_SEED,
        100,
        rolloutExtra(rollout, slots.topLevel('userId'), slots.topLevel('sessionId')),
      ),
    )
  }
  return gate(ROLLOUT_FIELD, slots.bucket(group, ROLLOUT_SEED, 100, rolloutExtra(rollout, slots.field(stickiness), -1)))
}
