// A strategy's variant rows: to and from the API's variants, their weights as the service will
// share them out, and their problems (names, fixed weights, JSON and number payloads).
import { shareVariantWeights, VARIANT_WEIGHT_TOTAL as TOTAL } from '@vexil/service/admin-rules'
import { variantPayloadProblem } from '../../variant-payload.ts'
import { newKey, type Problems } from './constraints-model.ts'
import type { StrategyVariant } from './strategy-summary.tsx'

export type PayloadType = '' | 'string' | 'json' | 'number' | 'csv'

export interface VariantRow {
  key: number
  name: string
  weightType: 'variable' | 'fix'
  /** A fixed weight in percent, as typed ("12.5"); variable ones are shared out (variantShares). */
  percent: string
  stickiness: string
  payloadType: PayloadType
  payload: string
}

export const newVariant = (stickiness: string): VariantRow => ({
  key: newKey(),
  name: '',
  weightType: 'variable',
  percent: '',
  stickiness,
  payloadType: '',
  payload: '',
})

export function fromVariant(v: StrategyVariant): VariantRow {
  return {
    key: newKey(),
    name: v.name,
    weightType: v.weightType === 'fix' ? 'fix' : 'variable',
    percent: v.weightType === 'fix' ? String(v.weight / 10) : '',
    stickiness: v.stickiness ?? 'default',
    payloadType: (v.payload?.type ?? '') as PayloadType,
    payload: v.payload?.value ?? '',
  }
}

/** As the API takes it: variable weights are shared out by the service (Unleash's rule); fixed ones are tenths of a percent. */
export function toVariant(v: VariantRow) {
  return {
    name: v.name.trim(),
    weightType: v.weightType,
    weight: v.weightType === 'fix' ? Math.round(Number(v.percent) * 10) : 0,
    stickiness: v.stickiness,
    ...(v.payloadType ? { payload: { type: v.payloadType, value: v.payload } } : {}),
  }
}

/** Ids of the variant fields that problems are keyed by (`all`: the weights together). */
export const VARIANT_FIELD = {
  all: 'variants',
  name: (v: VariantRow) => `variant-${v.key}-name`,
  weight: (v: VariantRow) => `variant-${v.key}-weight`,
  payload: (v: VariantRow) => `variant-${v.key}-payload`,
}

/**
 * Each variant's weight in tenths of a percent, as the service will store it (Unleash's rule:
 * fixed weights kept, the rest shared evenly by the variable ones, the first getting the
 * remainder); undefined for a fixed weight that is not a number.
 */
export function variantShares(variants: VariantRow[]): (number | undefined)[] {
  const fixed = variants.map((v) => (v.weightType === 'fix' ? fixedWeight(v) : undefined))
  const shares = shareVariantWeights(variants.map((v, i) => ({ weightType: v.weightType, weight: fixed[i] ?? 0 })))
  return variants.map((v, i) => (v.weightType === 'fix' ? fixed[i] : shares[i]))
}

function fixedWeight(v: VariantRow): number | undefined {
  const percent = Number(v.percent)
  return v.percent.trim() === '' || !Number.isFinite(percent) || percent < 0 || percent > 100
    ? undefined
    : Math.round(percent * 10)
}

/** Names missing or used twice, fixed weights that are not percentages or add up wrong, payloads SDKs could not read. */
export function variantProblems(variants: VariantRow[], submitted: boolean): Problems {
  const problems: Problems = {}
  const names = new Set<string>()
  for (const v of variants) {
    const name = v.name.trim()
    if (!name && submitted) problems[VARIANT_FIELD.name(v)] = 'A variant needs a name.'
    else if (name && names.has(name)) problems[VARIANT_FIELD.name(v)] = `There is already a variant named ${name}.`
    names.add(name)
    if (v.weightType === 'fix' && (submitted || v.percent.trim() !== '') && fixedWeight(v) === undefined)
      problems[VARIANT_FIELD.weight(v)] = 'A fixed weight is a percentage from 0 to 100.'
    const payload = payloadProblem(v, submitted)
    if (payload) problems[VARIANT_FIELD.payload(v)] = payload
  }
  const shares = variantShares(variants)
  const fixedTotal = variants.reduce((sum, v, i) => sum + (v.weightType === 'fix' ? (shares[i] ?? 0) : 0), 0)
  const variable = variants.some((v) => v.weightType === 'variable')
  if (fixedTotal > TOTAL)
    problems[VARIANT_FIELD.all] = `The fixed weights add up to ${fixedTotal / 10}%, more than 100%.`
  else if (variants.length > 0 && !variable && fixedTotal !== TOTAL)
    problems[VARIANT_FIELD.all] =
      `The fixed weights add up to ${fixedTotal / 10}%: with no variant sharing the rest automatically, they must add up to 100%.`
  return problems
}

/** A JSON payload must parse and a number payload be a number (what SDKs will read it as); an empty one is only flagged on saving. */
function payloadProblem(v: VariantRow, submitted: boolean): string | undefined {
  if (v.payloadType && v.payload.trim() === '' && submitted) return 'A payload needs a value (or choose "No payload").'
  return variantPayloadProblem(v.payloadType, v.payload)
}
