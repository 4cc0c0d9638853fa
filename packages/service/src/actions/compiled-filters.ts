import { createLruCache } from '../lru-cache.js'
import type { ActionSetRow } from '../store/action-sets.js'
import { compileSignalFilter } from './filters.js'

/** Action sets whose compiled filters are kept (limits keep real instances far below). */
const MAX_SETS = 1_000

/** A test of a signal payload against an action set's filters. */
type PayloadTest = (payload: unknown) => boolean

/** The compiled filters of action sets, each compiled once per version of its set. */
interface CompiledFilters {
  testFor(set: Pick<ActionSetRow, 'id' | 'version' | 'payload'>): PayloadTest
}

/**
 * Compiles a set's filters on first use and again only when its version moved (every update
 * bumps it, on whichever instance: migration 009), so each signal only runs the compiled tests
 * (STYLE 1). Owned by one action runner; `compile` is injectable for tests.
 */
export function createCompiledFilters(
  compile: (filters: ActionSetRow['payload']) => PayloadTest = compileSignalFilter,
): CompiledFilters {
  const compiled = createLruCache<number, { version: number; test: PayloadTest }>({ maxEntries: MAX_SETS })
  return {
    testFor(set) {
      const hit = compiled.get(set.id)
      if (hit?.version === set.version) return hit.test
      const test = compile(set.payload)
      compiled.set(set.id, { version: set.version, test })
      return test
    },
  }
}
