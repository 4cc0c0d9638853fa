import { readField } from '../context.js'
import { listParameter } from './params.js'
import type { StrategyCompiler } from './types.js'

/** userWithId: the context's userId is one of `userIds` (each id trimmed). */
export const compileUserWithId: StrategyCompiler = ({ parameters, fields }) => {
  const ids = new Set(listParameter(parameters.userIds))
  if (ids.size === 0) return () => false
  const userIdOf = fields.topLevel('userId')
  return (frame) => {
    const userId = readField(frame, userIdOf)
    return userId !== undefined && ids.has(userId)
  }
}
