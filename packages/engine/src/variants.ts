import { compileFieldAccessor, stringify, topLevelString } from './context.js'
import { VARIANT_SEED, createBucketer } from './hash.js'
import type { Context } from './types.js'

/** Picks the index of a variant for a context, or -1 when no variant applies. */
export type VariantSelector = (context: Context) => number

interface SelectorOptions {
  /** Hash group: the feature name for feature variants, the strategy's groupId for strategy variants. */
  group: string
  stickiness: string | undefined
  /** Feature variants honour overrides; strategy variants have none. */
  overrides: boolean
}

function weightOf(variant: unknown): number {
  const weight = Number((variant as { weight?: unknown } | null)?.weight)
  return Number.isFinite(weight) && weight > 0 ? weight : 0
}

/**
 * The stickiness value: for `default`, the first non-empty of userId, sessionId and remoteAddress
 * (Node SDK); otherwise the named context field. `undefined` means "pick at random".
 */
function compileStickiness(stickiness: string | undefined): (context: Context) => string | undefined {
  if (stickiness === undefined || stickiness === '' || stickiness === 'default') {
    return (context) =>
      topLevelString(context, 'userId') ?? topLevelString(context, 'sessionId') ?? topLevelString(context, 'remoteAddress')
  }
  if (stickiness === 'random') return () => undefined
  const field = compileFieldAccessor(stickiness)
  return (context) => {
    const value = field(context)
    return value === '' ? undefined : value
  }
}

/**
 * Compiles the weighted choice of evaluation-semantics.md section 6. Returns `undefined` when the
 * list can never produce a variant (empty, or a total weight of 0, checked before overrides).
 */
export function compileVariantSelector(variants: readonly unknown[], options: SelectorOptions): VariantSelector | undefined {
  const weights = variants.map(weightOf)
  const totalWeight = weights.reduce((sum, weight) => sum + weight, 0)
  if (totalWeight <= 0) return undefined

  const cumulative: number[] = []
  let running = 0
  for (const weight of weights) cumulative.push(weight > 0 ? (running += weight) : -1)

  const overrides: Array<{ field: (context: Context) => string | undefined; values: Set<string>; index: number }> = []
  if (options.overrides) {
    variants.forEach((variant, index) => {
      const list = (variant as { overrides?: unknown } | null)?.overrides
      if (!Array.isArray(list)) return
      for (const override of list) {
        const contextName = stringify((override as { contextName?: unknown } | null)?.contextName)
        const values = (override as { values?: unknown } | null)?.values
        if (!contextName || !Array.isArray(values)) continue
        overrides.push({ field: compileFieldAccessor(contextName), values: new Set(values.map((v) => stringify(v) ?? '')), index })
      }
    })
  }

  const bucket = createBucketer(options.group, VARIANT_SEED, totalWeight)
  const seedOf = compileStickiness(options.stickiness)
  const pick = (target: number): number => {
    for (let i = 0; i < cumulative.length; i++) if (cumulative[i]! >= target) return i
    return -1
  }

  return (context) => {
    for (const override of overrides) {
      const value = override.field(context)
      if (value !== undefined && override.values.has(value)) return override.index
    }
    const seed = seedOf(context)
    return pick(seed === undefined ? 1 + Math.floor(Math.random() * totalWeight) : bucket(seed))
  }
}
