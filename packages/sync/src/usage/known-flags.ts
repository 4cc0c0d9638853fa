// What usage metrics may name, from the current payload: its flags, and for each flag the
// variant names it can report. Counts for anything else are dropped, so what the proxy keeps
// and sends upstream is bounded by the payload, not by what callers post.
import type { ClientFeaturesPayload } from '@vexil/engine'

/** Flag name → the variant names counted for it. */
export type KnownFlags = ReadonlyMap<string, ReadonlySet<string>>

/**
 * A flag's countable variants are the names in its `variants` and in its strategies' `variants`,
 * plus `disabled` (what SDKs report when no variant applies). Nothing else: a name the payload
 * does not define is one no evaluation of this proxy produced. (A server SDK's own fallback
 * variant names are dropped too; see the README's Security section.)
 */
export function knownFlags(state: ClientFeaturesPayload): KnownFlags {
  const known = new Map<string, ReadonlySet<string>>()
  const onlyDisabled: ReadonlySet<string> = new Set(['disabled'])
  for (const feature of state.features) {
    if (typeof feature?.name !== 'string') continue
    const names = new Set<string>(['disabled'])
    addNames(names, feature.variants)
    if (Array.isArray(feature.strategies))
      for (const strategy of feature.strategies) addNames(names, strategy?.variants)
    known.set(feature.name, names.size === 1 ? onlyDisabled : names)
  }
  return known
}

// --- Internal helpers ---

/** Payloads are the upstream's data: a malformed variant list adds nothing. */
function addNames(names: Set<string>, variants: unknown): void {
  if (!Array.isArray(variants)) return
  for (const variant of variants) if (typeof variant?.name === 'string') names.add(variant.name)
}
