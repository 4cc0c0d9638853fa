/** Variant weights are per mille: 1000 is 100% (Unleash). */
export const VARIANT_WEIGHT_TOTAL = 1000

/**
 * Unleash's weight rule: `fix` variants keep their weight, the rest of 1000 is shared evenly by
 * the `variable` ones, the first ones getting the remainder. Pure, so the admin UI shows the
 * shares the service will store (`@vexil/service/admin-rules`).
 */
export function shareVariantWeights(
  variants: readonly { weightType?: string | undefined; weight: number }[],
): number[] {
  const variable = variants.filter((variant) => variant.weightType !== 'fix').length
  const fixedTotal = variants.reduce((sum, variant) => sum + (variant.weightType === 'fix' ? variant.weight : 0), 0)
  const rest = Math.max(0, VARIANT_WEIGHT_TOTAL - fixedTotal)
  const share = variable > 0 ? Math.floor(rest / variable) : 0
  let remainder = variable > 0 ? rest % variable : 0
  return variants.map((variant) => {
    if (variant.weightType === 'fix') return variant.weight
    const extra = remainder > 0 ? 1 : 0
    remainder -= extra
    return share + extra
  })
}
