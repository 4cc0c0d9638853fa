// The variant part of an explanation: the variant set the engine compiled (the matched strategy's
// or the flag's), chosen with the engine's own overrideIndex / weightedIndex, and what they read
// shown beside it: the override that matched, or the stickiness value, its bucket in the total
// weight and each variant's range.
import type { Frame } from '../frame.js'
import { readField } from '../frame.js'
import { bucketAt } from '../hash.js'
import type { SlotTable } from '../slot-table.js'
import type { VariantSet } from '../variants.js'
import type { VariantCandidate, VariantExplanation } from './types.js'

export const NO_VARIANT: VariantExplanation = {
  source: 'none',
  none: 'flag-off',
  strategyVariantsUnusable: false,
  candidates: [],
  totalWeight: 0,
  override: null,
  stickiness: null,
  stickinessUsed: null,
  stickinessValue: null,
  bucket: null,
  chosen: null,
}

/** Each variant's range of buckets: chosen when `from <= bucket <= to` (whole weights), the first whose running weight reaches the bucket. */
function candidates(set: VariantSet, names: readonly string[]): VariantCandidate[] {
  let before = 0
  return set.cumulative.map((running, i) => {
    if (running < 0) return { name: names[i]!, weight: 0, from: null, to: null }
    const candidate = { name: names[i]!, weight: running - before, from: before + 1, to: running }
    before = running
    return candidate
  })
}

/** What an override or the weights read, for a set whose choice (`index`, by override or not) is known. */
export function explainVariantSet(
  set: VariantSet,
  names: readonly string[],
  index: number,
  overridden: boolean,
  frame: Frame,
  slots: SlotTable,
): Omit<VariantExplanation, 'source' | 'none' | 'strategyVariantsUnusable'> {
  const shown = {
    candidates: candidates(set, names),
    totalWeight: set.totalWeight,
    chosen: index >= 0 ? names[index]! : null,
  }
  if (overridden) {
    const override = set.overrides.find((o) => {
      const value = readField(frame, o.field)
      return value !== undefined && o.values.has(value)
    })!
    return {
      ...shown,
      override: {
        contextName: slots.fieldName(override.field),
        values: [...override.values],
        seen: readField(frame, override.field)!,
        variant: names[override.index]!,
      },
      stickiness: null,
      stickinessUsed: null,
      stickinessValue: null,
      bucket: null,
    }
  }
  const stickiness =
    set.stickiness.length === 0 ? 'random' : set.emptyIsMissing ? slots.fieldName(set.stickiness[0]!) : 'default'
  // The value weightedIndex hashed: the first stickiness field present (variants.ts).
  let slot = -1
  let value: string | undefined
  for (let i = 0; i < set.stickiness.length && value === undefined; i++) {
    slot = set.stickiness[i]!
    value = readField(frame, slot)
  }
  if (value === '' && set.emptyIsMissing) value = undefined
  if (value === undefined)
    return { ...shown, override: null, stickiness, stickinessUsed: 'random', stickinessValue: null, bucket: null }
  return {
    ...shown,
    override: null,
    stickiness,
    stickinessUsed: slots.fieldName(slot),
    stickinessValue: value,
    bucket: bucketAt(frame.buckets, set.bucket, value),
  }
}
