// MurmurHash3 x86 32-bit over the UTF-8 bytes of `${group}:${id}` (evaluation-semantics.md section 2).
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
  for (let i = 0; i < text.length; i++) {
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
  h ^= state.length
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** Returns `id => murmur3(utf8(prefix + id), seed)`, with the prefix absorbed once. */
export function createPrefixHasher(prefix: string, seed: number): (id: string) => number {
  const start: HashState = { h: seed | 0, tail: 0, tailBytes: 0, length: 0 }
  pushString(start, prefix)
  const { h, tail, tailBytes, length } = start
  const state: HashState = { h, tail, tailBytes, length }
  return (id) => {
    state.h = h
    state.tail = tail
    state.tailBytes = tailBytes
    state.length = length
    pushString(state, id)
    return finish(state)
  }
}

/** murmur3 x86 32 of the UTF-8 bytes of `text`. */
export function murmur3(text: string, seed: number): number {
  const state: HashState = { h: seed | 0, tail: 0, tailBytes: 0, length: 0 }
  pushString(state, text)
  return finish(state)
}

/** Returns `id => (hash(`${group}:${id}`) % modulus) + 1`: the 1-based bucket of an id in a group. */
export function createBucketer(group: string, seed: number, modulus: number): (id: string) => number {
  const hash = createPrefixHasher(`${group}:`, seed)
  return (id) => (hash(id) % modulus) + 1
}
