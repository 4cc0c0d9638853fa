import { compileFieldAccessor, topLevelString } from '../context.js'
import { ROLLOUT_SEED, createBucketer } from '../hash.js'
import type { Context } from '../types.js'
import { groupIdParameter, percentageParameter } from './params.js'
import type { StrategyCompiler } from './types.js'

const randomBucket = (): number => 1 + Math.floor(Math.random() * 100)

/**
 * flexibleRollout: `rollout` % of the stickiness values in the group. Stickiness `default` is
 * userId, else sessionId, else random; `random` is random; any other name is a context field,
 * and a missing value is off (spec 10 and 12).
 */
export const compileFlexibleRollout: StrategyCompiler = ({ parameters, featureName }) => {
  const rollout = percentageParameter(parameters.rollout)
  if (!(rollout > 0)) return () => false
  const bucket = createBucketer(groupIdParameter(parameters.groupId, featureName), ROLLOUT_SEED, 100)
  const stickiness = typeof parameters.stickiness === 'string' && parameters.stickiness !== '' ? parameters.stickiness : 'default'
  if (stickiness === 'random') return () => randomBucket() <= rollout
  if (stickiness === 'default') {
    return (context: Context) => {
      const id = topLevelString(context, 'userId') ?? topLevelString(context, 'sessionId')
      return (id === undefined ? randomBucket() : bucket(id)) <= rollout
    }
  }
  const field = compileFieldAccessor(stickiness)
  return (context) => {
    const id = field(context)
    return id !== undefined && id !== '' && bucket(id) <= rollout
  }
}
