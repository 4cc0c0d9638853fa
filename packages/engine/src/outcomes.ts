import { isObject, stringify } from './coerce.js'
import type { RawVariant } from './raw-payload.js'
import type { EvaluatedToggle, Variant, VariantPayload } from './types.js'

// Every possible result of a flag is built once per payload, frozen and shared: evaluation
// returns one of them instead of allocating, and a server can cache each one's JSON. Each is
// built, and its variant definition checked, on first use: most are never asked for, and
// building them all made compiling slower (see `npm run bench -- engine`, "compile 10k flags").
// Key orders match what the old proxy serialises (docs/old-proxy-compatibility.md section 3.2).

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

function payloadOf(payload: unknown): VariantPayload | undefined {
  if (!isObject(payload) || Array.isArray(payload)) return undefined
  // The one field passed on unchecked: copied as received, as the Node SDK does. Unleash's
  // server only sends `{ type, value }` strings; a malformed payload is the sender's to fix.
  return Object.freeze({ ...payload }) as unknown as VariantPayload
}

/** A feature-level variant: `{ name, payload?, enabled, feature_enabled, featureEnabled }`. */
export function featureVariant(definition: unknown): Variant {
  const raw: RawVariant = isObject(definition) ? definition : {}
  const payload = payloadOf(raw.payload)
  const name = stringify(raw.name) ?? ''
  return Object.freeze(
    payload
      ? { name, payload, enabled: true, feature_enabled: true, featureEnabled: true }
      : { name, enabled: true, feature_enabled: true, featureEnabled: true },
  )
}

/** A strategy-level variant: `{ name, enabled, payload?, feature_enabled, featureEnabled }`. */
export function strategyVariant(definition: unknown): Variant {
  const raw: RawVariant = isObject(definition) ? definition : {}
  const payload = payloadOf(raw.payload)
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
