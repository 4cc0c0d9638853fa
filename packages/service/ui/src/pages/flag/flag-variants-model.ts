// A flag's variants in one environment as a form, the way Unleash's environment variants form
// has them: one stickiness for all, each variant's share either fixed ("custom percentage") or a
// part of what the fixed ones leave, a payload typed string, JSON, CSV or number, and overrides
// that pin context values to a variant. Checked here as the service and the SDKs would take it.
import { shareVariantWeights, VARIANT_WEIGHT_TOTAL } from '@vexil/service/admin-rules'
import { variantPayloadProblem } from '../../variant-payload.ts'
import type { PayloadType, Variant } from './flag-types.ts'

/** Weights are per mille: 1000 is 100% (Unleash). */
export const TOTAL_WEIGHT = VARIANT_WEIGHT_TOTAL

export const STICKINESS_OPTIONS = ['default', 'userId', 'sessionId', 'random']

export const PAYLOAD_TYPES: { type: PayloadType; label: string }[] = [
  { type: 'string', label: 'String' },
  { type: 'json', label: 'JSON' },
  { type: 'csv', label: 'CSV' },
  { type: 'number', label: 'Number' },
]

export interface OverrideRow {
  contextName: string
  /** Comma-separated. */
  values: string
}

export interface VariantRow {
  name: string
  /** Unleash's `weightType: 'fix'`: the share is `percentage`, not a part of the rest. */
  fixed: boolean
  percentage: string
  /** '' for no payload. */
  payloadType: PayloadType | ''
  payload: string
  overrides: OverrideRow[]
}

export interface VariantsForm {
  stickiness: string
  variants: VariantRow[]
}

/** The problems of a form, keyed by the id of the input they are about (`<prefix>-weights` for the shares). */
export type Problems = Record<string, string>

export function fromVariants(variants: Variant[]): VariantsForm {
  return {
    stickiness: variants[0]?.stickiness ?? 'default',
    variants: variants.map((variant) => ({
      name: variant.name,
      fixed: variant.weightType === 'fix',
      percentage: variant.weightType === 'fix' ? String(variant.weight / 10) : '',
      payloadType: variant.payload?.type ?? '',
      payload: variant.payload?.value ?? '',
      overrides: (variant.overrides ?? []).map((o) => ({ contextName: o.contextName, values: o.values.join(', ') })),
    })),
  }
}

export const newVariant = (): VariantRow => ({
  name: '',
  fixed: false,
  percentage: '',
  payloadType: '',
  payload: '',
  overrides: [],
})

/** "33.3" → 333; undefined unless a percentage from 0 to 100 with at most one decimal (weights are per mille). */
export function parsePercentage(text: string): number | undefined {
  const trimmed = text.trim()
  if (!/^\d{1,3}(\.\d)?$/.test(trimmed)) return undefined
  const weight = Math.round(Number(trimmed) * 10)
  return weight <= TOTAL_WEIGHT ? weight : undefined
}

/** 333 → "33.3%". */
export const percent = (weight: number) => `${weight % 10 === 0 ? weight / 10 : (weight / 10).toFixed(1)}%`

/**
 * Each variant's weight as the service will store it (Unleash's rule, the service's own
 * shareVariantWeights). A fixed share that is not a valid percentage counts as 0 here (it is a
 * problem).
 */
export function shareWeights(form: VariantsForm): number[] {
  return shareVariantWeights(
    form.variants.map((v) => ({
      weightType: v.fixed ? 'fix' : 'variable',
      weight: v.fixed ? (parsePercentage(v.percentage) ?? 0) : 0,
    })),
  )
}

/** Why a payload would be refused or misread by the SDKs; undefined when fine (or when there is none). */
export function payloadProblem(type: PayloadType | '', value: string): string | undefined {
  if (type !== '' && value.trim() === '') return 'A payload needs a value (or choose "No payload").'
  return variantPayloadProblem(type, value)
}

const splitValues = (values: string) =>
  values
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)

/** Every problem of the form, keyed by input id (ids are `<prefix>-<variant>-<field>`). */
export function check(form: VariantsForm, prefix: string): Problems {
  const problems: Problems = {}
  const names = form.variants.map((v) => v.name.trim())
  form.variants.forEach((variant, i) => {
    const id = `${prefix}-${i}`
    const name = names[i] as string
    if (name === '') problems[`${id}-name`] = 'Name is required.'
    else if (names.indexOf(name) !== i)
      problems[`${id}-name`] = `Another variant is named "${name}": names must be unique.`
    if (variant.fixed && parsePercentage(variant.percentage) === undefined) {
      problems[`${id}-percentage`] = 'A percentage from 0 to 100, with at most one decimal (like 33.3).'
    }
    const payload = payloadProblem(variant.payloadType, variant.payload)
    if (payload) problems[`${id}-payload`] = payload
    variant.overrides.forEach((override, j) => {
      const values = splitValues(override.values)
      if (override.contextName.trim() === '' && values.length > 0)
        problems[`${id}-override-${j}-context`] = 'Which context field?'
      if (override.contextName.trim() !== '' && values.length === 0)
        problems[`${id}-override-${j}-values`] = 'List at least one value.'
    })
  })
  const fixed = form.variants.filter((v) => v.fixed)
  const fixedTotal = fixed.reduce((sum, v) => sum + (parsePercentage(v.percentage) ?? 0), 0)
  if (fixedTotal > TOTAL_WEIGHT)
    problems[`${prefix}-weights`] = `The custom percentages add up to ${percent(fixedTotal)}, more than 100%.`
  else if (form.variants.length > 0 && fixed.length === form.variants.length && fixedTotal !== TOTAL_WEIGHT) {
    problems[`${prefix}-weights`] =
      `With every percentage custom, they must add up to 100% (now ${percent(fixedTotal)}).`
  }
  return problems
}

/** The body of `PUT …/environments/:env/variants`. */
export function toBody(form: VariantsForm): Variant[] {
  const weights = shareWeights(form)
  return form.variants.map((variant, i) => {
    const overrides = variant.overrides
      .map((o) => ({ contextName: o.contextName.trim(), values: splitValues(o.values) }))
      .filter((o) => o.contextName !== '' && o.values.length > 0)
    return {
      name: variant.name.trim(),
      weight: weights[i] as number,
      weightType: variant.fixed ? 'fix' : 'variable',
      stickiness: form.stickiness,
      ...(variant.payloadType ? { payload: { type: variant.payloadType, value: variant.payload } } : {}),
      ...(overrides.length > 0 ? { overrides } : {}),
    }
  })
}
