import { describe, expect, it } from 'vitest'
import { type CachedResponse, createResponseCache } from '../src/evaluation/response-cache.js'

// The response cache admits an answer on its key's second sight, so traffic that never repeats
// costs no inserts and cannot evict the answers that do repeat (issue 17).

const answer = (text = '{"toggles":[]}', validUntil = Number.POSITIVE_INFINITY): CachedResponse => ({ body: text, bytes: Buffer.byteLength(text), etag: 'W/"x"', validUntil })
const now = () => 0

describe('response cache', () => {
  it('admits an answer on the second sight of its key, then answers it', () => {
    const cache = createResponseCache(10)
    cache.set('a', answer())
    expect(cache.get('a', now)).toBeUndefined()
    cache.set('a', answer())
    expect(cache.get('a', now)).toBeDefined()
    expect(cache.size).toBe(1)
    // Kept as UTF-8 bytes: a repeated answer is written without encoding it again.
    expect(Buffer.isBuffer(cache.get('a', now)!.body)).toBe(true)
  })

  it('a stream of keys seen once leaves the repeating ones in place', () => {
    const cache = createResponseCache(100)
    cache.set('poll', answer())
    cache.set('poll', answer())
    for (let i = 0; i < 10_000; i++) cache.set(`user-${i}`, answer())
    expect(cache.get('poll', now)).toBeDefined()
    expect(cache.size).toBe(1)
  })

  it('remembers a once-seen key for at least half the cache size of later keys, and at most the cache size', () => {
    const cache = createResponseCache(4)
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

  it('drops an answer past its validity, and keeps none when the size is 0', () => {
    const cache = createResponseCache(10)
    cache.set('t', answer('x', 100))
    cache.set('t', answer('x', 100))
    expect(cache.get('t', () => 50)).toBeDefined()
    expect(cache.get('t', () => 100)).toBeUndefined()
    const off = createResponseCache(0)
    off.set('k', answer())
    off.set('k', answer())
    expect(off.get('k', now)).toBeUndefined()
  })
})
