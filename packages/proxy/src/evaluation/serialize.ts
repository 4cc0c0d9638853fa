// The `/proxy` body, byte for byte as the old proxy wrote it (docs/old-proxy-compatibility.md 3.1-3.2),
// assembled from per-toggle JSON fragments. The engine returns the same frozen object for the
// same outcome, so each fragment is serialised once per payload and then only concatenated.
import type { EvaluatedToggle } from '@vexil/engine'

/**
 * How toggles are written: `default` for GET and POST without a list; `listed` for POST with one,
 * and for Unleash 8.2's /api/frontend (the variant as the engine built it, impressionData always).
 */
export type SerializationMode = 'default' | 'listed'

// Without a toggles list, the old proxy's /all wrote disabled toggles without `featureEnabled`.
const DISABLED_VARIANT_DEFAULT = '{"name":"disabled","enabled":false,"feature_enabled":false}'

export interface ToggleSerializer {
  body(toggles: readonly EvaluatedToggle[], mode: SerializationMode): string
  /** One toggle's JSON (Edge's /api/frontend/features/<name>). */
  toggle(toggle: EvaluatedToggle, mode: SerializationMode): string
}

/** `hasImpressionData(name)`: whether the definition carries the key (the old proxy omits it otherwise). */
export function createToggleSerializer(hasImpressionData: (name: string) => boolean): ToggleSerializer {
  const fragments: Record<SerializationMode, WeakMap<EvaluatedToggle, string>> = { default: new WeakMap(), listed: new WeakMap() }

  function fragment(toggle: EvaluatedToggle, mode: SerializationMode): string {
    const cache = fragments[mode]
    let json = cache.get(toggle)
    if (json === undefined) {
      const variant = mode === 'default' && !toggle.enabled ? DISABLED_VARIANT_DEFAULT : JSON.stringify(toggle.variant)
      const impression = mode !== 'default' || hasImpressionData(toggle.name) ? `,"impressionData":${toggle.impressionData}` : ''
      json = `{"name":${JSON.stringify(toggle.name)},"enabled":${toggle.enabled},"variant":${variant}${impression}}`
      cache.set(toggle, json)
    }
    return json
  }

  return {
    toggle: fragment,
    body(toggles, mode) {
      let body = '{"toggles":['
      for (let i = 0; i < toggles.length; i++) {
        if (i > 0) body += ','
        body += fragment(toggles[i]!, mode)
      }
      return `${body}]}`
    },
  }
}

