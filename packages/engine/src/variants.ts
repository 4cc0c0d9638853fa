import { isObject, stringify, toNumber } from './coerce.js'
import { type FieldAccessor, type Frame, readField } from './frame.js'
import type { SlotTable } from './slot-table.js'
import { VARIANT_SEED, bucketAt } from './hash.js'

/** A compiled weighted choice (docs/evaluation.md section 6). */
export interface VariantSet {
  /** The group's record in the bucket table (hash.ts). */
  bucket: number
  totalWeight: number
  /** Running weight at each variant; -1 for a weight of 0 (never chosen by weight). */
  cumulative: number[]
  /** Stickiness: `default` reads these slots in order; a field reads one; `random` reads none. */
  stickiness: FieldAccessor[]
  /** Field stickiness treats an empty value as missing. */
  emptyIsMissing: boolean
  overrides: Array<{ field: FieldAccessor; values: Set<string>; index: number }>
  /** Two or more variants can be chosen by weight (OpenFeature's SPLIT). */
  splits: boolean
}

interface VariantSetOptions {
  /** Hash group: the feature name for feature variants, the strategy's groupId for strategy variants. */
  group: string
  stickiness: string | undefined
  /** Feature variants honour overrides; strategy variants have none. */
  overrides: boolean
  slots: SlotTable
}

function weightOf(variant: unknown): number {
  const weight = isObject(variant) ? toNumber(variant.weight) : Number.NaN
  return Number.isFinite(weight) && weight > 0 ? weight : 0
}

/** Strategy variants have no overrides: they share this empty list. */
const NO_OVERRIDES: VariantSet['overrides'] = []

function compileOverrides(variants: readonly unknown[], slots: SlotTable): VariantSet['overrides'] {
  const overrides: VariantSet['overrides'] = []
  variants.forEach((variant, index) => {
    const list = isObject(variant) ? variant.overrides : undefined
    if (!Array.isArray(list)) return
    const entries: readonly unknown[] = list
    for (const override of entries) {
      if (!isObject(override)) continue
      const contextName = stringify(override.contextName)
      const values = override.values
      if (!contextName || !Array.isArray(values)) continue
      overrides.push({
        field: slots.field(contextName),
        values: new Set(values.map((v: unknown) => stringify(v) ?? '')),
        index,
      })
    }
  })
  return overrides
}

/**
 * Compiles a weighted choice. Returns `undefined` when the list can never produce a variant
 * (empty, or a total weight of 0, which the Node SDK checks before overrides).
 */
export function compileVariantSet(variants: readonly unknown[], options: VariantSetOptions): VariantSet | undefined {
  const weights = variants.map(weightOf)
  const totalWeight = weights.reduce((sum, weight) => sum + weight, 0)
  if (totalWeight <= 0) return undefined
  let running = 0
  let weighted = 0
  const cumulative = weights.map((weight) => {
    if (weight <= 0) return -1
    weighted++
    return (running += weight)
  })
  const { stickiness, slots } = options
  const isDefault = stickiness === undefined || stickiness === '' || stickiness === 'default'
  return {
    bucket: slots.bucket(options.group, VARIANT_SEED, totalWeight),
    totalWeight,
    cumulative,
    // Node SDK: default variant stickiness is userId, then sessionId, then remoteAddress.
    stickiness: isDefault
      ? [slots.topLevel('userId'), slots.topLevel('sessionId'), slots.topLevel('remoteAddress')]
      : stickiness === 'random'
        ? []
        : [slots.field(stickiness)],
    emptyIsMissing: !isDefault,
    overrides: options.overrides ? compileOverrides(variants, slots) : NO_OVERRIDES,
    splits: weighted >= 2,
  }
}

/** The index of the chosen variant: a matching override, else the stickiness value's bucket. */
export function selectVariant(set: VariantSet, frame: Frame): number {
  const overridden = overrideIndex(set, frame)
  return overridden >= 0 ? overridden : weightedIndex(set, frame)
}

/** The index of the variant whose override matches the context, or -1. */
export function overrideIndex(set: VariantSet, frame: Frame): number {
  const overrides = set.overrides
  for (let i = 0; i < overrides.length; i++) {
    const override = overrides[i]!
    const value = readField(frame, override.field)
    if (value !== undefined && override.values.has(value)) return override.index
  }
  return -1
}

/** The index of the variant the stickiness value's bucket falls in (-1 when none has weight). */
export function weightedIndex(set: VariantSet, frame: Frame): number {
  let seed: string | undefined
  const stickiness = set.stickiness
  for (let i = 0; i < stickiness.length && seed === undefined; i++) seed = readField(frame, stickiness[i]!)
  if (seed === '' && set.emptyIsMissing) seed = undefined
  let target: number
  if (seed === undefined) {
    frame.usedRandom = true
    target = 1 + Math.floor(Math.random() * set.totalWeight)
  } else {
    target = bucketAt(frame.buckets, set.bucket, seed)
  }
  const cumulative = set.cumulative
  for (let i = 0; i < cumulative.length; i++) if (cumulative[i]! >= target) return i
  return -1
}
