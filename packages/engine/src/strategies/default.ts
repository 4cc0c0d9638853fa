import type { StrategyCompiler } from './types.js'

export const compileDefault: StrategyCompiler = () => () => true
