import { alwaysGate, neverGate } from '../gates.js'
import { listParameter } from './params.js'
import type { StrategyCompiler } from './types.js'

/** applicationHostname: the engine's hostname (fixed at construction) is one of `hostNames`. */
export const compileApplicationHostname: StrategyCompiler = ({ parameters, hostname }) =>
  listParameter(parameters.hostNames).some((name) => name.toLowerCase() === hostname) ? alwaysGate() : neverGate()
