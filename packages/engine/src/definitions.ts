// A well-formed client features payload, as the Unleash server (or Vexil's service) sends it:
// the types a producer builds payloads with (`ClientFeaturesPayload<FeatureDefinition,
// SegmentDefinition>`). The engine itself never trusts them: `load` takes the raw forms
// (`raw-payload.ts`) and checks every field.
import type { VariantPayload } from './types.js'

export interface ConstraintDefinition {
  contextName: string
  operator: string
  values?: string[]
  value?: string
  inverted?: boolean
  caseInsensitive?: boolean
}

export interface SegmentDefinition {
  id: number
  name?: string
  constraints: ConstraintDefinition[]
}

export interface VariantOverride {
  contextName: string
  values: string[]
}

export interface VariantDefinition {
  name: string
  weight: number
  weightType?: string
  stickiness?: string
  payload?: VariantPayload
  overrides?: VariantOverride[]
}

export interface StrategyDefinition {
  name: string
  parameters?: Record<string, unknown>
  constraints?: ConstraintDefinition[]
  segments?: number[]
  variants?: VariantDefinition[]
  sortOrder?: number
}

export interface FeatureDependency {
  feature: string
  enabled?: boolean
  variants?: string[]
}

export interface FeatureDefinition {
  name: string
  enabled: boolean
  strategies: StrategyDefinition[]
  variants?: VariantDefinition[]
  dependencies?: FeatureDependency[]
  impressionData?: boolean
  type?: string
  project?: string
  description?: string
  stale?: boolean
  [key: string]: unknown
}
