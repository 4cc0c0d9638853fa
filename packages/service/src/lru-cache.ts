interface LruCacheOptions<V> {
  /** At most this many entries; the least recently used go first. */
  maxEntries: number
  /** Also at most this total weight (e.g. bytes), when `weigh` is given. */
  maxWeight?: number
  weigh?: (value: V) => number
}

/** A bounded map: reading an entry makes it the most recently used; past a bound the least recently used are dropped. */
interface LruCache<K, V> {
  get(key: K): V | undefined
  set(key: K, value: V): void
  delete(key: K): void
  readonly size: number
}

/** A Map in use order (a read moves the entry to the end), owned by whoever creates it: no module state. */
export function createLruCache<K, V>(options: LruCacheOptions<V>): LruCache<K, V> {
  const entries = new Map<K, { value: V; weight: number }>()
  const weigh = options.weigh ?? (() => 0)
  const maxWeight = options.maxWeight ?? Number.POSITIVE_INFINITY
  let weight = 0

  const remove = (key: K) => {
    const entry = entries.get(key)
    if (!entry) return
    weight -= entry.weight
    entries.delete(key)
  }

  return {
    get(key) {
      const entry = entries.get(key)
      if (!entry) return undefined
      entries.delete(key)
      entries.set(key, entry)
      return entry.value
    },
    set(key, value) {
      remove(key)
      const entry = { value, weight: weigh(value) }
      entries.set(key, entry)
      weight += entry.weight
      for (const oldest of entries.keys()) {
        if (entries.size <= options.maxEntries && weight <= maxWeight) break
        remove(oldest)
      }
    },
    delete: remove,
    get size() {
      return entries.size
    },
  }
}
