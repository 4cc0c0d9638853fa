import { type CompileEnvironment, type CompiledStrategy, compileStrategy } from './compile-strategy.js'
import { stringify, toNumber } from './coerce.js'
import type { EvaluatedToggle, FeatureDefinition } from './types.js'
import { type VariantSet, compileVariantSet } from './variants.js'

export interface CompiledDependency {
  parent: string
  /** `enabled: false` in the definition: satisfied when the parent is off. */
  expectEnabled: boolean
  /** When listed, the parent's variant must be one of these. */
  variants: Set<string> | undefined
}

/** A flag compiled to data; `evaluate.ts` reads it. */
export interface CompiledFeature {
  readonly name: string
  /** The definition exactly as received, for server-side SDK payloads and backups. */
  readonly definition: FeatureDefinition
  readonly enabled: boolean
  readonly strategies: CompiledStrategy[]
  readonly dependencies: CompiledDependency[] | undefined
  readonly variants: VariantSet | undefined
  readonly impressionData: boolean
  /** The feature-level variant definitions, turned into results on first use. */
  readonly variantDefinitions: readonly unknown[]
  /**
   * Results, built on first use and then shared (compiling 10k flags allocates less):
   * [OFF, ON_WITHOUT_VARIANT, ...one per feature variant]. See `evaluate.ts`.
   */
  readonly outcomes: Array<EvaluatedToggle | undefined>
  readonly segmentIds: readonly number[]
}

function compileDependencies(raw: unknown, featureName: string, warn: (m: string) => void): CompiledDependency[] | undefined {
  if (!Array.isArray(raw) || raw.length === 0) return undefined
  return raw.map((dependency): CompiledDependency => {
    const parent = stringify((dependency as { feature?: unknown } | null)?.feature)
    if (!parent) warn(`${featureName}: a dependency names no parent feature; it is never satisfied`)
    const list = (dependency as { variants?: unknown } | null)?.variants
    return {
      parent: parent ?? '',
      expectEnabled: (dependency as { enabled?: unknown } | null)?.enabled !== false,
      variants: Array.isArray(list) && list.length > 0 ? new Set(list.map((v) => stringify(v) ?? '')) : undefined,
    }
  })
}

function segmentIdsOf(strategies: unknown[]): number[] {
  const ids = new Set<number>()
  for (const strategy of strategies) {
    const list = (strategy as { segments?: unknown } | null)?.segments
    if (Array.isArray(list)) for (const id of list) ids.add(toNumber(id))
  }
  return [...ids]
}

/** A flag that could not be compiled: always off (the warning says why). */
export function compileAlwaysOff(definition: FeatureDefinition, name: string): CompiledFeature {
  return {
    name,
    definition,
    enabled: false,
    strategies: [],
    dependencies: undefined,
    variants: undefined,
    impressionData: definition.impressionData === true,
    variantDefinitions: [],
    outcomes: [],
    segmentIds: [],
  }
}

/** Compiles a feature (evaluation-semantics.md section 5). */
export function compileFeature(definition: FeatureDefinition, env: CompileEnvironment): CompiledFeature {
  const name = definition.name
  const impressionData = definition.impressionData === true
  if (!Array.isArray(definition.strategies)) {
    env.warn(`${name}: "strategies" is not an array; the flag is off`)
    return compileAlwaysOff(definition, name)
  }
  const strategies = definition.strategies.map((s) => compileStrategy(s, name, env))
  const featureVariants = Array.isArray(definition.variants) ? definition.variants : []
  return {
    name,
    definition,
    enabled: definition.enabled === true,
    strategies,
    dependencies: compileDependencies(definition.dependencies, name, env.warn),
    variants:
      featureVariants.length === 0
        ? undefined
        : compileVariantSet(featureVariants, {
            group: name,
            stickiness: stringify((featureVariants[0] as { stickiness?: unknown } | null)?.stickiness),
            overrides: true,
            slots: env.slots,
          }),
    impressionData,
    variantDefinitions: featureVariants,
    outcomes: [],
    segmentIds: segmentIdsOf(definition.strategies),
  }
}
