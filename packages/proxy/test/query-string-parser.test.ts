import fc from 'fast-check'
import qs from 'qs'
import { isDeepStrictEqual, inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import { parseQuery, simpleQuery } from '../src/evaluation/context.js'

// The query-string fast path must give exactly what qs gives (Express's extended parser, the old
// proxy's), or step aside (issue 17). Compared with Node's isDeepStrictEqual: vitest's
// toStrictEqual reads `.constructor`, which a parsed `constructor=` key overrides. The fast path
// makes plain objects where qs makes null-prototype ones (see simpleQuery), so both are first
// copied into plain objects, own keys only (`__proto__` included, as an own key).

const plain = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(plain)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]))
      : value

const same = (actual: unknown, expected: unknown, search: string) =>
  expect(
    isDeepStrictEqual(plain(actual), plain(expected)),
    `${JSON.stringify(search)}: ${inspect(actual)} vs ${inspect(expected)}`,
  ).toBe(true)

const QS_OPTIONS = { allowPrototypes: true, plainObjects: true, arrayLimit: 1000, depth: 5, parameterLimit: 1000 }

const keys = fc.constantFrom(
  'appName',
  'userId',
  'sessionId',
  'remoteAddress',
  'currentTime',
  'environment',
  'tenant',
  'a.b',
  'x-y',
  '$z',
  '0',
  '12',
  'properties[tenant]',
  'properties%5Bemail%5D',
  'properties%5bx%5d',
  'properties[0]',
  'properties[]',
  'properties[a][b]',
  'properties[__proto__]',
  '__proto__',
  'constructor',
  'toString',
  'properties',
  'a+b',
  'a%20b',
  '[x]',
  '',
  'p[q',
  'p]q',
  'p[q]r',
  'properties[toString]',
  'hasOwnProperty',
)
const values = fc.oneof(
  fc.constantFrom(
    '',
    'web',
    'user-1',
    'a+b',
    '%20',
    '%E2%9C%93',
    '%ZZ',
    '%',
    'x%5By',
    '[',
    ']=',
    'a=b',
    '1.2.3',
    'person%40example.com',
    '%C3%A9+%C3%A8',
    '%255B',
  ),
  fc.string({ maxLength: 8 }).map((s) => encodeURIComponent(s)),
  fc.string({ maxLength: 6 }),
)
const parts = fc.array(
  fc.oneof(
    fc.tuple(keys, values).map(([k, v]) => `${k}=${v}`),
    keys,
    fc.constant(''),
  ),
  { maxLength: 8 },
)

describe('the query-string fast path', () => {
  it('equals qs wherever it answers, and parseQuery always equals qs', () => {
    let answered = 0
    fc.assert(
      fc.property(parts, (list) => {
        const search = list.join('&')
        const expected = qs.parse(search, QS_OPTIONS)
        const fast = simpleQuery(search)
        if (fast !== undefined) {
          answered++
          same(fast, expected, search)
        }
        same(parseQuery(search), expected, search)
      }),
      { numRuns: 5000 },
    )
    expect(answered).toBeGreaterThan(500)
  })

  it('answers what SDKs send', () => {
    const search = new URLSearchParams({
      appName: 'web',
      userId: 'user-1',
      sessionId: '42',
      'properties[tenant]': 'acme',
      'properties[email]': 'a+b@x.io',
    }).toString()
    same(simpleQuery(search), qs.parse(search, QS_OPTIONS), search)
    expect(simpleQuery('userId=1&properties[a]=x&properties[b]=y')).toBeDefined()
    // Repeated keys become arrays in qs: left to it.
    expect(simpleQuery('userId=1&userId=2')).toBeUndefined()
  })

  it('stays equal to qs while its cache of parsed keys fills, starts over and meets long keys', () => {
    // 600 distinct keys: the cache (256 keys of up to 64 characters) starts over twice.
    for (let i = 0; i < 600; i++) {
      const search = `k${i}=1&properties[p${i}]=${i}&properties%5B${'x'.repeat(1 + (i % 80))}%5D=y&userId=u${i}`
      const fast = simpleQuery(search)
      expect(fast, search).toBeDefined()
      same(fast, qs.parse(search, QS_OPTIONS), search)
    }
    // A key first seen with a plain value and later with a bracketed one: the value decides.
    expect(simpleQuery('properties[a]=1')).toBeDefined()
    expect(simpleQuery('properties[a]=%5Bx')).toBeUndefined()
    expect(simpleQuery('properties[a]=x%5d')).toBeUndefined()
    expect(simpleQuery('properties[a]=x]')).toBeUndefined()
    same(simpleQuery('properties[a]=%5&b=%5'), qs.parse('properties[a]=%5&b=%5', QS_OPTIONS), 'properties[a]=%5&b=%5')
  })

  it('leaves every name an object inherits, and __proto__, to qs: no prototype is ever reached', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(simpleQuery(`${name}=1`), name).toBeUndefined()
      expect(simpleQuery(`${name}[a]=1`), name).toBeUndefined()
      expect(simpleQuery(`properties[a]=1&properties[${name}]=1`), name).toBeUndefined()
    }
    const parsed = parseQuery('__proto__[polluted]=1&properties[__proto__][x]=2&constructor[prototype][y]=3')
    expect(Object.getPrototypeOf(parsed)).toBeNull()
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(({} as Record<string, unknown>).y).toBeUndefined()
    // The fast path's objects are plain ones (fast in V8); an own `constructor` key stays data.
    const fast = simpleQuery('userId=1&properties[constructor]=x')!
    expect(Object.getPrototypeOf(fast)).toBe(Object.prototype)
    expect(Object.keys(fast.properties as object)).toEqual(['constructor'])
  })
})
