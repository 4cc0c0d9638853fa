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

const scratch: HashState = { h: 0, tail: 0, tailBytes: 0, length: 0 }

/**
 * murmur3 of `prefix + id` from the prefix's state, filed at `at` in a bucket table (below). One
 * shared function rather than a closure per group, so the hot loop stays monomorphic. An id is
 * hashed from its prepared blocks (below) when it has them, else from its characters.
 */
function hashWithPrefix(table: Float64Array, at: number, id: string): number {
  const prepared = preparedId(id)
  if (prepared === undefined) return hashChars(table, at, id)
  let h = table[at + H]! | 0
  const n = table[at + TAIL_BYTES]! | 0
  if (n !== 0) h = mixBlock(h, table[at + TAIL]! | 0 | prepared.head[n]!)
  const blocks = prepared.blocks
  for (let j = n * MAX_BLOCKS, end = j + prepared.count[n]!; j < end; j++) {
    h ^= blocks[j]!
    h = (h << 13) | (h >>> 19)
    h = (Math.imul(h, 5) + 0xe6546b64) | 0
  }
  if (prepared.tailBytes[n] !== 0) {
    let k = Math.imul(prepared.tail[n]!, C1)
    k = (k << 15) | (k >>> 17)
    h ^= Math.imul(k, C2)
  }
  return fmixSigned(h ^ ((table[at + LENGTH]! | 0) + prepared.length))
}

// --- Ids prepared once, hashed many times ---
//
// A context's stickiness value is hashed once per rollout and variant group it meets (dozens of
// times per context on the 200-flag workload). Its bytes are the same for every group; only
// where they fall in murmur's 4-byte blocks changes, with the group prefix's length mod 4. So an
// id is read once into its blocks for each of the four alignments, each block already through
// murmur's per-block multiply-rotate-multiply, and a group then mixes ready blocks. Reading the
// characters for every group showed in a new-user GET /proxy, whose query-string values are
// sliced strings, slower to read than the strings of a JSON body (see `npm run bench -- proxy`,
// every request a new user).

/** Blocks kept per alignment: ASCII ids of up to 4 * MAX_BLOCKS + 3 characters are prepared. */
const MAX_BLOCKS = 32

interface PreparedId {
  id: string
  length: number
  /** Per alignment n (the prefix's pending bytes): the id's first 4 - n bytes, shifted past them. */
  readonly head: Int32Array
  /** Per alignment: whole blocks after the head, mixed (at n * MAX_BLOCKS). */
  readonly count: Int32Array
  readonly blocks: Int32Array
  /** Per alignment: the bytes after the last whole block, and how many. */
  readonly tail: Int32Array
  readonly tailBytes: Int32Array
}

const newPrepared = (): PreparedId => ({
  id: '',
  length: -1,
  head: new Int32Array(4),
  count: new Int32Array(4),
  blocks: new Int32Array(4 * MAX_BLOCKS),
  tail: new Int32Array(4),
  tailBytes: new Int32Array(4),
})

/** The two ids prepared last (an evaluation hashes its userId and sessionId in turn). */
let recent = newPrepared()
let older = newPrepared()

function preparedId(id: string): PreparedId | undefined {
  if (recent.id === id && recent.length >= 0) return recent
  if (older.id === id && older.length >= 0) {
    const hit = older
    older = recent
    recent = hit
    return hit
  }
  const length = id.length
  if (length < 3 || length > 4 * MAX_BLOCKS + 3) return undefined
  const target = older
  for (let i = 0; i < length; i++) if (id.charCodeAt(i) >= 0x80) return undefined
  for (let n = 0; n < 4; n++) {
    const skip = (4 - n) & 3
    let head = 0
    for (let i = 0; i < skip; i++) head |= id.charCodeAt(i) << ((n + i) << 3)
    target.head[n] = head
    const count = (length - skip) >> 2
    target.count[n] = count
    let i = skip
    for (let j = 0; j < count; j++, i += 4) {
      let k =
        id.charCodeAt(i) | (id.charCodeAt(i + 1) << 8) | (id.charCodeAt(i + 2) << 16) | (id.charCodeAt(i + 3) << 24)
      k = Math.imul(k, C1)
      k = (k << 15) | (k >>> 17)
      target.blocks[n * MAX_BLOCKS + j] = Math.imul(k, C2)
    }
    let tail = 0
    for (let t = 0; i < length; i++, t++) tail |= id.charCodeAt(i) << (t << 3)
    target.tail[n] = tail
    target.tailBytes[n] = (length - skip) & 3
  }
  target.id = id
  target.length = length
  older = recent
  recent = target
  return target
}

/**
 * The same from the id's characters (ids not prepared): ASCII ids are hashed in locals, first the
 * bytes that complete the prefix's partial block, then whole blocks of four, then the tail.
 */
function hashChars(table: Float64Array, at: number, id: string): number {
  const length = id.length
  let h = table[at + H]! | 0
  let k = table[at + TAIL]! | 0
  let n = table[at + TAIL_BYTES]! | 0
  let i = 0
  while (n !== 0 && i < length) {
    const code = id.charCodeAt(i++)
    if (code >= 0x80) return hashSlow(table, at, id)
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
    if ((c0 | c1 | c2 | c3) >= 0x80) return hashSlow(table, at, id)
    h = mixBlock(h, c0 | (c1 << 8) | (c2 << 16) | (c3 << 24))
  }
  for (; i < length; i++) {
    const code = id.charCodeAt(i)
    if (code >= 0x80) return hashSlow(table, at, id)
    k |= code << (n++ << 3)
  }
  if (n > 0) {
    k = Math.imul(k, C1)
    k = (k << 15) | (k >>> 17)
    h ^= Math.imul(k, C2)
  }
  return fmixSigned(h ^ ((table[at + LENGTH]! | 0) + length))
}

/** Ids with non-ASCII characters: encode UTF-8 on the fly. */
function hashSlow(table: Float64Array, at: number, id: string): number {
  scratch.h = table[at + H]! | 0
  scratch.tail = table[at + TAIL]! | 0
  scratch.tailBytes = table[at + TAIL_BYTES]! | 0
  scratch.length = table[at + LENGTH]! | 0
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

// --- Bucket tables ---
//
// A payload's buckets (every rollout's and every variant set's group, seed and modulus) live side
// by side in one typed array, a record of RECORD numbers each, with room for what a rollout reads
// beside its bucket (its percentage and stickiness fields; see strategies/rollout.ts). Evaluating
// 200 flags reads about a hundred buckets: from one array they are a few cache lines, where a
// gate -> rollout -> bucketer -> prefix chain of objects scattered over the heap missed the CPU
// cache at each step once a server's request handling had evicted them (see
// `npm run bench -- engine`, evaluateAll with cold CPU caches).

/** Numbers per record: the prefix state, the modulus, then three for the record's owner. */
const RECORD = 8
const H = 0
const TAIL = 1
const TAIL_BYTES = 2
const LENGTH = 3
const MODULUS = 4
/** The first of the three numbers a record's owner may keep (a rollout's percentage and fields). */
export const EXTRA = 5

interface BucketTable {
  /** Records from offset 0; replaced by a larger array as records are added (at compile time only). */
  data: Float64Array
  /** Numbers in use. */
  size: number
}

export function createBucketTable(): BucketTable {
  return { data: new Float64Array(64 * RECORD), size: 0 }
}

/**
 * Files the bucket of `group` (its key prefix `${group}:` absorbed once) with `seed` and
 * `modulus`, and up to three numbers of its owner's; returns the record's offset.
 */
export function addBucket(
  table: BucketTable,
  group: string,
  seed: number,
  modulus: number,
  extra?: readonly number[],
): number {
  if (table.size + RECORD > table.data.length) {
    const grown = new Float64Array(table.data.length * 2)
    grown.set(table.data)
    table.data = grown
  }
  const at = table.size
  const data = table.data
  // Written number by number: an array per record (and the key prefix as a string of its own)
  // was garbage on every compile (see `npm run bench -- engine`, "compile 10k flags").
  const prefix: HashState = { h: seed | 0, tail: 0, tailBytes: 0, length: 0 }
  pushString(prefix, group)
  pushByte(prefix, 58) // ':'
  data[at + H] = prefix.h
  data[at + TAIL] = prefix.tail
  data[at + TAIL_BYTES] = prefix.tailBytes
  data[at + LENGTH] = prefix.length
  data[at + MODULUS] = modulus
  if (extra) for (let i = 0; i < extra.length; i++) data[at + EXTRA + i] = extra[i]!
  table.size += RECORD
  return at
}

/** The 1-based bucket of `id` in the record's group: `(murmur3(`${group}:${id}`, seed) % modulus) + 1`. */
export function bucketAt(table: Float64Array, at: number, id: string): number {
  const hash = hashWithPrefix(table, at, id)
  const modulus = table[at + MODULUS]!
  // `(hash >>> 0) % modulus` is a float modulo in V8 (the unsigned value may not fit an int32),
  // slower than this integer form: hash = 2 * (hash >>> 1) + (hash & 1). The table
  // holds doubles, so a whole modulus is made an int32 first; a fractional one (variant weights
  // sent as decimals) keeps the float modulo, as the Node SDK computes it.
  const m = modulus | 0
  if (m === modulus && m < 0x40000000) return ((((hash >>> 1) % m) * 2 + (hash & 1)) % m) + 1
  return ((hash >>> 0) % modulus) + 1
}

/** One bucket on its own, outside a payload's table (the property tests). */
interface Bucketer {
  readonly table: Float64Array
  readonly at: number
}

export function createBucketer(group: string, seed: number, modulus: number): Bucketer {
  const table = createBucketTable()
  const at = addBucket(table, group, seed, modulus)
  return { table: table.data, at }
}

export function bucketOf(bucketer: Bucketer, id: string): number {
  return bucketAt(bucketer.table, bucketer.at, id)
}
