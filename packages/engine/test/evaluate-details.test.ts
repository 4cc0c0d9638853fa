// engine.evaluate and evaluateAllDetails: Unleash's outcomes in OpenFeature's vocabulary, as the
// engine README's "Evaluation details" table maps them (the OFREP routes and the OpenFeature
// provider are thin layers over this).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createEngine, type Context, type EvaluationDetails } from '@vexil/engine'
import { contextArb, hostileContextArb, hostilePayloadArb, payloadArb } from './arbitraries.js'

const on = (strategies: unknown[], extra: Record<string, unknown> = {}) => ({ enabled: true, strategies, ...extra })
const DEFAULT = { name: 'default', parameters: {} }
const rollout = (percent: number, extra: Record<string, unknown> = {}) => ({
  name: 'flexibleRollout',
  parameters: { rollout: String(percent), stickiness: 'default', groupId: 'g' },
  ...extra,
})
const variant = (name: string, payload?: { type: string; value: string }, extra: Record<string, unknown> = {}) => ({
  name,
  weight: 500,
  stickiness: 'default',
  ...(payload ? { payload } : {}),
  ...extra,
})

function engineWith(
  features: Record<string, Record<string, unknown>>,
  strategies: Array<{ name: string; isEnabled: (p: Record<string, string>, c: Context) => boolean }> = [],
) {
  const engine = createEngine({ strategies })
  engine.load({
    version: 2,
    features: Object.entries(features).map(([name, f]) => ({ name, ...f })),
    segments: [{ id: 1, constraints: [{ contextName: 'tenant', operator: 'IN', values: ['acme'] }] }],
  })
  return engine
}

/** The OpenFeature part of a result (what OFREP sends). */
const of = (d: EvaluationDetails) => ({
  ...('value' in d ? { value: d.value } : {}),
  ...(d.variant !== undefined ? { variant: d.variant } : {}),
  reason: d.reason,
  ...(d.errorCode ? { errorCode: d.errorCode } : {}),
})

describe('engine.evaluate: boolean flags (no variants)', () => {
  const engine = engineWith({
    always: on([]),
    everyone: on([DEFAULT]),
    full: on([rollout(100)]),
    half: on([rollout(50)]),
    users: on([{ name: 'userWithId', parameters: { userIds: 'u1,u2' } }]),
    constrained: on([{ ...DEFAULT, constraints: [{ contextName: 'tenant', operator: 'IN', values: ['acme'] }] }]),
    segmented: on([{ ...DEFAULT, segments: [1] }]),
    off: { enabled: false, strategies: [DEFAULT] },
  })

  it('an enabled flag is true with variant "enabled" and the reason of what matched', () => {
    expect(of(engine.evaluate('always'))).toEqual({ value: true, variant: 'enabled', reason: 'STATIC' })
    expect(of(engine.evaluate('everyone'))).toEqual({ value: true, variant: 'enabled', reason: 'STATIC' })
    expect(of(engine.evaluate('full', { userId: 'x' }))).toEqual({ value: true, variant: 'enabled', reason: 'STATIC' })
    const halfOn = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].find((userId) => engine.isEnabled('half', { userId }))!
    expect(of(engine.evaluate('half', { userId: halfOn }))).toEqual({
      value: true,
      variant: 'enabled',
      reason: 'SPLIT',
    })
    expect(of(engine.evaluate('users', { userId: 'u2' }))).toEqual({
      value: true,
      variant: 'enabled',
      reason: 'TARGETING_MATCH',
    })
    expect(of(engine.evaluate('constrained', { properties: { tenant: 'acme' } }))).toEqual({
      value: true,
      variant: 'enabled',
      reason: 'TARGETING_MATCH',
    })
    expect(of(engine.evaluate('segmented', { tenant: 'acme' }))).toEqual({
      value: true,
      variant: 'enabled',
      reason: 'TARGETING_MATCH',
    })
  })

  it('off in the environment is DISABLED; on but unmatched is DEFAULT; both false', () => {
    expect(of(engine.evaluate('off'))).toEqual({ value: false, variant: 'disabled', reason: 'DISABLED' })
    expect(of(engine.evaluate('users', { userId: 'u3' }))).toEqual({
      value: false,
      variant: 'disabled',
      reason: 'DEFAULT',
    })
    expect(of(engine.evaluate('constrained', {}))).toEqual({ value: false, variant: 'disabled', reason: 'DEFAULT' })
  })

  it('carries the type, metadata and Unleash toggle', () => {
    const details = engine.evaluate('users', { userId: 'u1' })
    expect(details.type).toBe('boolean')
    expect(details.flagKey).toBe('users')
    expect(details.flagMetadata).toEqual({ enabled: true, impressionData: false })
    expect(details.toggle).toBe(engine.evaluateAll({ userId: 'u1' }, { names: ['users'] })[0])
  })

  it('returns the same frozen object for the same outcome (no allocation per call)', () => {
    const a = engine.evaluate('users', { userId: 'u1' })
    expect(engine.evaluate('users', { userId: 'u2' })).toBe(a)
    expect(Object.isFrozen(a)).toBe(true)
  })
})

describe('engine.evaluate: typed flags (variants)', () => {
  const engine = engineWith({
    copy: on([DEFAULT], {
      variants: [variant('a', { type: 'string', value: 'Hello' }), variant('b', { type: 'string', value: 'Hi' })],
    }),
    single: on([DEFAULT], { variants: [variant('only', { type: 'json', value: '{"color":"blue","sizes":[1,2]}' })] }),
    limit: on([rollout(100)], { variants: [variant('ten', { type: 'number', value: '10' })] }),
    badNumber: on([DEFAULT], { variants: [variant('n', { type: 'number', value: 'ten' })] }),
    badJson: on([DEFAULT], { variants: [variant('j', { type: 'json', value: '{nope' })] }),
    scalarJson: on([DEFAULT], { variants: [variant('j', { type: 'json', value: '42' })] }),
    deepJson: on([DEFAULT], {
      variants: [variant('j', { type: 'json', value: `${'{"a":'.repeat(12_000)}1${'}'.repeat(12_000)}` })],
    }),
    names: on([DEFAULT], { variants: [variant('red'), variant('green')] }),
    csv: on([DEFAULT], { variants: [variant('list', { type: 'csv', value: 'a,b' })] }),
    mixed: on([DEFAULT], {
      variants: [variant('n', { type: 'number', value: '7' }), variant('j', { type: 'json', value: '{"a":1}' })],
    }),
    overridden: on([DEFAULT], {
      variants: [
        variant('x', { type: 'string', value: 'X' }, { overrides: [{ contextName: 'userId', values: ['vip'] }] }),
        variant('y', { type: 'string', value: 'Y' }),
      ],
    }),
    weightless: on([DEFAULT], { variants: [{ name: 'zero', weight: 0, payload: { type: 'string', value: 'z' } }] }),
    strategyVariants: on(
      [
        {
          ...DEFAULT,
          constraints: [{ contextName: 'userId', operator: 'IN', values: ['s'] }],
          variants: [variant('sv', { type: 'string', value: 'from strategy' })],
        },
        DEFAULT,
      ],
      {
        variants: [variant('fv', { type: 'string', value: 'from flag' })],
      },
    ),
    typedOff: { enabled: false, strategies: [DEFAULT], variants: [variant('a', { type: 'string', value: 'A' })] },
    typedUnmatched: on([{ name: 'userWithId', parameters: { userIds: 'u1' } }], {
      variants: [variant('a', { type: 'string', value: 'A' })],
    }),
  })

  it('the value is the chosen variant payload by the flag type, with the variant name', () => {
    const copy = engine.evaluate('copy', { userId: '1' })
    expect(copy.type).toBe('string')
    expect(['a', 'b']).toContain(copy.variant)
    expect(of(copy)).toEqual({ value: copy.variant === 'a' ? 'Hello' : 'Hi', variant: copy.variant, reason: 'SPLIT' })
    expect(of(engine.evaluate('single'))).toEqual({
      value: { color: 'blue', sizes: [1, 2] },
      variant: 'only',
      reason: 'STATIC',
    })
    expect(engine.evaluate('single').type).toBe('object')
    expect(Object.isFrozen((engine.evaluate('single').value as { sizes: number[] }).sizes)).toBe(true)
    expect(of(engine.evaluate('limit', { userId: 'u' }))).toEqual({ value: 10, variant: 'ten', reason: 'STATIC' })
    expect(of(engine.evaluate('csv'))).toEqual({ value: 'a,b', variant: 'list', reason: 'STATIC' })
  })

  it('variants without payload are a string flag whose value is the variant name', () => {
    const details = engine.evaluate('names', { userId: '9' })
    expect(details.type).toBe('string')
    expect(details.value).toBe(details.variant)
  })

  it('mixed payload types make a string flag of the payload texts, whatever variant a context gets', () => {
    const seen = new Set<unknown>()
    for (let i = 0; i < 40; i++) {
      const details = engine.evaluate('mixed', { userId: String(i) })
      expect(details.type).toBe('string')
      seen.add(details.value)
    }
    expect(seen).toEqual(new Set(['7', '{"a":1}']))
  })

  it('an override is TARGETING_MATCH; strategy variants win over the flag variants', () => {
    expect(of(engine.evaluate('overridden', { userId: 'vip' }))).toEqual({
      value: 'X',
      variant: 'x',
      reason: 'TARGETING_MATCH',
    })
    expect(of(engine.evaluate('strategyVariants', { userId: 's' }))).toEqual({
      value: 'from strategy',
      variant: 'sv',
      reason: 'TARGETING_MATCH',
    })
    expect(of(engine.evaluate('strategyVariants', { userId: 't' }))).toEqual({
      value: 'from flag',
      variant: 'fv',
      reason: 'STATIC',
    })
  })

  it('off, unmatched or without a variant: no value (the caller default wins)', () => {
    expect(of(engine.evaluate('typedOff'))).toEqual({ reason: 'DISABLED' })
    expect(of(engine.evaluate('typedUnmatched', { userId: 'u2' }))).toEqual({ reason: 'DEFAULT' })
    expect(of(engine.evaluate('weightless'))).toEqual({ reason: 'DEFAULT' })
    expect(engine.evaluate('typedOff').flagMetadata).toEqual({ enabled: false, impressionData: false })
    expect(engine.evaluate('weightless').flagMetadata).toEqual({ enabled: true, impressionData: false })
    expect('value' in engine.evaluate('typedOff')).toBe(false)
  })

  it('a payload that does not fit the type is PARSE_ERROR, with the toggle still as Unleash answers', () => {
    for (const name of ['badNumber', 'badJson', 'scalarJson', 'deepJson']) {
      const details = engine.evaluate(name)
      expect(of(details)).toEqual({ reason: 'ERROR', errorCode: 'PARSE_ERROR' })
      expect(details.errorMessage).toMatch(/payload/)
      expect(details.toggle.enabled).toBe(true)
    }
  })
})

describe('engine.evaluate: errors', () => {
  it('an unknown name is FLAG_NOT_FOUND', () => {
    const details = createEngine().evaluate('nope')
    expect(of(details)).toEqual({ reason: 'ERROR', errorCode: 'FLAG_NOT_FOUND' })
    expect(details.type).toBeUndefined()
    expect(details.toggle).toEqual({
      name: 'nope',
      enabled: false,
      variant: { name: 'disabled', enabled: false, feature_enabled: false, featureEnabled: false },
      impressionData: false,
    })
  })

  it('a flag that did not compile is PARSE_ERROR', () => {
    const engine = engineWith({ broken: { enabled: true, strategies: 'no' } })
    expect(of(engine.evaluate('broken'))).toEqual({ reason: 'ERROR', errorCode: 'PARSE_ERROR' })
    expect(engine.evaluate('broken').errorMessage).toMatch(/strategies/)
  })

  it('a throwing custom strategy is GENERAL for its flag only, in evaluate and evaluateAllDetails', () => {
    const engine = engineWith({ a: on([DEFAULT]), custom: on([{ name: 'boom', parameters: {} }]), b: on([DEFAULT]) }, [
      {
        name: 'boom',
        isEnabled: () => {
          throw new Error('kaput')
        },
      },
    ])
    expect(of(engine.evaluate('custom'))).toEqual({ reason: 'ERROR', errorCode: 'GENERAL' })
    expect(engine.evaluate('custom').errorMessage).toMatch(/kaput/)
    expect(engine.evaluateAllDetails({}).map((d) => [d.flagKey, d.reason])).toEqual([
      ['a', 'STATIC'],
      ['custom', 'ERROR'],
      ['b', 'STATIC'],
    ])
  })
})

describe('engine.evaluate properties', () => {
  it('agrees with getVariant, keeps one type per flag, and never throws', () => {
    fc.assert(
      fc.property(
        payloadArb({ deterministic: true }),
        fc.array(contextArb, { minLength: 1, maxLength: 5 }),
        (payload, contexts) => {
          const engine = createEngine()
          engine.load(payload)
          const types = new Map<string, unknown>()
          for (const context of contexts) {
            const trace = { usedRandom: false, usedClock: false, usedCustomStrategy: false }
            const all = engine.evaluateAllDetails(context as Context, { trace })
            const toggles = engine.evaluateAll(context as Context, { includeDisabled: true })
            expect(all.map((d) => d.flagKey)).toEqual(toggles.map((t) => t.name))
            // Without randomness (a missing stickiness value), the same answers as the rest of the API.
            if (!trace.usedRandom) {
              for (const [i, details] of all.entries()) expect(details.toggle).toBe(toggles[i])
              for (const details of all) expect(engine.evaluate(details.flagKey, context as Context)).toBe(details)
            }
            for (const details of all) {
              const toggle = details.toggle
              if (!types.has(details.flagKey)) types.set(details.flagKey, details.type)
              expect(details.type).toBe(types.get(details.flagKey))
              if (details.errorCode === undefined && 'value' in details) {
                const expected = details.type === 'object' ? 'object' : details.type
                expect(typeof details.value).toBe(expected)
              }
              if (details.type === 'boolean' && details.errorCode === undefined)
                expect(details.value).toBe(toggle.enabled)
            }
          }
        },
      ),
      { numRuns: 300 },
    )
  })

  it('never throws on hostile payloads and contexts', () => {
    fc.assert(
      fc.property(hostilePayloadArb, fc.array(hostileContextArb, { maxLength: 3 }), (payload, contexts) => {
        const engine = createEngine()
        engine.load(payload)
        for (const context of contexts) {
          for (const details of engine.evaluateAllDetails(context as Context)) {
            expect(engine.evaluate(details.flagKey, context as Context).flagKey).toBe(details.flagKey)
            JSON.stringify(details)
          }
        }
      }),
      { numRuns: 300 },
    )
  })
})
