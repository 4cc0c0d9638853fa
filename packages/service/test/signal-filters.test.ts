import { describe, expect, it } from 'vitest'
import { createCompiledFilters } from '../src/actions/compiled-filters.js'
import { compileSignalFilter } from '../src/actions/filters.js'
import { flattenPayload } from '../src/actions/flatten-payload.js'
import type { PayloadFilter } from '../src/schemas/action-set.js'

// Issue 6, "Actions": filters on the signal payload, keyed by dot paths into the JSON, with the
// engine's constraint operators (the payload is the evaluation context).

describe('flattenPayload', () => {
  it.each<[string, unknown, Record<string, unknown>]>([
    ['nested objects join with dots', { a: 1, b: { c: 'x', d: { e: true } } }, { a: 1, 'b.c': 'x', 'b.d.e': true }],
    [
      'array items are [i]',
      { items: [{ status: 'ok' }, 'two', [3]] },
      { 'items[0].status': 'ok', 'items[1]': 'two', 'items[2][0]': 3 },
    ],
    ['a top-level array', [{ a: 1 }, 2], { '[0].a': 1, '[1]': 2 }],
    ['null is kept as a value', { a: null }, { a: null }],
    ['empty objects and arrays add nothing', { a: {}, b: [] }, {}],
    ['a later literal key wins over a nested one', { a: { b: 1 }, 'a.b': 2 }, { 'a.b': 2 }],
    ['a scalar payload has no fields', 'text', {}],
    ['null payload has no fields', null, {}],
  ])('%s', (_label, payload, expected) => {
    expect(Object.fromEntries(flattenPayload(payload))).toEqual(expected)
  })

  it('keys named like Object.prototype members are plain fields', () => {
    const flat = flattenPayload(JSON.parse('{"__proto__":{"x":1},"constructor":"c"}'))
    expect(Object.fromEntries(flat)).toEqual({ '__proto__.x': 1, constructor: 'c' })
  })
})

type Row = [label: string, filters: Record<string, PayloadFilter>, payload: unknown, matches: boolean]

const payload = {
  type: 'alert',
  data: {
    severity: 'High',
    count: 5,
    ratio: '0.75',
    version: '2.3.1',
    resolved: false,
    service: 'checkout-api',
    owner: null,
    items: [{ status: 'firing' }, { status: 'ok' }],
  },
}

const matrix: Row[] = [
  // IN / NOT_IN: exact and case-sensitive; a missing field is "not in".
  ['IN: the value is listed', { 'data.severity': { operator: 'IN', values: ['Low', 'High'] } }, payload, true],
  ['IN: the value is not listed', { 'data.severity': { operator: 'IN', values: ['Low'] } }, payload, false],
  ['IN: case matters', { 'data.severity': { operator: 'IN', values: ['high'] } }, payload, false],
  ['IN: a missing field', { 'data.nope': { operator: 'IN', values: ['x'] } }, payload, false],
  ['IN: a null field is missing', { 'data.owner': { operator: 'IN', values: ['null'] } }, payload, false],
  ['IN: inverted, a missing field', { 'data.nope': { operator: 'IN', values: ['x'], inverted: true } }, payload, true],
  ['IN: numbers compare as text', { 'data.count': { operator: 'IN', values: ['5'] } }, payload, true],
  ['IN: booleans compare as text', { 'data.resolved': { operator: 'IN', values: ['false'] } }, payload, true],
  ['IN: an array item by index', { 'data.items[0].status': { operator: 'IN', values: ['firing'] } }, payload, true],
  ['IN: a top-level field', { type: { operator: 'IN', values: ['alert'] } }, payload, true],
  ['NOT_IN: the value is not listed', { 'data.severity': { operator: 'NOT_IN', values: ['Low'] } }, payload, true],
  ['NOT_IN: the value is listed', { 'data.severity': { operator: 'NOT_IN', values: ['High'] } }, payload, false],
  ['NOT_IN: a missing field passes', { 'data.nope': { operator: 'NOT_IN', values: ['x'] } }, payload, true],
  ['NOT_IN: inverted', { 'data.severity': { operator: 'NOT_IN', values: ['High'], inverted: true } }, payload, true],
  // STR_*: any of the values; caseInsensitive lowercases both sides; inverted negates.
  ['STR_CONTAINS', { 'data.service': { operator: 'STR_CONTAINS', values: ['out'] } }, payload, true],
  ['STR_CONTAINS: no', { 'data.service': { operator: 'STR_CONTAINS', values: ['cart'] } }, payload, false],
  [
    'STR_CONTAINS: case matters by default',
    { 'data.service': { operator: 'STR_CONTAINS', values: ['OUT'] } },
    payload,
    false,
  ],
  [
    'STR_CONTAINS: caseInsensitive',
    { 'data.service': { operator: 'STR_CONTAINS', values: ['OUT'], caseInsensitive: true } },
    payload,
    true,
  ],
  ['STR_STARTS_WITH', { 'data.service': { operator: 'STR_STARTS_WITH', values: ['web', 'check'] } }, payload, true],
  [
    'STR_STARTS_WITH: inverted',
    { 'data.service': { operator: 'STR_STARTS_WITH', values: ['check'], inverted: true } },
    payload,
    false,
  ],
  [
    'STR_ENDS_WITH: caseInsensitive',
    { 'data.severity': { operator: 'STR_ENDS_WITH', values: ['IGH'], caseInsensitive: true } },
    payload,
    true,
  ],
  ['STR_ENDS_WITH: a missing field', { 'data.nope': { operator: 'STR_ENDS_WITH', values: ['x'] } }, payload, false],
  [
    'STR_ENDS_WITH: inverted, a missing field',
    { 'data.nope': { operator: 'STR_ENDS_WITH', values: ['x'], inverted: true } },
    payload,
    true,
  ],
  // NUM_*: numbers and numeric strings; anything else is false.
  ['NUM_EQ', { 'data.count': { operator: 'NUM_EQ', value: '5' } }, payload, true],
  ['NUM_EQ: "5.0" equals 5', { 'data.count': { operator: 'NUM_EQ', value: '5.0' } }, payload, true],
  ['NUM_GT: yes', { 'data.count': { operator: 'NUM_GT', value: '4' } }, payload, true],
  ['NUM_GT: equal is not greater', { 'data.count': { operator: 'NUM_GT', value: '5' } }, payload, false],
  ['NUM_GTE', { 'data.count': { operator: 'NUM_GTE', value: '5' } }, payload, true],
  ['NUM_LT: a numeric string', { 'data.ratio': { operator: 'NUM_LT', value: '0.8' } }, payload, true],
  ['NUM_LTE: no', { 'data.ratio': { operator: 'NUM_LTE', value: '0.5' } }, payload, false],
  ['NUM_GT: not a number', { 'data.service': { operator: 'NUM_GT', value: '1' } }, payload, false],
  ['NUM_GT: inverted', { 'data.count': { operator: 'NUM_GT', value: '10', inverted: true } }, payload, true],
  // SEMVER_* also come from the engine.
  ['SEMVER_GTE', { 'data.version': { operator: 'SEMVER_GTE', value: '2.3.0' } }, payload, true],
  ['SEMVER_LT: no', { 'data.version': { operator: 'SEMVER_LT', value: '2.0.0' } }, payload, false],
  // Several filters must all match.
  [
    'two filters, both match',
    { type: { operator: 'IN', values: ['alert'] }, 'data.count': { operator: 'NUM_GTE', value: '5' } },
    payload,
    true,
  ],
  [
    'two filters, one fails',
    { type: { operator: 'IN', values: ['alert'] }, 'data.count': { operator: 'NUM_GT', value: '5' } },
    payload,
    false,
  ],
  // No filters: every signal matches, whatever its shape.
  ['no filters, an object', {}, payload, true],
  ['no filters, a string payload', {}, 'text', true],
  ['a filter on a scalar payload', { type: { operator: 'IN', values: ['text'] } }, 'text', false],
  [
    'a filter on a top-level array',
    { '[1].type': { operator: 'IN', values: ['b'] } },
    [{ type: 'a' }, { type: 'b' }],
    true,
  ],
]

describe("action filters on the signal payload (the engine's operators)", () => {
  it.each(matrix)('%s', (_label, filters, signalPayload, matches) => {
    expect(compileSignalFilter(filters)(signalPayload)).toBe(matches)
  })

  it('a filter compiled once answers for many payloads', () => {
    const matchesHigh = compileSignalFilter({ 'data.severity': { operator: 'IN', values: ['high'] } })
    expect([{ data: { severity: 'high' } }, { data: { severity: 'low' } }, {}, null].map(matchesHigh)).toEqual([
      true,
      false,
      false,
      false,
    ])
  })
})

describe("compiled filters of action sets (the runner's)", () => {
  it('compile a set once per version: the same test until the set changes, then the new filters', () => {
    let compiles = 0
    const filters = createCompiledFilters((payload) => {
      compiles++
      return compileSignalFilter(payload)
    })
    const high = { id: 7, version: 1, payload: { 'data.severity': { operator: 'IN', values: ['high'] } } }
    const test = filters.testFor(high)
    expect(filters.testFor({ ...high })).toBe(test)
    expect(compiles).toBe(1)
    const low = { id: 7, version: 2, payload: { 'data.severity': { operator: 'IN', values: ['low'] } } }
    expect(filters.testFor(low)({ data: { severity: 'low' } })).toBe(true)
    expect(filters.testFor(low)({ data: { severity: 'high' } })).toBe(false)
    expect(compiles).toBe(2)
  })
})
