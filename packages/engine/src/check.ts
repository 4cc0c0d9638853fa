// checkConstraint / checkStrategy: what `load` would warn about one constraint or strategy, for an
// editor that wants to say so before it is saved. They run the compiler itself (compileConstraint,
// compileStrategy) in a throwaway environment, so what they accept is exactly what the engine
// accepts: there is no second validator to drift from it.
import { isObject } from './coerce.js'
import { type CompileEnvironment, compileStrategy } from './compile-strategy.js'
import { compileConstraint } from './constraints/index.js'
import { createParseCaches } from './engine.js'
import { createSlotTable } from './slot-table.js'
import type { EngineWarning } from './warnings.js'

function throwawayEnvironment(warnings: EngineWarning[]): CompileEnvironment {
  return {
    customStrategies: new Map(),
    segments: new Map(),
    hostname: '',
    slots: createSlotTable(),
    constraints: new Map(),
    caches: createParseCaches(),
    segmentGates: new Map(),
    // What is checked belongs to no flag yet.
    warn: (_flag, code, message) => warnings.push({ flag: undefined, code, message }),
  }
}

/**
 * The warnings `load` gives for one constraint (`flag` undefined): a literal its operator cannot
 * use (`invalid-number`, `invalid-date`, `invalid-semver`, `invalid-regex`, `invalid-cidr`), an
 * unknown operator, a constraint that is not an object. Empty: the engine accepts it.
 */
export function checkConstraint(definition: unknown): EngineWarning[] {
  const warnings: EngineWarning[] = []
  const env = throwawayEnvironment(warnings)
  compileConstraint(definition, env, (code, message) => env.warn(undefined, code, message))
  return warnings
}

/**
 * The warnings `load` gives for one strategy (`flag` undefined): its parameters (a rollout that
 * is not a number, remoteAddress entries that are not addresses), its constraints, an unknown
 * strategy name (only the built-in strategies are known here). The segments it references are
 * not looked at: they live in the payload, not in the strategy (check their constraints with
 * checkConstraint).
 */
export function checkStrategy(definition: unknown): EngineWarning[] {
  const warnings: EngineWarning[] = []
  const strategy = isObject(definition) && !Array.isArray(definition) ? { ...definition, segments: [] } : definition
  compileStrategy(strategy, '', throwawayEnvironment(warnings))
  return warnings
}
