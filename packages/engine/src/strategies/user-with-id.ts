import { stringify } from '../context.js'
import { listParameter } from './params.js'
import type { StrategyCompiler } from './types.js'

/** userWithId: the context's userId is one of `userIds` (each id trimmed). */
export const compileUserWithId: StrategyCompiler = ({ parameters }) => {
  const ids = new Set(listParameter(parameters.userIds))
  if (ids.size === 0) return () => false
  return (context) => {
    const userId = stringify(context.userId)
    return userId !== undefined && ids.has(userId)
  }
}
