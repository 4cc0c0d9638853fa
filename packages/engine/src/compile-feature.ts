import { isObject, stringify, toNumber } from './coerce.js'
import { type CompileEnvironment, type CompiledStrategy, compileStrategy } from './compile-strategy.js'
import type { StoredFeature } from './raw-payload.js'
import type { FeatureDescription } from './details.js'
import type { Gate } from './gates.js'
import type { EvaluatedToggle } from './types.js'
import { type VariantSet, compileVariantSet } from './variants.js'
import type { Warn } from './warnings.js'

export interface CompiledDependency {
  parent: string
  /** `enabled: false` in the definition: satisfied when the parent is off. */
  expectEnabled: boolean
  /** When listed, the parent's variant must be one of these. */
  variants: Set<string> | undefined
}

// `CompiledFeature.variantBits`: strategies 0 to STRATEGY_BITS - 1 have a bit each (a later one
// that matched is read as it is). Made here, once per flag: a fork shares its compiled flags.
export const STRATEGY_BITS = 30
export const FEATURE_VARIANTS = 1 << 30

/** A flag compiled to data; `evaluate.ts` reads it. */
export interface CompiledFeature {
  readonly name: string
  /** The definition exactly as received, for server-side SDK payloads and backups. */
  readonly definition: StoredFeature
  readonly enabled: boolean
  readonly strategies: CompiledStrategy[]
  readonly dependencies: CompiledDependency[] | undefined
  readonly variants: VariantSet | undefined
  readonly impressionData: boolean
  /** The feature-level variants as received; each becomes a result on first use (see `outcomes.ts`). */
  readonly variantDefinitions: readonly unknown[]
  /**
   * Results, built on first use and then shared (compiling 10k flags allocates less):
   * [OFF, ON_WITHOUT_VARIANT, ...one per feature variant]. See `evaluate.ts`.
   */
  readonly outcomes: Array<EvaluatedToggle | undefined>
  readonly segmentIds: readonly number[]
  /** The strategies' offset in the payload's code (program.ts); unused when the flag is off. */
  readonly pc: number
  /** Bit k set when strategy k (below STRATEGY_BITS) has variants, FEATURE_VARIANTS when the flag has (evaluate.ts). */
  readonly variantBits: number
  /** Why the flag could not be compiled (it is then always off). */
  readonly invalid: string | undefined
  /** What `engine.evaluate` derives from the flag, made on its first call (details.ts). */
  described: FeatureDescription | undefined
}

function compileDependencies(raw: unknown, warn: Warn): CompiledDependency[] | undefined {
  if (!Array.isArray(raw) || raw.length === 0) return undefined
  return raw.map((entry: unknown): CompiledDependency => {
    const dependency = isObject(entry) ? entry : {}
    const parent = stringify(dependency.feature)
    if (!parent) warn('invalid-dependency', 'a dependency names no parent feature; it is never satisfied')
    const list = dependency.variants
    return {
      parent: parent ?? '',
      expectEnabled: dependency.enabled !== false,
      variants:
        Array.isArray(list) && list.length > 0 ? new Set(list.map((v: unknown) => stringify(v) ?? '')) : undefined,
    }
  })
}

const NO_SEGMENTS: readonly number[] = []

function segmentIdsOf(strategies: readonly unknown[]): readonly number[] {
  let ids: Set<number> | undefined
  for (const strategy of strategies) {
    const list = isObject(strategy) ? strategy.segments : undefined
    if (Array.isArray(list)) for (const id of list) (ids ??= new Set()).add(toNumber(id))
  }
  // Most flags use no segment: they share one empty list.
  return ids ? [...ids] : NO_SEGMENTS
}

/** A flag that could not be compiled: always off (the warning, and `invalid`, say why). */
export function compileAlwaysOff(definition: StoredFeature, invalid: string): CompiledFeature {
  return {
    name: definition.name,
    definition,
    enabled: false,
    strategies: [],
    dependencies: undefined,
    variants: undefined,
    impressionData: definition.impressionData === true,
    variantDefinitions: [],
    outcomes: [],
    segmentIds: [],
    pc: -1,
    variantBits: 0,
    invalid,
    described: undefined,
  }
}

/** Compiles a feature (docs/evaluation.md section 5). */
export function compileFeature(definition: StoredFeature, env: CompileEnvironment): CompiledFeature {
  const name = definition.name
  if (!Array.isArray(definition.strategies)) {
    env.warn(name, 'invalid-flag', '"strategies" is not an array; the flag is off')
    return compileAlwaysOff(definition, '"strategies" is not an array')
  }
  const definitions: readonly unknown[] = definition.strategies
  const featureVariants: readonly unknown[] = Array.isArray(definition.variants) ? definition.variants : []
  const first = featureVariants[0]
  const gates: Gate[][] = []
  const strategies = definitions.map((s) => compileStrategy(s, name, env, gates))
  const variants =
    featureVariants.length === 0
      ? undefined
      : compileVariantSet(featureVariants, {
          group: name,
          stickiness: isObject(first) ? stringify(first.stickiness) : undefined,
          overrides: true,
          slots: env.slots,
        })
  let variantBits = variants ? FEATURE_VARIANTS : 0
  for (let k = 0; k < strategies.length && k < STRATEGY_BITS; k++) if (strategies[k]!.variants) variantBits |= 1 << k
  return {
    name,
    definition,
    enabled: definition.enabled === true,
    strategies,
    dependencies: compileDependencies(definition.dependencies, (code, message) => env.warn(name, code, message)),
    variants,
    impressionData: definition.impressionData === true,
    variantDefinitions: featureVariants,
    outcomes: [],
    segmentIds: segmentIdsOf(definitions),
    pc: env.slots.encode(gates),
    variantBits,
    // Every compiled flag has one shape (V8 sees one hidden class on the hot path).
    invalid: undefined,
    described: undefined,
  }
}
