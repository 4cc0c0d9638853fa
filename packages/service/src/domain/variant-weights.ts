import { badData } from '../errors.js'
import { shareVariantWeights, VARIANT_WEIGHT_TOTAL as TOTAL } from '../variant-shares.js'

interface Weighted {
  name: string
  weight: number
  weightType: 'variable' | 'fix'
}

/**
 * Unleash's weight rule: `fix` variants keep their weight, the rest of 1000 is shared evenly by
 * the `variable` ones (the first ones get the remainder). Names must be unique.
 */
export function fixVariantWeights<T extends Weighted>(variants: T[], field = 'variants'): T[] {
  if (variants.length === 0) return variants
  const names = new Set<string>()
  for (const variant of variants) {
    if (names.has(variant.name)) throw badData(`${field}: the variant name "${variant.name}" is used twice.`)
    names.add(variant.name)
  }
  const variable = variants.filter((variant) => variant.weightType !== 'fix')
  const fixedTotal = variants
    .filter((variant) => variant.weightType === 'fix')
    .reduce((sum, variant) => sum + variant.weight, 0)
  if (variable.length === 0) {
    if (fixedTotal !== TOTAL)
      throw badData(`${field}: there must be at least one "variable" variant, or fixed weights must add up to 1000.`)
    return variants
  }
  if (fixedTotal > TOTAL) throw badData(`${field}: the fixed weights add up to ${fixedTotal}, more than 1000.`)
  const weights = shareVariantWeights(variants)
  return variants.map((variant, i) =>
    variant.weightType === 'fix' ? variant : { ...variant, weight: weights[i] as number },
  )
}
