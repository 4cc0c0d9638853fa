import { describe, expect, it } from 'vitest'
import { createLruCache } from '../src/lru-cache.js'

describe('createLruCache', () => {
  it('keeps at most maxEntries, dropping the least recently used first', () => {
    const cache = createLruCache<string, number>({ maxEntries: 2 })
    cache.set('a', 1)
    cache.set('b', 2)
    expect(cache.get('a')).toBe(1) // a is now the most recently used
    cache.set('c', 3)
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([1, undefined, 3])
    expect(cache.size).toBe(2)
  })

  it('keeps the total weight within maxWeight, and never holds a value heavier than it', () => {
    const cache = createLruCache<string, string>({ maxEntries: 10, maxWeight: 10, weigh: (value) => value.length })
    cache.set('a', 'xxxx')
    cache.set('b', 'yyyy')
    cache.set('c', 'zzzz')
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 'yyyy', 'zzzz'])
    cache.set('huge', 'x'.repeat(11))
    expect(cache.size).toBe(0)
  })

  it('replacing a key replaces its weight', () => {
    const cache = createLruCache<string, string>({ maxEntries: 10, maxWeight: 8, weigh: (value) => value.length })
    cache.set('a', 'xxxxxxxx')
    cache.set('a', 'x')
    cache.set('b', 'yyyyyyy')
    expect([cache.get('a'), cache.get('b')]).toEqual(['x', 'yyyyyyy'])
  })
})
