import { listParameter } from './params.js'
import type { StrategyCompiler } from './types.js'

/** applicationHostname: the engine's hostname (fixed at construction) is one of `hostNames`. */
export const compileApplicationHostname: StrategyCompiler = ({ parameters, hostname }) => {
  const matches = listParameter(parameters.hostNames).some((name) => name.toLowerCase() === hostname)
  return () => matches
}
