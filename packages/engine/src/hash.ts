// MurmurHash3 x86 32-bit over the UTF-8 bytes of `${group}:${id}` (docs/evaluation.md section 2).
//
// Every rollout and variant hashes a key whose prefix (the group id and the colon) is fixed by
// the payload, so the prefix is absorbed once at compile time and evaluation only hashes the
// context value. The bytes are produced straight from UTF-16 code units without an encoder
// allocation; `murmurhash3js-revisited` over `TextEncoder` bytes is the oracle in the tests.

export const ROLLOUT_SEED = 0
export const VARIANT_SEED = 86028157

const C1 = 0xcc9e2d51
const C2 = 0x1b873593

/** The hash state after some bytes: full blocks mixed into `h`, up to three bytes pending in `tail`. */
interface HashState {
  h: number
  tail: number
  tailBytes: number
  length: number
}

function mixBlock(h: number, k: number): number {
  k = Math.imul(k, C1)
  k = (k << 15) | (k >>> 17)
  k = Math.imul(k, C2)
  h ^= k
  h = (h << 13) | (h >>> 19)
  return (Math.imul(h, 5) + 0xe6546b64) | 0
}

function pushByte(state: HashState, byte: number): void {
  state.tail |= byte << (state.tailBytes * 8)
  state.length++
  if (++state.tailBytes === 4) {
    state.h = mixBlock(state.h, state.tail)
    state.tail = 0
    state.tailBytes = 0
  }
}

function pushString(state: HashState, text: string): void {
  const length = text.length
  let i = 0
  // Fast path: whole blocks of four ASCII characters (ids and group names nearly always are).
  if (state.tailBytes === 0) {
    let h = state.h
    while (i + 4 <= length) {
      const c0 = text.charCodeAt(i)
      const c1 = text.charCodeAt(i + 1)
      const c2 = text.charCodeAt(i + 2)
      const c3 = text.charCodeAt(i + 3)
      if ((c0 | c1 | c2 | c3) >= 0x80) break
      h = mixBlock(h, c0 | (c1 << 8) | (c2 << 16) | (c3 << 24))
      i += 4
    }
    state.h = h
    state.length += i
  }
  for (; i < length; i++) {
    let code = text.charCodeAt(i)
    if (code < 0x80) {
      pushByte(state, code)
    } else if (code < 0x800) {
      pushByte(state, 0xc0 | (code >> 6))
      pushByte(state, 0x80 | (code & 0x3f))
    } else {
      if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length) {
        const low = text.charCodeAt(i + 1)
        if (low >= 0xdc00 && low < 0xe000) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00)
          i++
          pushByte(state, 0xf0 | (code >> 18))
          pushByte(state, 0x80 | ((code >> 12) & 0x3f))
          pushByte(state, 0x80 | ((code >> 6) & 0x3f))
          pushByte(state, 0x80 | (code & 0x3f))
          continue
        }
      }
      // A lone surrogate encodes as U+FFFD, as TextEncoder does.
      if (code >= 0xd800 && code < 0xe000) code = 0xfffd
      pushByte(state, 0xe0 | (code >> 12))
      pushByte(state, 0x80 | ((code >> 6) & 0x3f))
      pushByte(state, 0x80 | (code & 0x3f))
    }
  }
}

function finish(state: HashState): number {
  let h = state.h
  if (state.tailBytes > 0) {
    let k = Math.imul(state.tail, C1)
    k = (k << 15) | (k >>> 17)
    k = Math.imul(k, C2)
    h ^= k
  }
  return fmixSigned(h ^ state.length) >>> 0
}

/** The hash state after a fixed key prefix: what every evaluation of the same group starts from. */
export interface PrefixState {
  readonly h: number
  readonly tail: number
  readonly tailBytes: number
  readonly length: number
}

/** Absorbs `prefix` once, at compile time. */
export function absorbPrefix(prefix: string, seed: number): PrefixState {
  const state: HashState = { h: seed | 0, tail: 0, tailBytes: 0, length: 0 }
  pushString(state, prefix)
  return state
}

const scratch: HashState = { h: 0, tail: 0, tailBytes: 0, length: 0 }

/**
 * murmur3 of `prefix + id` from the prefix's state. One shared function rather than a closure
 * per group, so the hot loop stays monomorphic. ASCII ids are hashed in locals: first the bytes
 * that complete the prefix's partial block, then whole blocks of four, then the tail.
 */
function hashWithPrefix(prefix: PrefixState, id: string): number {
  const length = id.length
  let h = prefix.h
  let k = prefix.tail
  let n = prefix.tailBytes
  let i = 0
  while (n !== 0 && i < length) {
    const code = id.charCodeAt(i++)
    if (code >= 0x80) return hashSlow(prefix, id)
    k |= code << (n << 3)
    if (++n === 4) {
      h = mixBlock(h, k)
      k = 0
      n = 0
    }
  }
  const blocksEnd = length - ((length - i) & 3)
  for (; i < blocksEnd; i += 4) {
    const c0 = id.charCodeAt(i)
    const c1 = id.charCodeAt(i + 1)
    const c2 = id.charCodeAt(i + 2)
    const c3 = id.charCodeAt(i + 3)
    if ((c0 | c1 | c2 | c3) >= 0x80) return hashSlow(prefix, id)
    h = mixBlock(h, c0 | (c1 << 8) | (c2 << 16) | (c3 << 24))
  }
  for (; i < length; i++) {
    const code = id.charCodeAt(i)
    if (code >= 0x80) return hashSlow(prefix, id)
    k |= code << (n++ << 3)
  }
  if (n > 0) {
    k = Math.imul(k, C1)
    k = (k << 15) | (k >>> 17)
    h ^= Math.imul(k, C2)
  }
  return fmixSigned(h ^ (prefix.length + length))
}

/** Ids with non-ASCII characters: encode UTF-8 on the fly. */
function hashSlow(prefix: PrefixState, id: string): number {
  scratch.h = prefix.h
  scratch.tail = prefix.tail
  scratch.tailBytes = prefix.tailBytes
  scratch.length = prefix.length
  pushString(scratch, id)
  return finish(scratch) | 0
}

/** The final mix, as a signed int32: kept signed on the hot path so V8 never boxes it. */
function fmixSigned(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return h ^ (h >>> 16)
}

/** murmur3 x86 32 of the UTF-8 bytes of `text`. */
export function murmur3(text: string, seed: number): number {
  const state: HashState = { h: seed | 0, tail: 0, tailBytes: 0, length: 0 }
  pushString(state, text)
  return finish(state)
}

/** A compiled bucket: the group's prefix state and the modulus. */
export interface Bucketer {
  readonly prefix: PrefixState
  readonly modulus: number
}

export function createBucketer(group: string, seed: number, modulus: number): Bucketer {
  return { prefix: absorbPrefix(`${group}:`, seed), modulus }
}

/** The 1-based bucket of `id` in the group: `(murmur3(`${group}:${id}`, seed) % modulus) + 1`. */
export function bucketOf(bucketer: Bucketer, id: string): number {
  const hash = hashWithPrefix(bucketer.prefix, id)
  const modulus = bucketer.modulus
  // `(hash >>> 0) % modulus` is a float modulo in V8 (the unsigned value may not fit an int32),
  // measured 1.5x slower than this integer form: hash = 2 * (hash >>> 1) + (hash & 1).
  if (modulus < 0x40000000) return ((((hash >>> 1) % modulus) * 2 + (hash & 1)) % modulus) + 1
  return ((hash >>> 0) % modulus) + 1
}
