import { alwaysGate } from '../gates.js'
import type { StrategyCompiler } from './types.js'

export const compileDefault: StrategyCompiler = () => alwaysGate()
