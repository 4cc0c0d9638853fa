// The `/proxy` body, byte for byte as the old proxy wrote it (docs/old-proxy-compatibility.md 3.1-3.2),
// assembled from per-toggle JSON fragments. The engine returns the same frozen object for the
// same outcome, so each fragment is serialised once per payload and then only concatenated.
//
// The body's ETag comes from the same fragments (`answer`): each fragment gets a 96-bit
// fingerprint of its JSON when it is made, and an answer's ETag folds its fragments'
// fingerprints in order, so an evaluated answer costs no hash over its bytes (a hash over the
// whole body showed in every new-user request: see `npm run bench -- proxy`, every request a new
// user). The fingerprint depends on the JSON
// alone, so equal bodies get equal ETags on every instance and across payload reloads.
import type { EvaluatedToggle } from '@vexil/engine'
import { FoldedBody, type Fragment, fingerprinted } from './fingerprint.js'

/**
 * How toggles are written: `default` for GET and POST without a list; `listed` for POST with one,
 * and for Unleash 8.2's /api/frontend (the variant as the engine built it, impressionData always).
 */
type SerializationMode = 'default' | 'listed'

// Without a toggles list, the old proxy's /all wrote disabled toggles without `featureEnabled`.
const DISABLED_VARIANT_DEFAULT = '{"name":"disabled","enabled":false,"feature_enabled":false}'

export interface SerializedAnswer {
  body: string
  /** The body's length in UTF-8 bytes. */
  bytes: number
  /** `W/"<byte length in hex>-<16 base64 chars>"`: a weak ETag of the body (see above). */
  etag: string
}

export interface ToggleSerializer {
  body(toggles: readonly EvaluatedToggle[], mode: SerializationMode): string
  /** The body and its ETag from the fragments' fingerprints. */
  answer(toggles: readonly EvaluatedToggle[], mode: SerializationMode): SerializedAnswer
  /** One toggle's JSON (Edge's /api/frontend/features/<name>). */
  toggle(toggle: EvaluatedToggle, mode: SerializationMode): string
}

/** `hasImpressionData(name)`: whether the definition carries the key (the old proxy omits it otherwise). */
export function createToggleSerializer(hasImpressionData: (name: string) => boolean): ToggleSerializer {
  const fragments: Record<SerializationMode, WeakMap<EvaluatedToggle, Fragment>> = {
    default: new WeakMap(),
    listed: new WeakMap(),
  }

  function fragment(toggle: EvaluatedToggle, mode: SerializationMode): Fragment {
    const cache = fragments[mode]
    let made = cache.get(toggle)
    if (made === undefined) {
      const variant = mode === 'default' && !toggle.enabled ? DISABLED_VARIANT_DEFAULT : JSON.stringify(toggle.variant)
      const impression =
        mode !== 'default' || hasImpressionData(toggle.name) ? `,"impressionData":${toggle.impressionData}` : ''
      made = fingerprinted(
        `{"name":${JSON.stringify(toggle.name)},"enabled":${toggle.enabled},"variant":${variant}${impression}}`,
      )
      cache.set(toggle, made)
    }
    return made
  }

  function answer(toggles: readonly EvaluatedToggle[], mode: SerializationMode): SerializedAnswer {
    const folded = new FoldedBody('{"toggles":[', ']}')
    for (let i = 0; i < toggles.length; i++) folded.add(fragment(toggles[i]!, mode))
    return { body: folded.body(), bytes: folded.bytes, etag: `W/"${folded.tag()}"` }
  }

  return {
    toggle: (toggle, mode) => fragment(toggle, mode).json,
    body: (toggles, mode) => answer(toggles, mode).body,
    answer,
  }
}
