// The reconnect history of a scope's streams (answers/client-stream-history.ts): a Last-Event-ID
// within it replays exactly the changes after it, one older than it costs a hydration, and it
// stays within its bounds in changes, bytes and filters however many changes come and whatever
// filters and ids clients send. Driven by a real scope publishing real flag sets; the route's use
// of it is covered through a listening proxy in client-streaming.test.ts.
import { createEngine } from '@vexil/engine'
import { describe, expect, it } from 'vitest'
import { clientFilter, deltaMessage, viewId } from '../src/answers/client-features.js'
import { createStreamHistory, type StreamHistoryLimits } from '../src/answers/client-stream-history.js'
import type { FlagSet } from '../src/scope/flag-set.js'
import { createScopeFlags } from '../src/scope/scope-flags.js'
import type { KnownToken } from '../src/tokens/api-token.js'
import { memoryLogger } from './helpers/proxy.js'

const TOKEN: KnownToken = {
  secret: '*:development.history',
  type: 'client',
  environment: 'development',
  projects: ['*'],
}
const filter = (query = '') => clientFilter(TOKEN, query)
const flag = (name: string, value: string) => ({
  name,
  project: 'default',
  enabled: true,
  strategies: [{ name: 'default', parameters: { value } }],
})

function scope() {
  const flags = createScopeFlags({
    newEngine: () => createEngine(),
    responseCaches: undefined,
    logger: memoryLogger([]),
    storage: undefined,
    storageKey: 'k',
    announce: false,
  })
  /** Change `n`: flag `f<n % 10>` gets a new value (`size` characters), so every filter sees each change. */
  const publish = (n: number, size = 16) =>
    flags.offer({
      payload: {
        version: 2,
        features: Array.from({ length: 10 }, (_, i) => flag(`f${i}`, i === n % 10 ? `${n}`.padEnd(size, '.') : 'x')),
        segments: [],
      },
      source: 'upstream',
    })!
  return { flags, publish }
}

const limits = (overrides: Partial<StreamHistoryLimits>): StreamHistoryLimits => ({
  changes: 100,
  bytes: 8 * 1024 * 1024,
  filters: 32,
  lingerMs: 60_000,
  ...overrides,
})
const events = (text: string) => (JSON.parse(text) as { events: unknown[] }).events

describe('the reconnect history of a scope', () => {
  it('replays exactly the changes after a kept id; an id older than the kept changes gets none (a hydration)', () => {
    const { flags, publish } = scope()
    const history = createStreamHistory(flags, { limits: limits({ changes: 5 }) })
    const sets: FlagSet[] = [publish(0)]
    history.follow(filter(), sets[0]!)
    for (let n = 1; n <= 20; n++) sets.push(publish(n))
    const current = sets[20]!
    const expected = (from: number) =>
      sets.slice(from + 1).flatMap((set, i) => events(deltaMessage(sets[from + i]!, set, filter())!.text))
    for (const from of [15, 17, 19]) {
      const replay = history.replay(filter(), current, viewId(sets[from]!, filter()))!
      expect(replay.id).toBe(viewId(current, filter()))
      expect(events(replay.text)).toEqual(expected(from))
    }
    for (const from of [0, 10, 14])
      expect(history.replay(filter(), current, viewId(sets[from]!, filter()))).toBeUndefined()
    expect(history.replay(filter(), current, 'unknown')).toBeUndefined()
    expect(history.size.changes).toBe(5)
  })

  it('stays within its byte and change bounds under many changes, for every filter together', () => {
    const { flags, publish } = scope()
    const bound = limits({ changes: 50, bytes: 64 * 1024, filters: 4 })
    const history = createStreamHistory(flags, { limits: bound })
    const first = publish(0)
    for (const query of ['', '?namePrefix=f', '?project=default', '?namePrefix=f1'])
      history.follow(filter(query), first)
    let most = 0
    for (let n = 1; n <= 600; n++) {
      publish(n, 1 + (n % 7) * 700)
      most = Math.max(most, history.size.bytes)
      expect(history.size.changes).toBeLessThanOrEqual(4 * bound.changes)
    }
    expect(most).toBeLessThanOrEqual(bound.bytes)
    // Still useful: the latest changes of each filter are kept.
    expect(history.size.changes).toBeGreaterThan(4)
  })

  it('a change larger than the byte bound is not kept: the id before it gets a hydration', () => {
    const { flags, publish } = scope()
    const history = createStreamHistory(flags, { limits: limits({ bytes: 4 * 1024 }) })
    const before = publish(0)
    history.follow(filter(), before)
    const after = publish(1, 8 * 1024)
    expect(history.size).toEqual({ bytes: 0, changes: 0, filters: 1 })
    expect(history.replay(filter(), after, viewId(before, filter()))).toBeUndefined()
  })

  it('clients cannot make it grow: new filters past the bound get no history, replays of any id add nothing', () => {
    const { flags, publish } = scope()
    const history = createStreamHistory(flags, { limits: limits({ filters: 3 }) })
    let current = publish(0)
    const closes = ['', '?namePrefix=f', '?namePrefix=f1'].map((query) => history.follow(filter(query), current))
    current = publish(1)
    const size = history.size
    for (let i = 0; i < 200; i++) {
      history.follow(filter(`?namePrefix=f${i}x`), current)
      history.replay(filter(), current, `guess-${i}`)
      history.replay(filter(`?namePrefix=f${i}x`), current, viewId(current, filter()))
    }
    expect(history.size).toEqual(size)
    // A history no stream uses gives its place to a new filter; one in use never does.
    closes[1]!()
    history.follow(filter('?namePrefix=f2'), current)
    const kept = publish(2)
    expect(history.size.filters).toBe(3)
    expect(history.replay(filter('?namePrefix=f'), kept, viewId(current, filter('?namePrefix=f')))).toBeUndefined()
    expect(history.replay(filter(), kept, viewId(current, filter()))).toBeDefined()
    expect(history.replay(filter('?namePrefix=f2'), kept, viewId(current, filter('?namePrefix=f2')))).toBeDefined()
  })

  it('keeps a filter whose streams closed for lingerMs (for their reconnects), then drops it', () => {
    const { flags, publish } = scope()
    let now = 0
    const history = createStreamHistory(flags, { limits: limits({ lingerMs: 1_000 }), now: () => now })
    const first = publish(0)
    history.follow(filter(), first)()
    now = 900
    const second = publish(1)
    expect(history.replay(filter(), second, viewId(first, filter()))).toBeDefined()
    now = 2_000
    publish(2)
    expect(history.size).toEqual({ bytes: 0, changes: 0, filters: 0 })
  })
})
