import { describe, expect, it } from 'vitest'
import {
  answerKey,
  type CachedResponse,
  createResponseCaches,
  MAX_RAW_KEY_CHARS,
  type ResponseCacheLimits,
} from '../src/cache/response-cache.js'

// The response cache admits an answer on its key's second sight, so traffic that never repeats
// costs no inserts and cannot evict the answers that do repeat; every byte it holds, keys
// included, counts against one process-wide budget (docs/security.md, "What a caller can grow").

const answer = (text = '{"toggles":[]}', validUntil = Number.POSITIVE_INFINITY): CachedResponse => ({
  body: text,
  bytes: Buffer.byteLength(text),
  etag: 'W/"x"',
  validUntil,
})
const now = () => 0
const MB = 1024 * 1024
const cacheOf = (limits: Partial<ResponseCacheLimits> = {}) => {
  const caches = createResponseCaches({ maxEntries: 10, maxBytes: 64 * MB, ...limits })!
  return { caches, cache: caches.forFlagSet() }
}

describe('response cache', () => {
  it('admits an answer on the second sight of its key, then answers it', () => {
    const { cache } = cacheOf()
    cache.set('a', answer())
    expect(cache.get('a', now)).toBeUndefined()
    cache.set('a', answer())
    expect(cache.get('a', now)).toBeDefined()
    expect(cache.size).toBe(1)
    // Kept as UTF-8 bytes: a repeated answer is written without encoding it again.
    expect(Buffer.isBuffer(cache.get('a', now)!.body)).toBe(true)
  })

  it('a stream of keys seen once leaves the repeating ones in place', () => {
    const { cache } = cacheOf({ maxEntries: 100 })
    cache.set('poll', answer())
    cache.set('poll', answer())
    for (let i = 0; i < 10_000; i++) cache.set(`user-${i}`, answer())
    expect(cache.get('poll', now)).toBeDefined()
    expect(cache.size).toBe(1)
  })

  it('remembers a once-seen key for at least half the cache size of later keys, and at most the cache size', () => {
    const { cache } = cacheOf({ maxEntries: 4 })
    for (const key of ['a', 'b', 'c']) cache.set(key, answer())
    // Two later first sights: 'a' is still remembered.
    cache.set('a', answer())
    expect(cache.get('a', now)).toBeDefined()
    for (const key of ['k', 'l', 'm', 'n', 'o']) cache.set(key, answer())
    // Five later first sights with room for four: 'k' was forgotten, 'o' is remembered.
    cache.set('k', answer())
    expect(cache.get('k', now)).toBeUndefined()
    cache.set('o', answer())
    expect(cache.get('o', now)).toBeDefined()
  })

  it('drops an answer past its validity, and is off when either limit is 0', () => {
    const { cache } = cacheOf()
    cache.set('t', answer('x', 100))
    cache.set('t', answer('x', 100))
    expect(cache.get('t', () => 50)).toBeDefined()
    expect(cache.get('t', () => 100)).toBeUndefined()
    expect(createResponseCaches({ maxEntries: 0, maxBytes: MB })).toBeUndefined()
    expect(createResponseCaches({ maxEntries: 10, maxBytes: 0 })).toBeUndefined()
  })

  it('keeps each flag set apart, and drops a retired set whole', () => {
    const { caches, cache: first } = cacheOf()
    const second = caches.forFlagSet()
    for (let i = 0; i < 2; i++) first.set('k', answer('"first"'))
    expect(second.get('k', now)).toBeUndefined()
    for (let i = 0; i < 2; i++) second.set('k', answer('"second"'))
    expect(String(second.get('k', now)!.body)).toBe('"second"')
    first.retire()
    expect(first.get('k', now)).toBeUndefined()
    expect(first.size).toBe(0)
    expect(caches.entries).toBe(1)
    // A retired set admits nothing more (a request still answering from it).
    for (let i = 0; i < 2; i++) first.set('j', answer())
    expect(first.size).toBe(0)
  })
})

describe('answerKey', () => {
  it('keeps short raw parts as they are and digests long ones to a fixed size', () => {
    expect(answerKey('G|', '10.0.0.1', 'userId=1')).toBe('G|8:10.0.0.1=userId=1')
    const long = answerKey('P|', '10.0.0.1', `{"context":{}}${' '.repeat(100_000)}`)
    expect(long.length).toBeLessThan(80)
    expect(answerKey('P|', '10.0.0.1', 'x'.repeat(MAX_RAW_KEY_CHARS)).length).toBeLessThan(MAX_RAW_KEY_CHARS + 20)
  })

  it('is injective: no two different requests share a key', () => {
    const raw = 'x'.repeat(MAX_RAW_KEY_CHARS + 1)
    const digest = answerKey('P|', '', raw).slice('P|0:'.length)
    const keys = [
      answerKey('P|', 'a', '1=b'),
      answerKey('P|', 'a1=', 'b'),
      answerKey('P|', undefined, 'x'),
      answerKey('P|', '', 'x'),
      answerKey('P|', '', raw),
      // A short body spelling the long body's digest does not reach its answer.
      answerKey('P|', '', digest),
      answerKey('P|', '', digest.slice(1)),
    ]
    expect(keys[2]).toBe(keys[3]) // no address is the empty address
    expect(new Set(keys).size).toBe(keys.length - 1)
  })
})

describe('response cache bounds (a caller with a public credential sends what it likes)', () => {
  it('a flood of distinct 100 KB bodies sent twice each holds keys of fixed size, within the byte budget', () => {
    const maxBytes = 2 * MB
    const { caches, cache } = cacheOf({ maxEntries: 10_000, maxBytes })
    const pad = ' '.repeat(100 * 1024)
    for (let i = 0; i < 1_500; i++) {
      const key = answerKey('P|', '127.0.0.1', `{"context":{"sessionId":"s${i}"}}${pad}`)
      cache.set(key, answer(`{"toggles":[{"name":"f${i}"}]}`))
      cache.set(key, answer(`{"toggles":[{"name":"f${i}"}]}`))
    }
    expect(caches.entries).toBe(1_500)
    expect(caches.bytes).toBeLessThanOrEqual(maxBytes)
    // Each entry's key is a digest: an entry costs little, not the 100 KB body.
    expect(caches.bytes / caches.entries).toBeLessThan(2048)
  })

  it('answers and their compressed forms never hold more than the byte budget, whichever set fills it', () => {
    const maxBytes = MB
    const { caches } = cacheOf({ maxEntries: 100_000, maxBytes })
    const sets = [caches.forFlagSet(), caches.forFlagSet(), caches.forFlagSet()]
    const body = 'y'.repeat(20_000)
    for (let i = 0; i < 3_000; i++) {
      const cache = sets[i % 3]!
      const key = `k${i}`
      cache.set(key, answer(body))
      const reply = answer(body)
      cache.set(key, reply)
      // A compressed form made for a kept answer is counted too.
      reply.grow?.(5_000)
      expect(caches.bytes).toBeLessThanOrEqual(maxBytes)
    }
    expect(caches.entries).toBeGreaterThan(0)
    // The oldest go first, whichever set they belong to: the last set written is answered.
    expect(sets[2]!.get('k2999', now)).toBeDefined()
    expect(sets[0]!.get('k0', now)).toBeUndefined()
  })

  it('keys seen once are bounded in bytes as well as in number', () => {
    const { caches, cache } = cacheOf({ maxEntries: 1_000_000, maxBytes: 16 * MB })
    const raw = 'q'.repeat(MAX_RAW_KEY_CHARS)
    for (let i = 0; i < 50_000; i++) cache.set(answerKey('G|', `10.0.${i >> 8}.${i & 255}`, raw), answer())
    expect(caches.seenBytes).toBeLessThanOrEqual(2 * MB)
    expect(caches.entries).toBe(0)
  })

  it('an answer larger than the budget is not kept, and nothing else is evicted for it', () => {
    const { caches, cache } = cacheOf({ maxEntries: 10, maxBytes: 64 * 1024 })
    for (let i = 0; i < 2; i++) cache.set('small', answer())
    for (let i = 0; i < 2; i++) cache.set('big', answer('z'.repeat(100 * 1024)))
    expect(cache.get('big', now)).toBeUndefined()
    expect(cache.get('small', now)).toBeDefined()
    expect(caches.bytes).toBeLessThanOrEqual(64 * 1024)
  })
})
