// The `/proxy` body, byte for byte as the old proxy wrote it (docs/old-proxy-compatibility.md 3.1-3.2),
// assembled from per-toggle JSON fragments. The engine returns the same frozen object for the
// same outcome, so each fragment is serialised once per payload and then only concatenated.
//
// The body's ETag comes from the same fragments (`answer`): each fragment gets a 96-bit
// fingerprint of its JSON when it is made, and an answer's ETag folds its fragments'
// fingerprints in order, so an evaluated answer costs no hash over its bytes (SHA-1 over a
// 200-flag body measured 4-5% of a new-user request). The fingerprint depends on the JSON
// alone, so equal bodies get equal ETags on every instance and across payload reloads.
import { createHash } from 'node:crypto'
import type { EvaluatedToggle } from '@vexil/engine'

/**
 * How toggles are written: `default` for GET and POST without a list; `listed` for POST with one,
 * and for Unleash 8.2's /api/frontend (the variant as the engine built it, impressionData always).
 */
export type SerializationMode = 'default' | 'listed'

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
  const fragments: Record<SerializationMode, WeakMap<EvaluatedToggle, Fragment>> = { default: new WeakMap(), listed: new WeakMap() }

  function fragment(toggle: EvaluatedToggle, mode: SerializationMode): Fragment {
    const cache = fragments[mode]
    let made = cache.get(toggle)
    if (made === undefined) {
      const variant = mode === 'default' && !toggle.enabled ? DISABLED_VARIANT_DEFAULT : JSON.stringify(toggle.variant)
      const impression = mode !== 'default' || hasImpressionData(toggle.name) ? `,"impressionData":${toggle.impressionData}` : ''
      made = fingerprinted(`{"name":${JSON.stringify(toggle.name)},"enabled":${toggle.enabled},"variant":${variant}${impression}}`)
      cache.set(toggle, made)
    }
    return made
  }

  function answer(toggles: readonly EvaluatedToggle[], mode: SerializationMode): SerializedAnswer {
    let text = '{"toggles":['
    let bytes = EMPTY_BODY_BYTES
    let a: number = LANE_SEEDS[0]
    let b: number = LANE_SEEDS[1]
    let c: number = LANE_SEEDS[2]
    for (let i = 0; i < toggles.length; i++) {
      const made = fragment(toggles[i]!, mode)
      if (i > 0) {
        text += ','
        bytes++
      }
      text += made.json
      bytes += made.bytes
      a = mix(a, made.a)
      b = mix(b, made.b)
      c = mix(c, made.c)
    }
    const n = toggles.length
    return { body: `${text}]}`, bytes, etag: `W/"${bytes.toString(16)}-${base64Of(finish(a, n), finish(b, n), finish(c, n))}"` }
  }

  return {
    toggle: (toggle, mode) => fragment(toggle, mode).json,
    body: (toggles, mode) => answer(toggles, mode).body,
    answer,
  }
}

// --- Fingerprints ---

/** A toggle's JSON, its UTF-8 length, and 96 bits of SHA-1 of it (made once per fragment). */
interface Fragment {
  readonly json: string
  readonly bytes: number
  readonly a: number
  readonly b: number
  readonly c: number
}

const EMPTY_BODY_BYTES = '{"toggles":[]}'.length
const LANE_SEEDS = [0x3c6ef372, 0x5be0cd19, 0x1f83d9ab] as const

function fingerprinted(json: string): Fragment {
  const digest = createHash('sha1').update(json, 'utf8').digest()
  return { json, bytes: Buffer.byteLength(json, 'utf8'), a: digest.readInt32LE(0), b: digest.readInt32LE(4), c: digest.readInt32LE(8) }
}

/** One step of MurmurHash3's block mix: order-sensitive, so a sequence's fold depends on its order. */
function mix(h: number, k: number): number {
  k = Math.imul(k, 0xcc9e2d51)
  k = (k << 15) | (k >>> 17)
  h ^= Math.imul(k, 0x1b873593)
  h = (h << 13) | (h >>> 19)
  return (Math.imul(h, 5) + 0xe6546b64) | 0
}

/** MurmurHash3's finaliser, with the number of fragments folded in. */
function finish(h: number, count: number): number {
  h ^= count
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return h ^ (h >>> 16)
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** Three 32-bit words as 16 base64 characters (96 bits, six at a time). */
function base64Of(a: number, b: number, c: number): string {
  let out = ''
  for (const word of [a >>> 8, ((a & 0xff) << 16) | (b >>> 16), ((b & 0xffff) << 8) | (c >>> 24), c & 0xffffff]) {
    out += BASE64[(word >>> 18) & 63]! + BASE64[(word >>> 12) & 63]! + BASE64[(word >>> 6) & 63]! + BASE64[word & 63]!
  }
  return out
}

