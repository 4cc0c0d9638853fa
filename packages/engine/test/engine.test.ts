import { describe, expect, it } from 'vitest'
import * as api from '@vexil/engine'
import { createEngine, CustomStrategyError, murmur3 } from '@vexil/engine'

const on = (name: string, strategies: unknown[], extra: Record<string, unknown> = {}) => ({
  name,
  enabled: true,
  strategies,
  ...extra,
})

describe('public surface', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'BUILT_IN_STRATEGY_NAMES',
        'CustomStrategyError',
        'ROLLOUT_SEED',
        'SUPPORTED_OPERATORS',
        'VARIANT_SEED',
        'checkConstraint',
        'checkStrategy',
        'createEngine',
        'murmur3',
      ].sort(),
    )
  })
})

describe('hashing', () => {
  it.each([
    ['Feature.flexibleRollout.10:174', 0, 3067997709],
    ['AB12A:122', 0, 1062108722],
    ['Feature.Variants.D:712', 86028157, 2697703800],
    ['Feature.UTF-8.Hellø_Wørld:123', 0, 1573729431],
    ['', 0, 0],
  ])('murmur3(%j, %i) = %i (UTF-8 bytes, as the non-Node SDKs)', (key, seed, expected) => {
    expect(murmur3(key, seed)).toBe(expected)
  })
})

describe('strategies', () => {
  it('a missing groupId defaults to the feature name', () => {
    const engine = createEngine()
    engine.load({
      features: [
        on('Feature.flexibleRollout.10', [
          { name: 'flexibleRollout', parameters: { rollout: '10', stickiness: 'userId' } },
        ]),
      ],
    })
    // bucket("Feature.flexibleRollout.10:174") = 10, bucket(...:499) = 32
    expect(engine.isEnabled('Feature.flexibleRollout.10', { userId: '174' })).toBe(true)
    expect(engine.isEnabled('Feature.flexibleRollout.10', { userId: '499' })).toBe(false)
  })

  it('applicationHostname compares with the injected hostname, case-insensitively', () => {
    const engine = createEngine({ hostname: 'Web-01' })
    engine.load({ features: [on('h', [{ name: 'applicationHostname', parameters: { hostNames: 'db-1, WEB-01' } }])] })
    expect(engine.isEnabled('h', {})).toBe(true)
    const other = createEngine({ hostname: 'web-02' })
    other.load({ features: [on('h', [{ name: 'applicationHostname', parameters: { hostNames: 'db-1, WEB-01' } }])] })
    expect(other.isEnabled('h', {})).toBe(false)
  })

  it('remoteAddress matches exact addresses and IPv4 and IPv6 ranges, skipping invalid entries', () => {
    const engine = createEngine()
    engine.load({
      features: [
        on('ip', [{ name: 'remoteAddress', parameters: { IPs: 'bogus, 10.0.0.0/8, 2001:db8::/32, 192.168.1.7' } }]),
      ],
    })
    expect(engine.isEnabled('ip', { remoteAddress: '10.9.8.7' })).toBe(true)
    expect(engine.isEnabled('ip', { remoteAddress: '2001:db8::42' })).toBe(true)
    expect(engine.isEnabled('ip', { remoteAddress: '192.168.1.7' })).toBe(true)
    expect(engine.isEnabled('ip', { remoteAddress: '192.168.1.8' })).toBe(false)
    expect(engine.isEnabled('ip', {})).toBe(false)
  })

  it('userWithId trims each id', () => {
    const engine = createEngine()
    engine.load({ features: [on('u', [{ name: 'userWithId', parameters: { userIds: ' 123 ,456' } }])] })
    expect(engine.isEnabled('u', { userId: '123' })).toBe(true)
    expect(engine.isEnabled('u', { userId: '456' })).toBe(true)
  })

  it('an unknown strategy is false for itself only, with a warning', () => {
    const engine = createEngine()
    const warnings = engine.load({
      features: [on('x', [{ name: 'nope' }, { name: 'default' }]), on('y', [{ name: 'nope' }])],
    })
    expect(engine.isEnabled('x', {})).toBe(true)
    expect(engine.isEnabled('y', {})).toBe(false)
    expect(warnings).toContainEqual({
      flag: 'x',
      code: 'unknown-strategy',
      message: 'unknown strategy "nope"; it never matches',
    })
  })

  it('a missing segment fails that strategy only', () => {
    const engine = createEngine()
    engine.load({
      features: [
        on('s', [
          { name: 'default', segments: [404] },
          { name: 'userWithId', parameters: { userIds: '1' } },
        ]),
      ],
    })
    expect(engine.isEnabled('s', { userId: '1' })).toBe(true)
    expect(engine.isEnabled('s', { userId: '2' })).toBe(false)
  })

  it('DATE_* accepts currentTime as a Date or a string, and uses now when absent', () => {
    const engine = createEngine()
    engine.load({
      features: [
        on('d', [
          {
            name: 'default',
            constraints: [{ contextName: 'currentTime', operator: 'DATE_AFTER', value: '2024-01-01T00:00:00Z' }],
          },
        ]),
      ],
    })
    expect(engine.isEnabled('d', { currentTime: new Date('2025-01-01T00:00:00Z') })).toBe(true)
    expect(engine.isEnabled('d', { currentTime: '2023-01-01T00:00:00Z' })).toBe(false)
    expect(engine.isEnabled('d', {})).toBe(true)
  })
})

describe('custom strategies', () => {
  const tenant = {
    name: 'tenant',
    isEnabled: (parameters: Record<string, string>, context: api.Context) =>
      parameters.tenants?.split(',').includes(String(context.properties?.tenant)) ?? false,
  }

  it('are wrapped with constraints, segments and strategy variants', () => {
    const engine = createEngine({ strategies: [tenant] })
    engine.load({
      segments: [{ id: 1, constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }] }],
      features: [
        on('t', [
          {
            name: 'tenant',
            parameters: { tenants: 'a,b', groupId: 't' },
            constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }],
            segments: [1],
            variants: [{ name: 'sv', weight: 1000, payload: { type: 'string', value: 'hi' } }],
          },
        ]),
      ],
    })
    const context = { userId: '1', properties: { tenant: 'a', plan: 'pro', region: 'eu' } }
    expect(engine.isEnabled('t', context)).toBe(true)
    expect(engine.getVariant('t', context)).toEqual({
      name: 'sv',
      enabled: true,
      payload: { type: 'string', value: 'hi' },
      feature_enabled: true,
      featureEnabled: true,
    })
    expect(engine.isEnabled('t', { ...context, properties: { ...context.properties, plan: 'free' } })).toBe(false)
    expect(engine.isEnabled('t', { ...context, properties: { ...context.properties, region: 'us' } })).toBe(false)
    expect(engine.isEnabled('t', { ...context, properties: { ...context.properties, tenant: 'c' } })).toBe(false)
  })

  it('are checked before built-ins, so they can override a built-in name', () => {
    const engine = createEngine({ strategies: [{ name: 'default', isEnabled: () => false }] })
    engine.load({ features: [on('d', [{ name: 'default' }])] })
    expect(engine.isEnabled('d', {})).toBe(false)
  })

  it('that throw surface as CustomStrategyError naming the flag and strategy', () => {
    const engine = createEngine({
      strategies: [
        {
          name: 'boom',
          isEnabled: () => {
            throw new Error('strategy exploded')
          },
        },
      ],
    })
    engine.load({ features: [on('b', [{ name: 'boom' }])] })
    expect(() => engine.isEnabled('b', {})).toThrow(CustomStrategyError)
    expect(() => engine.evaluateAll({})).toThrow(/boom.*"b".*strategy exploded/)
  })

  it('must have a name and an isEnabled function', () => {
    expect(() => createEngine({ strategies: [{ name: 'x' } as never] })).toThrow(/Invalid custom strategy/)
  })
})

describe('evaluateAll', () => {
  const engine = createEngine()
  engine.load({
    features: [
      on('zeta', [], { impressionData: true }),
      { name: 'off', enabled: false, strategies: [] },
      on('beta', [{ name: 'default' }], {
        variants: [{ name: 'red', weight: 1000, payload: { type: 'string', value: 'r' } }],
      }),
      on('sv', [
        {
          name: 'default',
          parameters: { groupId: 'sv' },
          variants: [{ name: 'sv1', weight: 1000, payload: { type: 'json', value: '{}' } }],
        },
      ]),
    ],
  })

  it('returns enabled toggles in payload order, with the variant key orders of the old proxy', () => {
    expect(JSON.stringify(engine.evaluateAll({ userId: '1' }))).toBe(
      JSON.stringify([
        {
          name: 'zeta',
          enabled: true,
          variant: { name: 'disabled', enabled: false, feature_enabled: true, featureEnabled: true },
          impressionData: true,
        },
        {
          name: 'beta',
          enabled: true,
          variant: {
            name: 'red',
            payload: { type: 'string', value: 'r' },
            enabled: true,
            feature_enabled: true,
            featureEnabled: true,
          },
          impressionData: false,
        },
        {
          name: 'sv',
          enabled: true,
          variant: {
            name: 'sv1',
            enabled: true,
            payload: { type: 'json', value: '{}' },
            feature_enabled: true,
            featureEnabled: true,
          },
          impressionData: false,
        },
      ]),
    )
  })

  it('includes disabled toggles on request', () => {
    expect(engine.evaluateAll({}, { includeDisabled: true }).map((t) => [t.name, t.enabled])).toEqual([
      ['zeta', true],
      ['off', false],
      ['beta', true],
      ['sv', true],
    ])
  })

  it('evaluates exactly the names asked for, in order, duplicates kept, unknown ones disabled', () => {
    expect(
      engine
        .evaluateAll({}, { names: ['beta', 'nope', 'beta', 'off'] })
        .map((t) => [t.name, t.enabled, t.variant.feature_enabled]),
    ).toEqual([
      ['beta', true, true],
      ['nope', false, false],
      ['beta', true, true],
      ['off', false, false],
    ])
  })

  it('takes the variant from the strategy that matched, else the flag, whichever strategy it is (the 31st and later too)', () => {
    // Strategy i matches the user `u<i>`; the even ones have variants, and flag `both` has its own.
    const strategies = Array.from({ length: 34 }, (_, i) => ({
      name: 'userWithId',
      parameters: { userIds: `u${i}` },
      ...(i % 2 === 0 ? { variants: [{ name: `s${i}`, weight: 1000, stickiness: 'default' }] } : {}),
    }))
    const many = createEngine()
    many.load({
      features: [
        on('both', strategies, { variants: [{ name: 'flag', weight: 1000 }] }),
        on('strategies-only', strategies),
      ],
    })
    for (const i of [0, 1, 28, 29, 30, 31, 32, 33]) {
      const context = { userId: `u${i}` }
      const variants = many.evaluateAll(context).map((toggle) => [toggle.name, toggle.variant.name])
      expect(variants).toEqual([
        ['both', i % 2 === 0 ? `s${i}` : 'flag'],
        ['strategies-only', i % 2 === 0 ? `s${i}` : 'disabled'],
      ])
      expect(many.evaluateAll(context)).toEqual(many.evaluateAll(context, { includeDisabled: true }))
    }
  })

  it('returns shared frozen results (no allocation per flag)', () => {
    const [a] = engine.evaluateAll({ userId: '1' })
    const [b] = engine.evaluateAll({ userId: '2' })
    expect(a).toBe(b)
    expect(Object.isFrozen(a)).toBe(true)
  })
})

describe('loading', () => {
  it('applies delta events in order and recompiles flags whose segment changed', () => {
    const engine = createEngine()
    engine.load({
      events: [
        {
          type: 'hydration',
          eventId: 1,
          features: [on('a', [{ name: 'default', segments: [1] }])],
          segments: [{ id: 1, constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] }],
        },
      ],
    })
    expect(engine.isEnabled('a', { userId: '1' })).toBe(true)
    expect(engine.isEnabled('a', { userId: '2' })).toBe(false)
    engine.load({
      events: [
        {
          type: 'segment-updated',
          eventId: 2,
          segment: { id: 1, constraints: [{ contextName: 'userId', operator: 'IN', values: ['2'] }] },
        },
      ],
    })
    expect(engine.isEnabled('a', { userId: '2' })).toBe(true)
    engine.load({
      events: [
        { type: 'feature-updated', eventId: 3, feature: on('b', []) },
        { type: 'feature-removed', eventId: 4, featureName: 'a', project: 'default' },
      ],
    })
    expect(engine.evaluateAll({}, { includeDisabled: true }).map((t) => t.name)).toEqual(['b'])
    engine.load({ events: [{ type: 'segment-removed', eventId: 5, segmentId: 1 }] })
    expect(engine.getState().segments).toEqual([])
  })

  it('a flag updated thousands of times tests its newest lists only (old lists never leak in, old slots are reclaimed)', () => {
    const engine = createEngine()
    const listOf = (i: number) => Array.from({ length: 20 }, (_, j) => `user-${i + j}`)
    const flag = (i: number) =>
      on('list', [
        {
          name: 'default',
          constraints: [
            { contextName: 'userId', operator: 'IN', values: listOf(i) },
            { contextName: 'team', operator: 'NOT_IN', values: [`team-${i}`] },
          ],
        },
      ])
    engine.load({
      events: [
        {
          type: 'hydration',
          eventId: 1,
          features: [flag(0), on('other', [{ name: 'userWithId', parameters: { userIds: 'user-0, user-1' } }])],
          segments: [],
        },
      ],
    })
    // Enough updates to pass the rebuild threshold (each update takes two new slots).
    for (let i = 1; i <= 3000; i++) {
      engine.load({ events: [{ type: 'feature-updated', eventId: i + 1, feature: flag(i) }] })
      if (i % 500 === 0 || i === 1) {
        expect(engine.isEnabled('list', { userId: `user-${i}` })).toBe(true)
        expect(engine.isEnabled('list', { userId: `user-${i + 19}` })).toBe(true)
        expect(engine.isEnabled('list', { userId: `user-${i - 1}` })).toBe(false)
        expect(engine.isEnabled('list', { userId: `user-${i}`, properties: { team: `team-${i}` } })).toBe(false)
        expect(engine.isEnabled('list', { userId: `user-${i}`, properties: { team: `team-${i - 1}` } })).toBe(true)
        expect(engine.isEnabled('other', { userId: 'user-1' })).toBe(true)
        expect(engine.isEnabled('other', { userId: 'user-2' })).toBe(false)
      }
    }
  })

  it('an evaluation nested in another (a custom strategy calling the engine) leaves the outer one right', () => {
    const inUsers = (values: string[]) => [{ contextName: 'userId', operator: 'IN', values }]
    let nested: string[] = []
    const engine = createEngine({
      strategies: [
        {
          name: 'nested',
          isEnabled: (_parameters, context) => {
            nested = engine.evaluateAll({ userId: 'u2' }).map((t) => t.name)
            return context.userId === 'u1'
          },
        },
      ],
    })
    engine.load({
      features: [
        on('a', [{ name: 'default', constraints: inUsers(['u1']) }]),
        on('b', [{ name: 'nested', constraints: inUsers(['u1', 'u3']) }]),
        on('c', [{ name: 'default', constraints: inUsers(['u1']) }]), // the same constraint as a: shared
        on('d', [{ name: 'userWithId', parameters: { userIds: 'u1,u2' } }]),
        on('e', [{ name: 'default', constraints: [{ contextName: 'userId', operator: 'NOT_IN', values: ['u1'] }] }]),
      ],
    })
    expect(engine.evaluateAll({ userId: 'u1' }).map((t) => t.name)).toEqual(['a', 'b', 'c', 'd'])
    expect(nested).toEqual(['d', 'e'])
  })

  it('shares a compiled constraint only with an identical one, whatever its strings hold', () => {
    const engine = createEngine()
    const strategy = (constraint: Record<string, unknown>) => [{ name: 'default', constraints: [constraint] }]
    engine.load({
      features: [
        on('a', strategy({ contextName: 'x', operator: 'STR_CONTAINS', values: ['1:a', 'b'] })),
        on('b', strategy({ contextName: 'x', operator: 'STR_CONTAINS', values: ['1:a,1:b'] })),
        on('c', strategy({ contextName: 'x1:', operator: 'IN', values: ['y'] })),
        on('d', strategy({ contextName: 'x', operator: 'IN', values: ['1:y'] })),
        on('e', strategy({ contextName: 'x', operator: 'NUM_GT', value: '1' })),
        on('f', strategy({ contextName: 'x', operator: 'NUM_GTE', value: '1' })),
        on('g', strategy({ contextName: 'x', operator: 'NUM_GT', value: '1', inverted: true })),
      ],
    })
    const enabled = (context: Record<string, unknown>) => engine.evaluateAll(context).map((t) => t.name)
    expect(enabled({ properties: { x: '1:a' } })).toEqual(['a', 'g'])
    expect(enabled({ properties: { x: '1:a,1:b' } })).toEqual(['a', 'b', 'g'])
    expect(enabled({ properties: { x: 'b' } })).toEqual(['a', 'g'])
    expect(enabled({ properties: { 'x1:': 'y' } })).toEqual(['c', 'g'])
    expect(enabled({ properties: { x: '1:y' } })).toEqual(['d', 'g'])
    expect(enabled({ properties: { x: '1' } })).toEqual(['f', 'g'])
    expect(enabled({ properties: { x: '2' } })).toEqual(['e', 'f'])
  })

  it('a fork compiles only what a delta touches: a flag it leaves alone is not compiled again (no second warning)', () => {
    const parent = createEngine()
    const warned = parent.load({
      version: 2,
      features: [on('odd', [{ name: 'no-such-strategy' }]), on('plain', [{ name: 'default' }])],
    })
    expect(warned.map((w) => w.flag)).toEqual(['odd'])
    const fork = parent.fork()
    expect(
      fork.load({
        events: [{ type: 'feature-updated', feature: { ...on('plain', [{ name: 'default' }]), enabled: false } }],
      }),
    ).toEqual([])
    expect(fork.isEnabled('plain')).toBe(false)
    expect(parent.isEnabled('plain')).toBe(true)
    // A new engine loading the same state compiles everything, and warns again.
    expect(
      createEngine()
        .load(fork.getState())
        .map((w) => w.flag),
    ).toEqual(['odd'])
    // A full payload into the fork starts afresh; the parent is untouched.
    fork.load({ version: 2, features: [on('other', [{ name: 'default' }])] })
    expect(fork.getState().features.map((f) => f.name)).toEqual(['other'])
    expect(parent.getState().features.map((f) => f.name)).toEqual(['odd', 'plain'])
    expect(parent.isEnabled('plain')).toBe(true)
  })

  it('keeps the previous state and warns when the payload is unusable', () => {
    const engine = createEngine()
    engine.load({ features: [on('a', [])] })
    expect(engine.load('nonsense')).toEqual([
      { flag: undefined, code: 'invalid-payload', message: 'the payload is not an object; nothing was loaded' },
    ])
    expect(engine.load({ nope: 1 })).toEqual([
      { flag: undefined, code: 'invalid-payload', message: expect.stringMatching(/neither/) },
    ])
    expect(engine.isEnabled('a', {})).toBe(true)
  })

  it('turns a flag it cannot compile off, leaving the others alone', () => {
    const engine = createEngine()
    const warnings = engine.load({ features: [{ name: 'bad', enabled: true, strategies: 'nope' }, on('good', [])] })
    expect(engine.isEnabled('bad', {})).toBe(false)
    expect(engine.isEnabled('good', {})).toBe(true)
    expect(warnings).toEqual([
      { flag: 'bad', code: 'invalid-flag', message: '"strategies" is not an array; the flag is off' },
    ])
  })

  it('getState returns the definitions as received, with segments', () => {
    const engine = createEngine()
    const feature = on('a', [{ name: 'default', segments: [1] }], { description: 'kept', custom: { x: 1 } })
    engine.load({ version: 2, features: [feature], segments: [{ id: 1, name: 's', constraints: [] }] })
    expect(engine.getState()).toEqual({
      version: 2,
      features: [feature],
      segments: [{ id: 1, name: 's', constraints: [] }],
    })
  })
})

describe('evaluation trace', () => {
  const trace = () => ({ usedRandom: false, usedClock: false, usedCustomStrategy: false })

  it('reports randomness, the clock and custom strategies only when they decided something', () => {
    const engine = createEngine({ strategies: [{ name: 'custom', isEnabled: () => true }] })
    engine.load({
      features: [
        on('rollout', [
          { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: 'g' } },
        ]),
        on('dated', [
          {
            name: 'default',
            constraints: [{ contextName: 'currentTime', operator: 'DATE_AFTER', value: '2024-01-01T00:00:00Z' }],
          },
        ]),
      ],
    })
    const withIds = trace()
    engine.evaluateAll({ userId: '1', currentTime: '2025-01-01T00:00:00Z' }, { trace: withIds })
    expect(withIds).toEqual({ usedRandom: false, usedClock: false, usedCustomStrategy: false })
    const anonymous = trace()
    engine.evaluateAll({}, { trace: anonymous })
    expect(anonymous).toEqual({ usedRandom: true, usedClock: true, usedCustomStrategy: false })

    const custom = createEngine({ strategies: [{ name: 'custom', isEnabled: () => true }] })
    custom.load({ features: [on('c', [{ name: 'custom' }])] })
    const customTrace = trace()
    custom.evaluateAll({}, { trace: customTrace, names: ['c'] })
    expect(customTrace.usedCustomStrategy).toBe(true)
  })

  it('a full rollout is on for everyone without drawing a random number, and a named stickiness field must still be there', () => {
    const engine = createEngine()
    engine.load({
      features: [
        on('full', [{ name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: 'g' } }]),
        on('random', [{ name: 'gradualRolloutRandom', parameters: { percentage: '100' } }]),
        on('by-tenant', [
          { name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'tenant', groupId: 'g' } },
        ]),
      ],
    })
    const anonymous = trace()
    expect(engine.evaluateAll({}, { trace: anonymous }).map((t) => t.name)).toEqual(['full', 'random'])
    expect(anonymous.usedRandom).toBe(false)
    expect(engine.evaluateAll({ userId: 'u', properties: { tenant: 'acme' } }).map((t) => t.name)).toEqual([
      'full',
      'random',
      'by-tenant',
    ])
    expect(engine.isEnabled('by-tenant', { properties: { tenant: '' } })).toBe(false)
  })

  it('nextTimeBoundary is the first DATE constraint instant at or after a time', () => {
    const engine = createEngine()
    engine.load({
      features: [
        on('a', [
          {
            name: 'default',
            constraints: [{ contextName: 'currentTime', operator: 'DATE_AFTER', value: '2030-01-01T00:00:00Z' }],
          },
        ]),
        on('b', [
          {
            name: 'default',
            constraints: [{ contextName: 'currentTime', operator: 'DATE_BEFORE', value: '2025-06-01T00:00:00Z' }],
          },
        ]),
      ],
    })
    expect(engine.nextTimeBoundary(Date.parse('2025-01-01T00:00:00Z'))).toBe(Date.parse('2025-06-01T00:00:00Z'))
    expect(engine.nextTimeBoundary(Date.parse('2026-01-01T00:00:00Z'))).toBe(Date.parse('2030-01-01T00:00:00Z'))
    expect(engine.nextTimeBoundary(Date.parse('2031-01-01T00:00:00Z'))).toBe(Number.POSITIVE_INFINITY)
  })
})
