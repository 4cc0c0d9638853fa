import { stringify } from './coerce.js'
import type { EvaluatedToggle, Variant, VariantPayload } from './types.js'

// Every possible result of a flag is built once per payload, frozen and shared: evaluation
// returns one of them instead of allocating, and a server can cache each one's JSON.
// Key orders match what the old proxy serialises (unleash-proxy-behavior.md section 3.2).

export const DISABLED_VARIANT: Variant = Object.freeze({
  name: 'disabled',
  enabled: false,
  feature_enabled: false,
  featureEnabled: false,
})

export const ENABLED_WITHOUT_VARIANT: Variant = Object.freeze({
  name: 'disabled',
  enabled: false,
  feature_enabled: true,
  featureEnabled: true,
})

function payloadOf(definition: Record<string, unknown>): VariantPayload | undefined {
  const payload = definition.payload
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return undefined
  return Object.freeze({ ...(payload as VariantPayload) })
}

/** A feature-level variant: `{ name, payload?, enabled, feature_enabled, featureEnabled }`. */
export function featureVariant(definition: unknown): Variant {
  const raw = (definition ?? {}) as Record<string, unknown>
  const payload = payloadOf(raw)
  const name = stringify(raw.name) ?? ''
  return Object.freeze(
    payload
      ? { name, payload, enabled: true, feature_enabled: true, featureEnabled: true }
      : { name, enabled: true, feature_enabled: true, featureEnabled: true },
  )
}

/** A strategy-level variant: `{ name, enabled, payload?, feature_enabled, featureEnabled }`. */
export function strategyVariant(definition: unknown): Variant {
  const raw = (definition ?? {}) as Record<string, unknown>
  const payload = payloadOf(raw)
  const name = stringify(raw.name) ?? ''
  return Object.freeze(
    payload
      ? { name, enabled: true, payload, feature_enabled: true, featureEnabled: true }
      : { name, enabled: true, feature_enabled: true, featureEnabled: true },
  )
}

export function toggle(name: string, enabled: boolean, variant: Variant, impressionData: boolean): EvaluatedToggle {
  return Object.freeze({ name, enabled, variant, impressionData })
}

/** The answer for a name the engine does not know. */
export function unknownToggle(name: string): EvaluatedToggle {
  return toggle(name, false, DISABLED_VARIANT, false)
}
