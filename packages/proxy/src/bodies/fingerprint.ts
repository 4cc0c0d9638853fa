// Fingerprints of JSON fragments, and their order-sensitive fold: an answer assembled from
// fragments made once per payload (serialize.ts for /proxy and /api/frontend, ofrep.ts for OFREP)
// gets an ETag from its fragments' fingerprints instead of a hash over its bytes. A fingerprint
// depends on the fragment's JSON alone, so equal bodies get equal ETags on every instance.
import { createHash } from 'node:crypto'

/** A fragment's JSON, its UTF-8 length, and 96 bits of SHA-1 of it (made once per fragment). */
export interface Fragment {
  readonly json: string
  readonly bytes: number
  readonly a: number
  readonly b: number
  readonly c: number
}

const LANE_SEEDS = [0x3c6ef372, 0x5be0cd19, 0x1f83d9ab] as const

/**
 * A JSON array body assembled from fragments (`open` + fragments joined by commas + `close`),
 * with its UTF-8 length and the fold of the fragments' fingerprints: `tag()` is
 * `<byte length in hex>-<16 base64 chars>`, the inside of an ETag.
 */
export class FoldedBody {
  private text: string
  private count = 0
  private a: number = LANE_SEEDS[0]
  private b: number = LANE_SEEDS[1]
  private c: number = LANE_SEEDS[2]
  bytes: number

  /** `open` and `close` are ASCII. */
  constructor(
    open: string,
    private readonly close: string,
  ) {
    this.text = open
    this.bytes = open.length + close.length
  }

  add(fragment: Fragment): void {
    if (this.count > 0) {
      this.text += ','
      this.bytes++
    }
    this.count++
    this.text += fragment.json
    this.bytes += fragment.bytes
    this.a = mix(this.a, fragment.a)
    this.b = mix(this.b, fragment.b)
    this.c = mix(this.c, fragment.c)
  }

  body(): string {
    return this.text + this.close
  }

  tag(): string {
    const n = this.count
    return `${this.bytes.toString(16)}-${base64Of(finish(this.a, n), finish(this.b, n), finish(this.c, n))}`
  }
}

export function fingerprinted(json: string): Fragment {
  const digest = createHash('sha1').update(json, 'utf8').digest()
  return {
    json,
    bytes: Buffer.byteLength(json, 'utf8'),
    a: digest.readInt32LE(0),
    b: digest.readInt32LE(4),
    c: digest.readInt32LE(8),
  }
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
