import { type ConstraintCache, compileConstraint } from './constraints/index.js'
import { isObject, stringify, toNumber } from './coerce.js'
import type { SlotTable } from './slot-table.js'
import { CustomStrategyError } from './errors.js'
import type { ParseCaches } from './parse-cache.js'
import { GATE_COST, type Gate, PREDICATE, gate, neverGate } from './gates.js'
import { BUILT_IN_STRATEGIES } from './strategies/index.js'
import { groupIdParameter } from './strategies/params.js'
import type { RawStrategy, StoredSegment } from './raw-payload.js'
import type { CustomStrategy, EvaluatedToggle } from './types.js'
import type { Warn, WarningCode } from './warnings.js'
import { type VariantSet, compileVariantSet } from './variants.js'

export interface CompileEnvironment {
  customStrategies: ReadonlyMap<string, CustomStrategy>
  segments: ReadonlyMap<number, StoredSegment>
  hostname: string
  slots: SlotTable
  constraints: ConstraintCache
  caches: ParseCaches
  /** Compiled segments of this load, by id. */
  segmentGates: Map<number, Gate[]>
  /** Reports a problem; `flag` is undefined for a segment's (it may gate many flags). */
  warn: (flag: string | undefined, code: WarningCode, message: string) => void
}

export interface CompiledStrategy {
  /**
   * The strategy's own test (explain describes it). All its gates (constraints, segment
   * constraints, then this test, ANDed in order) live encoded in the payload's program: kept as
   * objects too (the lists, the unshared gates, their data), they were a large share of the
   * compiled flags' heap (see `npm run bench -- large`, the heap after compiling 10k flags).
   */
  test: Gate
  /** Set when the strategy has variants that can be chosen. */
  variants: VariantSet | undefined
  /** The variants as received; each becomes a result on first use (see `outcomes.ts`). */
  variantDefinitions: readonly unknown[]
  /** The toggle for each of this strategy's variants, built on first use. */
  outcomes: Array<EvaluatedToggle | undefined>
  /** Why a flag is on when this strategy matched and chose no variant (engine.evaluate). */
  reason: StrategyReason
}

export type StrategyReason = 'STATIC' | 'TARGETING_MATCH' | 'SPLIT'

const ROLLOUT_PERCENTAGE: Readonly<Record<string, string>> = {
  flexibleRollout: 'rollout',
  gradualRolloutUserId: 'percentage',
  gradualRolloutSessionId: 'percentage',
  gradualRolloutRandom: 'percentage',
}

/**
 * OpenFeature's reason for a match: a strategy with constraints or segments, or one that picks
 * users (userWithId, remoteAddress, applicationHostname, a custom one) targets; a rollout below
 * 100 % splits; `default` and a full rollout are the same for everyone.
 */
function strategyReason(name: string, parameters: Record<string, unknown>, targeted: boolean): StrategyReason {
  if (targeted) return 'TARGETING_MATCH'
  if (name === 'default') return 'STATIC'
  const percentage = ROLLOUT_PERCENTAGE[name]
  if (percentage === undefined) return 'TARGETING_MATCH'
  return toNumber(parameters[percentage]) >= 100 ? 'STATIC' : 'SPLIT'
}

/** A host strategy: its exception becomes a CustomStrategyError naming the flag. */
function compileCustom(strategy: CustomStrategy, parameters: Record<string, unknown>, featureName: string): Gate {
  // Passed on as received, as the Node SDK does; Unleash's server sends every parameter as a string.
  const params = parameters as Record<string, string>
  return gate(PREDICATE, (frame) => {
    frame.usedCustomStrategy = true
    try {
      return strategy.isEnabled(params, frame.context) === true
    } catch (error) {
      throw new CustomStrategyError(featureName, strategy.name, error)
    }
  })
}

/**
 * A segment's constraints, compiled once per load however many strategies reference it; from
 * the second reference on, each gate keeps its result for the rest of an evaluation.
 */
function compileSegment(id: number, env: CompileEnvironment): Gate[] | undefined {
  const compiled = env.segmentGates.get(id)
  if (compiled) {
    for (const shared of compiled) if (shared.memo < 0) shared.memo = env.slots.memo()
    return compiled
  }
  const segment = env.segments.get(id)
  if (!segment) return undefined
  const constraints: readonly unknown[] = Array.isArray(segment.constraints) ? segment.constraints : []
  const warn: Warn = (code, message) => env.warn(undefined, code, `segment ${id}: ${message}`)
  const gates = constraints.map((constraint) => compileConstraint(constraint, env, warn))
  env.segmentGates.set(id, gates)
  return gates
}

function compileTest(
  name: string,
  parameters: Record<string, unknown>,
  featureName: string,
  env: CompileEnvironment,
  warn: Warn,
): Gate {
  const custom = env.customStrategies.get(name)
  if (custom) return compileCustom(custom, parameters, featureName)
  const builtIn = BUILT_IN_STRATEGIES.get(name)
  if (builtIn)
    return builtIn({ parameters, featureName, hostname: env.hostname, slots: env.slots, caches: env.caches, warn })
  warn('unknown-strategy', `unknown strategy "${name}"; it never matches`)
  return neverGate()
}

const byCost = (a: Gate, b: Gate) => GATE_COST[a.kind]! - GATE_COST[b.kind]!

/**
 * Sorts a strategy's gates by cost, stably, in place. A strategy has a few gates, and
 * Array.prototype.sort allocates work space on every call, garbage that adds up over a whole
 * payload (see `npm run bench -- engine`, "compile 10k flags"): an insertion sort, unless there
 * are so many that its quadratic worst case would show.
 */
function sortByCost(gates: Gate[]): void {
  if (gates.length > 16) {
    gates.sort(byCost)
    return
  }
  for (let i = 1; i < gates.length; i++) {
    const gate = gates[i]!
    const cost = GATE_COST[gate.kind]!
    let j = i
    for (; j > 0 && GATE_COST[gates[j - 1]!.kind]! > cost; j--) gates[j] = gates[j - 1]!
    gates[j] = gate
  }
}

/**
 * A strategy without variants never builds an outcome: its lists stay empty, and it shares this
 * one (two arrays fewer per strategy to allocate and for the collector to copy).
 */
const NONE: never[] = []

/**
 * Compiles one strategy of a feature: its test, its constraints and segments, its variants. Its
 * gates are appended to `encoded`, for the flag's encoding (program.ts).
 */
export function compileStrategy(
  definition: unknown,
  featureName: string,
  env: CompileEnvironment,
  encoded?: Gate[][],
): CompiledStrategy {
  const warn: Warn = (code, message) => env.warn(featureName, code, message)
  // Not an object: a strategy with nothing but a test that never passes.
  const valid = isObject(definition)
  if (!valid) warn('invalid-strategy', 'a strategy is not an object; it never matches')
  const raw: RawStrategy = valid ? definition : {}
  const parameters = isObject(raw.parameters) ? raw.parameters : {}

  const gates: Gate[] = []
  const constraints: readonly unknown[] = Array.isArray(raw.constraints) ? raw.constraints : []
  for (const constraint of constraints) {
    gates.push(compileConstraint(constraint, env, warn))
  }
  const segmentIds: readonly unknown[] = Array.isArray(raw.segments) ? raw.segments : []
  for (const id of segmentIds) {
    const segmentGates = compileSegment(toNumber(id), env)
    if (!segmentGates) {
      // Node SDK: a missing segment fails this strategy only.
      warn('unknown-segment', `segment ${String(id)} does not exist; the strategy never matches`)
      gates.push(neverGate())
      continue
    }
    gates.push(...segmentGates)
  }
  // Constraints are pure, so their order is free: the cheap and selective go first (an IN
  // list rejects most contexts; a NOT_IN list passes most). The strategy's own test stays last,
  // as in the Node SDK, where a custom strategy only runs once its constraints pass.
  sortByCost(gates)
  const targeted = gates.length > 0
  const name = stringify(raw.name) ?? ''
  const test = valid ? compileTest(name, parameters, featureName, env, warn) : neverGate()
  gates.push(test)
  encoded?.push(gates)

  const variants: readonly unknown[] = Array.isArray(raw.variants) ? raw.variants : NONE
  const first = variants[0]
  const firstStickiness = isObject(first) ? stringify(first.stickiness) : undefined
  return {
    test,
    variants:
      variants.length === 0
        ? undefined
        : compileVariantSet(variants, {
            group: groupIdParameter(parameters.groupId, featureName),
            // Node SDK: the first variant's stickiness, else the strategy's.
            stickiness: firstStickiness || stringify(parameters.stickiness),
            overrides: false,
            slots: env.slots,
          }),
    variantDefinitions: variants,
    outcomes: variants.length === 0 ? NONE : [],
    reason: strategyReason(name, parameters, targeted),
  }
}
