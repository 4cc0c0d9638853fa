import { type FieldAccessor, type SlotTable, type Frame, readField, stringify, toNumber } from './context.js'
import { VARIANT_SEED, bucketOf, createBucketer } from './hash.js'

/** Picks the index of a variant for a context, or -1 when no variant applies. */
export type VariantSelector = (frame: Frame) => number

interface SelectorOptions {
  /** Hash group: the feature name for feature variants, the strategy's groupId for strategy variants. */
  group: string
  stickiness: string | undefined
  /** Feature variants honour overrides; strategy variants have none. */
  overrides: boolean
  fields: SlotTable
}

function weightOf(variant: unknown): number {
  const weight = toNumber((variant as { weight?: unknown } | null)?.weight)
  return Number.isFinite(weight) && weight > 0 ? weight : 0
}

/**
 * The stickiness value: for `default`, the first non-empty of userId, sessionId and remoteAddress
 * (Node SDK); otherwise the named context field. `undefined` means "pick at random".
 */
function compileStickiness(stickiness: string | undefined, fields: SlotTable): (frame: Frame) => string | undefined {
  if (stickiness === undefined || stickiness === '' || stickiness === 'default') {
    const userIdOf = fields.topLevel('userId')
    const sessionIdOf = fields.topLevel('sessionId')
    const remoteAddressOf = fields.topLevel('remoteAddress')
    return (frame) => readField(frame, userIdOf) ?? readField(frame, sessionIdOf) ?? readField(frame, remoteAddressOf)
  }
  if (stickiness === 'random') return () => undefined
  const field = fields.field(stickiness)
  return (frame) => {
    const value = readField(frame, field)
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

  const overrides: Array<{ field: FieldAccessor; values: Set<string>; index: number }> = []
  if (options.overrides) {
    variants.forEach((variant, index) => {
      const list = (variant as { overrides?: unknown } | null)?.overrides
      if (!Array.isArray(list)) return
      for (const override of list) {
        const contextName = stringify((override as { contextName?: unknown } | null)?.contextName)
        const values = (override as { values?: unknown } | null)?.values
        if (!contextName || !Array.isArray(values)) continue
        overrides.push({ field: options.fields.field(contextName), values: new Set(values.map((v) => stringify(v) ?? '')), index })
      }
    })
  }

  const bucket = createBucketer(options.group, VARIANT_SEED, totalWeight)
  const seedOf = compileStickiness(options.stickiness, options.fields)
  const pick = (target: number): number => {
    for (let i = 0; i < cumulative.length; i++) if (cumulative[i]! >= target) return i
    return -1
  }

  return (frame) => {
    for (const override of overrides) {
      const value = readField(frame, override.field)
      if (value !== undefined && override.values.has(value)) return override.index
    }
    const seed = seedOf(frame)
    return pick(seed === undefined ? 1 + Math.floor(Math.random() * totalWeight) : bucketOf(bucket, seed))
  }
}
