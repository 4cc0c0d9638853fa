import { IN, gate } from '../gates.js'
import { listParameter } from './params.js'
import type { StrategyCompiler } from './types.js'

/** userWithId: the context's userId is one of `userIds` (each id trimmed): an IN on userId. */
export const compileUserWithId: StrategyCompiler = ({ parameters, slots }) =>
  gate(IN, slots.membership(slots.topLevel('userId'), listParameter(parameters.userIds)))
