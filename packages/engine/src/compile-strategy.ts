import { type Predicate, allOf, compileConstraint } from './constraints/index.js'
import { type SlotTable, stringify, toNumber } from './context.js'
import { CustomStrategyError } from './errors.js'
import { strategyVariant } from './outcomes.js'
import { BUILT_IN_STRATEGIES } from './strategies/index.js'
import { groupIdParameter } from './strategies/params.js'
import type { CustomStrategy, EvaluatedToggle, SegmentDefinition } from './types.js'
import { type VariantSelector, compileVariantSelector } from './variants.js'

export interface CompileEnvironment {
  customStrategies: ReadonlyMap<string, CustomStrategy>
  segments: ReadonlyMap<number, SegmentDefinition>
  hostname: string
  fields: SlotTable
  warn: (message: string) => void
}

export interface CompiledStrategy {
  /** Constraints, then segment constraints, then the strategy itself, short-circuited. */
  matches: Predicate
  /** Set when the strategy has variants that can be chosen. */
  selectVariant: VariantSelector | undefined
  /** The toggle returned for each of this strategy's variants (filled by the feature compiler). */
  outcomes: EvaluatedToggle[]
  variants: unknown[]
}

const never: Predicate = () => false

function compileCustom(strategy: CustomStrategy, parameters: Record<string, unknown>, featureName: string): Predicate {
  const params = parameters as Record<string, string>
  return (frame) => {
    try {
      return strategy.isEnabled(params, frame.context) === true
    } catch (error) {
      throw new CustomStrategyError(featureName, strategy.name, error)
    }
  }
}

/** Compiles one strategy of a feature: its test, its constraints and segments, its variants. */
export function compileStrategy(definition: unknown, featureName: string, env: CompileEnvironment): CompiledStrategy {
  if (definition === null || typeof definition !== 'object') {
    env.warn(`${featureName}: a strategy is not an object; it never matches`)
    return { matches: never, selectVariant: undefined, outcomes: [], variants: [] }
  }
  const raw = definition as Record<string, unknown>
  const name = stringify(raw.name) ?? ''
  const parameters =
    raw.parameters !== null && typeof raw.parameters === 'object' ? (raw.parameters as Record<string, unknown>) : {}

  const custom = env.customStrategies.get(name)
  const builtIn = BUILT_IN_STRATEGIES.get(name)
  let test: Predicate
  if (custom) test = compileCustom(custom, parameters, featureName)
  else if (builtIn) test = builtIn({ parameters, featureName, hostname: env.hostname, fields: env.fields })
  else {
    env.warn(`${featureName}: unknown strategy "${name}"; it never matches`)
    test = never
  }

  const gates: Predicate[] = []
  const constraints = Array.isArray(raw.constraints) ? raw.constraints : []
  for (const constraint of constraints) gates.push(compileConstraint(constraint, env.fields, (m) => env.warn(`${featureName}: ${m}`)))
  const segmentIds = Array.isArray(raw.segments) ? raw.segments : []
  for (const id of segmentIds) {
    const segment = env.segments.get(toNumber(id))
    if (!segment) {
      // Node SDK: a missing segment fails this strategy only.
      env.warn(`${featureName}: segment ${String(id)} does not exist; the strategy never matches`)
      gates.push(never)
      continue
    }
    const segmentConstraints = Array.isArray(segment.constraints) ? segment.constraints : []
    for (const constraint of segmentConstraints) {
      gates.push(compileConstraint(constraint, env.fields, (m) => env.warn(`${featureName}: segment ${segment.id}: ${m}`)))
    }
  }
  gates.push(test)

  const variants = Array.isArray(raw.variants) ? raw.variants : []
  const firstStickiness = stringify((variants[0] as { stickiness?: unknown } | undefined)?.stickiness)
  const selectVariant =
    variants.length === 0
      ? undefined
      : compileVariantSelector(variants, {
          group: groupIdParameter(parameters.groupId, featureName),
          stickiness: firstStickiness || stringify(parameters.stickiness),
          overrides: false,
          fields: env.fields,
        })
  return {
    matches: allOf(gates),
    selectVariant,
    outcomes: [],
    variants: variants.map(strategyVariant),
  }
}
