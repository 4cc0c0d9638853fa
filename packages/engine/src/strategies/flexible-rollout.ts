import { readField } from '../context.js'
import { ROLLOUT_SEED, bucketOf, createBucketer } from '../hash.js'
import { groupIdParameter, percentageParameter } from './params.js'
import type { StrategyCompiler } from './types.js'

const randomBucket = (): number => 1 + Math.floor(Math.random() * 100)

/**
 * flexibleRollout: `rollout` % of the stickiness values in the group. Stickiness `default` is
 * userId, else sessionId, else random; `random` is random; any other name is a context field,
 * and a missing value is off (spec 10 and 12).
 */
export const compileFlexibleRollout: StrategyCompiler = ({ parameters, featureName, fields }) => {
  const rollout = percentageParameter(parameters.rollout)
  if (!(rollout > 0)) return () => false
  const bucket = createBucketer(groupIdParameter(parameters.groupId, featureName), ROLLOUT_SEED, 100)
  const stickiness = typeof parameters.stickiness === 'string' && parameters.stickiness !== '' ? parameters.stickiness : 'default'
  if (stickiness === 'random') return () => randomBucket() <= rollout
  if (stickiness === 'default') {
    const userIdOf = fields.topLevel('userId')
    const sessionIdOf = fields.topLevel('sessionId')
    return (frame) => {
      const id = readField(frame, userIdOf) ?? readField(frame, sessionIdOf)
      return (id === undefined ? randomBucket() : bucketOf(bucket, id)) <= rollout
    }
  }
  const field = fields.field(stickiness)
  return (frame) => {
    const id = readField(frame, field)
    return id !== undefined && id !== '' && bucketOf(bucket, id) <= rollout
  }
}
