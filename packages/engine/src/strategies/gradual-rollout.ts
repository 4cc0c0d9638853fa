import { readField } from '../context.js'
import { ROLLOUT_SEED, bucketOf, createBucketer } from '../hash.js'
import { groupIdParameter, percentageParameter } from './params.js'
import type { StrategyCompiler } from './types.js'

function compileIdRollout(field: 'userId' | 'sessionId'): StrategyCompiler {
  return ({ parameters, featureName, fields }) => {
    const percentage = percentageParameter(parameters.percentage)
    if (!(percentage > 0)) return () => false
    const bucket = createBucketer(groupIdParameter(parameters.groupId, featureName), ROLLOUT_SEED, 100)
    const idOf = fields.topLevel(field)
    return (frame) => {
      const id = readField(frame, idOf)
      return id !== undefined && bucketOf(bucket, id) <= percentage
    }
  }
}

/** gradualRolloutUserId: the userId's bucket in the group is within `percentage`. */
export const compileGradualRolloutUserId = compileIdRollout('userId')

/** gradualRolloutSessionId: the sessionId's bucket in the group is within `percentage`. */
export const compileGradualRolloutSessionId = compileIdRollout('sessionId')

/** gradualRolloutRandom: on with probability `percentage` %; 0 is never, 100 is always. */
export const compileGradualRolloutRandom: StrategyCompiler = ({ parameters }) => {
  const percentage = percentageParameter(parameters.percentage)
  if (!(percentage > 0)) return () => false
  return () => percentage >= 1 + Math.floor(Math.random() * 100)
}
