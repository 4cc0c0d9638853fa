import { type CompileEnvironment, type CompiledStrategy, compileStrategy } from './compile-strategy.js'
import { type Frame, stringify, toNumber } from './context.js'
import { DISABLED_VARIANT, ENABLED_WITHOUT_VARIANT, featureVariant, toggle } from './outcomes.js'
import type { EvaluatedToggle, FeatureDefinition, Variant } from './types.js'
import { type VariantSelector, compileVariantSelector } from './variants.js'

export interface CompiledFeature {
  readonly name: string
  /** The definition exactly as received, for server-side SDK payloads and backups. */
  readonly definition: FeatureDefinition
  readonly hasDependencies: boolean
  readonly segmentIds: readonly number[]
  /** Enabled for this context, dependencies included. */
  isEnabled(frame: Frame): boolean
  /** Enabled state and variant in one pass; the result is shared and frozen. */
  evaluate(frame: Frame): EvaluatedToggle
}

export type FeatureLookup = (name: string) => CompiledFeature | undefined

type DependencyCheck = (frame: Frame) => boolean

function compileDependencies(raw: unknown, featureName: string, lookup: FeatureLookup, warn: (m: string) => void): DependencyCheck | undefined {
  if (!Array.isArray(raw) || raw.length === 0) return undefined
  const checks: DependencyCheck[] = raw.map((dependency): DependencyCheck => {
    const parentName = stringify((dependency as { feature?: unknown } | null)?.feature)
    if (!parentName) {
      warn(`${featureName}: a dependency names no parent feature; it is never satisfied`)
      return () => false
    }
    const expectEnabled = (dependency as { enabled?: unknown }).enabled !== false
    const variantList = (dependency as { variants?: unknown }).variants
    const variants = Array.isArray(variantList) && variantList.length > 0 ? new Set(variantList.map((v) => stringify(v) ?? '')) : undefined
    return (frame) => {
      // Looked up at evaluation time: parents can change through delta events.
      const parent = lookup(parentName)
      // One level only: a parent with dependencies of its own never satisfies (defeats cycles).
      if (!parent || parent.hasDependencies) return false
      if (!expectEnabled) return !parent.isEnabled(frame)
      if (!variants) return parent.isEnabled(frame)
      const variant = parent.evaluate(frame).variant
      return variant.feature_enabled && variants.has(variant.name)
    }
  })
  return (frame) => {
    for (const check of checks) if (!check(frame)) return false
    return true
  }
}

/** A flag that could not be compiled: always off (the warning says why). */
export function compileAlwaysOff(definition: FeatureDefinition, name: string): CompiledFeature {
  const off = toggle(name, false, DISABLED_VARIANT, definition.impressionData === true)
  return {
    name,
    definition,
    hasDependencies: false,
    segmentIds: [],
    isEnabled: () => false,
    evaluate: () => off,
  }
}

/**
 * Compiles a feature into closures (evaluation-semantics.md section 5): dependencies, then
 * `enabled`, then strategies ORed in order; the first matching strategy's variants win over
 * the feature's variants.
 */
export function compileFeature(definition: FeatureDefinition, env: CompileEnvironment, lookup: FeatureLookup): CompiledFeature {
  const name = definition.name
  const impressionData = definition.impressionData === true
  if (!Array.isArray(definition.strategies)) {
    env.warn(`${name}: "strategies" is not an array; the flag is off`)
    return compileAlwaysOff(definition, name)
  }
  const strategies: CompiledStrategy[] = definition.strategies.map((s) => compileStrategy(s, name, env))
  const dependencies = compileDependencies(definition.dependencies, name, lookup, env.warn)
  const enabled = definition.enabled === true

  const off = toggle(name, false, DISABLED_VARIANT, impressionData)
  const onWithoutVariant = toggle(name, true, ENABLED_WITHOUT_VARIANT, impressionData)
  const featureVariants = Array.isArray(definition.variants) ? definition.variants : []
  const featureOutcomes = featureVariants.map((v) => toggle(name, true, featureVariant(v), impressionData))
  const selectFeatureVariant: VariantSelector | undefined =
    featureVariants.length === 0
      ? undefined
      : compileVariantSelector(featureVariants, {
          group: name,
          stickiness: stringify((featureVariants[0] as { stickiness?: unknown } | null)?.stickiness),
          overrides: true,
          fields: env.fields,
        })
  for (const strategy of strategies) {
    strategy.outcomes = strategy.variants.map((variant) => toggle(name, true, variant as Variant, impressionData))
  }

  const withFeatureVariant = (frame: Frame): EvaluatedToggle => {
    if (!selectFeatureVariant) return onWithoutVariant
    const index = selectFeatureVariant(frame)
    return index < 0 ? onWithoutVariant : featureOutcomes[index]!
  }

  /** -1: off; -2: on without a strategy (empty list); otherwise the index of the first match. */
  const match = (frame: Frame): number => {
    if (!enabled) return -1
    if (dependencies && !dependencies(frame)) return -1
    if (strategies.length === 0) return -2
    for (let i = 0; i < strategies.length; i++) if (strategies[i]!.matches(frame)) return i
    return -1
  }

  const segmentIds = new Set<number>()
  for (const s of definition.strategies) {
    const ids = (s as { segments?: unknown } | null)?.segments
    if (Array.isArray(ids)) for (const id of ids) segmentIds.add(toNumber(id))
  }

  return {
    name,
    definition,
    hasDependencies: dependencies !== undefined,
    segmentIds: [...segmentIds],
    isEnabled: (frame) => match(frame) !== -1,
    evaluate(frame) {
      const index = match(frame)
      if (index === -1) return off
      if (index === -2) return withFeatureVariant(frame)
      const strategy = strategies[index]!
      if (strategy.selectVariant) {
        const variant = strategy.selectVariant(frame)
        if (variant >= 0) return strategy.outcomes[variant]!
      }
      return withFeatureVariant(frame)
    },
  }
}
