// explain / explainAll (@vexil/engine/explain): why each flag has its result. Its outcome is decided
// by a separate evaluator (src/explain/), so these tests hold it equal to the hot path.
import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createEngine, type Context, type Engine } from '@vexil/engine'
import { explain, explainAll, type FlagExplanation, type StrategyExplanation } from '@vexil/engine/explain'
import { contextArb, hostileContextArb, hostilePayloadArb, payloadArb, smallContextArb } from './arbitraries.js'

const NOW = Date.parse('2024-06-01T12:00:00Z')

afterEach(() => {
  vi.restoreAllMocks()
})

/**
 * No undefined, NaN or Infinity anywhere: JSON keeps everything as it is. (`details` is evaluate's
 * own result, whose optional fields may be undefined.)
 */
function expectJsonSafe(value: unknown, path = '$'): void {
  if (path === '$.details') return
  if (value === undefined || (typeof value === 'number' && !Number.isFinite(value)))
    throw new Error(`${path} is ${String(value)}`)
  if (value !== null && typeof value === 'object')
    for (const [key, inner] of Object.entries(value)) expectJsonSafe(inner, `${path}.${key}`)
}

/** What the trace says must agree with itself: the match, each strategy's parts, buckets and ranges. */
function expectConsistent(explained: FlagExplanation): void {
  const { strategies, matchedStrategy } = explained
  strategies.forEach((strategy: StrategyExplanation, i) => {
    if (matchedStrategy !== null) expect(strategy.evaluated).toBe(i <= matchedStrategy)
    if (!strategy.evaluated) {
      expect(strategy.matched).toBeNull()
      return
    }
    const gates =
      strategy.constraints.every((c) => c.result === true) && strategy.segments.every((s) => s.matched === true)
    expect(strategy.test.result !== null).toBe(gates)
    expect(strategy.matched).toBe(gates && strategy.test.result === true)
    expect(strategy.failure === null).toBe(strategy.matched)
    const test = strategy.test
    if (test.type === 'rollout' && test.result !== null && test.bucket !== null)
      expect(test.result).toBe(test.bucket <= test.percentage!)
  })
  if (matchedStrategy !== null) expect(strategies[matchedStrategy]!.matched).toBe(true)
  const variant = explained.variantExplanation
  if (variant.chosen !== null) expect(variant.chosen).toBe(explained.variant.name)
  if (variant.bucket !== null && variant.chosen !== null) {
    const candidate = variant.candidates.find(
      (c) => c.from !== null && c.from <= variant.bucket! && variant.bucket! <= c.to!,
    )
    expect(candidate?.name).toBe(variant.chosen)
  }
}

const RUNS = 500

describe.each([
  ['any payload and context', payloadArb(), contextArb],
  // Constraints, id lists, overrides and stickiness fields that meet the context often.
  ['a payload and contexts of a small vocabulary', payloadArb({ small: true }), smallContextArb],
])('explain agrees with the engine, for %s', (_, payloads, contextsArb) => {
  it('enabled, variant and details equal isEnabled, getVariant and evaluate, for every flag', () => {
    let runs = 0
    fc.assert(
      fc.property(
        payloads,
        fc.array(contextsArb as fc.Arbitrary<Context>, { minLength: 1, maxLength: 3 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (payload, contexts, draw) => {
          runs++
          // Random draws (random stickiness, a missing stickiness value) and the clock (no
          // currentTime) are not the context's: fixed here, the engine and explain see the same ones.
          vi.spyOn(Math, 'random').mockReturnValue(draw)
          vi.spyOn(Date, 'now').mockReturnValue(NOW)
          const engine = createEngine()
          engine.load(payload)
          const names = [...engine.getState().features.map((f) => f.name), 'no-such-flag']
          for (const context of contexts as Context[]) {
            const all = explainAll(engine, context)
            expect(all.map((e) => e.name)).toEqual(names.slice(0, -1))
            for (const name of names) {
              const explained = explain(engine, name, context)
              expect(explained.enabled).toBe(engine.isEnabled(name, context))
              expect(explained.variant).toBe(engine.getVariant(name, context))
              // The same shared result object (an unknown name's is made per call).
              if (name === 'no-such-flag') expect(explained.details).toEqual(engine.evaluate(name, context))
              else expect(explained.details).toBe(engine.evaluate(name, context))
              expectConsistent(explained)
              expectJsonSafe(explained)
              if (name !== 'no-such-flag') expect(all.find((e) => e.name === name)).toEqual(explained)
            }
          }
          vi.restoreAllMocks()
        },
      ),
      { numRuns: RUNS },
    )
    expect(runs).toBe(RUNS)
  })
})

describe('explain never throws', () => {
  it('for arbitrary payloads and contexts, hostile ones included, and its result is JSON', () => {
    fc.assert(
      fc.property(
        hostilePayloadArb,
        fc.array(hostileContextArb, { minLength: 1, maxLength: 3 }),
        (payload, contexts) => {
          vi.spyOn(Math, 'random').mockReturnValue(0.5)
          vi.spyOn(Date, 'now').mockReturnValue(NOW)
          const engine = createEngine()
          engine.load(payload)
          for (const context of contexts) {
            const all = explainAll(engine, context as Context)
            for (const explained of all)
              expect(explained.enabled).toBe(engine.isEnabled(explained.name, context as Context))
            JSON.stringify(all)
            JSON.stringify(explain(engine, '__proto__', context as Context))
          }
          vi.restoreAllMocks()
        },
      ),
      { numRuns: 300 },
    )
  })
})

function engineWith(
  features: Array<Record<string, unknown>>,
  options: Parameters<typeof createEngine>[0] = {},
): Engine {
  const engine = createEngine(options)
  engine.load({
    version: 2,
    features,
    segments: [
      { id: 1, name: 'pro', constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }] },
      { id: 2, name: 'beta', constraints: [{ contextName: 'beta', operator: 'IN', values: ['yes'] }] },
    ],
  })
  return engine
}

const on = (name: string, strategies: unknown[], extra: Record<string, unknown> = {}) => ({
  name,
  enabled: true,
  strategies,
  ...extra,
})

describe('explain: constraints', () => {
  const engine = engineWith([
    on('checkout', [
      {
        name: 'default',
        constraints: [
          { contextName: 'email', operator: 'STR_ENDS_WITH', values: [' @ACME.com ', ''], caseInsensitive: true },
          { contextName: 'age', operator: 'NUM_GT', value: 'twelve' },
          { contextName: 'country', operator: 'IN', values: ['NO'], inverted: true },
          { contextName: 'anything', operator: 'DATE_AFTER', value: '2024-01-01T00:00:00Z' },
        ],
      },
    ]),
  ])

  it('each shows its field, operator, values as the engine uses them, the value it saw and its answer', () => {
    const [first, second, third, fourth] = explain(engine, 'checkout', {
      properties: { email: 'Ann@acme.COM' },
      currentTime: '2024-06-01T00:00:00Z',
    }).strategies[0]!.constraints
    expect(first).toEqual({
      contextName: 'email',
      operator: 'STR_ENDS_WITH',
      values: ['@ACME.com'],
      value: null,
      inverted: false,
      caseInsensitive: true,
      warning: null,
      seen: 'Ann@acme.COM',
      result: true,
    })
    // An unusable literal: its warning (what checkConstraint says), and false.
    expect(second).toMatchObject({
      contextName: 'age',
      value: 'twelve',
      seen: null,
      result: false,
      warning: {
        code: 'invalid-number',
        message: 'NUM_GT on "age": "twelve" is not a valid number; the constraint never matches',
      },
    })
    // Inverted: the answer includes the inversion (IN on a missing field is false; inverted, true).
    expect(third).toMatchObject({ inverted: true, seen: null, result: true })
    // DATE_* compare currentTime whatever the field (Node SDK): that is what it saw.
    expect(fourth).toMatchObject({ contextName: 'anything', seen: '2024-06-01T00:00:00.000Z', result: true })
  })

  it("the first that failed is the strategy's failure, with the value it saw", () => {
    const strategy = explain(engine, 'checkout', { properties: { email: 'bob@example.com', age: '40' } }).strategies[0]!
    expect(strategy).toMatchObject({
      evaluated: true,
      matched: false,
      failure: { at: 'constraint', index: 0, message: 'email STR_ENDS_WITH did not match (saw "bob@example.com")' },
    })
    expect(strategy.test.result).toBeNull()
  })

  it("the time compared is the context's currentTime, else now, shown once for the flag", () => {
    expect(explain(engine, 'checkout', { currentTime: '2025-02-03T04:05:06Z' }).currentTime).toBe(
      '2025-02-03T04:05:06.000Z',
    )
    vi.spyOn(Date, 'now').mockReturnValue(NOW)
    expect(explain(engine, 'checkout', {}).currentTime).toBe(new Date(NOW).toISOString())
    expect(explain(engine, 'checkout', { currentTime: 'soon' }).currentTime).toBeNull()
  })
})

describe('explain: the caller owns what it gets', () => {
  it('changing an explanation changes nothing in the engine (the lists it shows are copies)', () => {
    const engine = engineWith([
      on('vip', [
        {
          name: 'default',
          constraints: [{ contextName: 'tier', operator: 'STR_STARTS_WITH', values: ['gold', 'platinum'] }],
        },
      ]),
    ])
    const shown = explain(engine, 'vip', { properties: { tier: 'silver' } }).strategies[0]!.constraints[0]!
    expect(shown.values).toEqual(['gold', 'platinum'])
    shown.values.push('silver')
    shown.values[0] = 'bronze'
    expect(engine.isEnabled('vip', { properties: { tier: 'silver' } })).toBe(false)
    expect(engine.isEnabled('vip', { properties: { tier: 'gold' } })).toBe(true)
    expect(explain(engine, 'vip', {}).strategies[0]!.constraints[0]!.values).toEqual(['gold', 'platinum'])
    expect(JSON.stringify(engine.getState().features[0])).toContain('"values":["gold","platinum"]')
  })
})

describe('explain: segments', () => {
  const engine = engineWith([
    on('seg', [{ name: 'default', segments: [1, 2] }]),
    on('gone', [{ name: 'default', segments: [9] }]),
  ])

  it('each referenced segment with its constraints, found or not', () => {
    const [pro, beta] = explain(engine, 'seg', { properties: { plan: 'pro', beta: 'no' } }).strategies[0]!.segments
    expect(pro).toMatchObject({
      id: 1,
      name: 'pro',
      found: true,
      matched: true,
      constraints: [{ contextName: 'plan', seen: 'pro', result: true }],
    })
    expect(beta).toMatchObject({
      id: 2,
      name: 'beta',
      found: true,
      matched: false,
      constraints: [{ contextName: 'beta', seen: 'no', result: false }],
    })
    expect(explain(engine, 'seg', { properties: { plan: 'pro', beta: 'no' } }).strategies[0]!.failure).toEqual({
      at: 'segment',
      id: 2,
      index: 0,
      message: 'segment beta: beta IN did not match (saw "no")',
    })
  })

  it('a segment the payload does not have fails its strategy', () => {
    const strategy = explain(engine, 'gone', {}).strategies[0]!
    expect(strategy.segments).toEqual([{ id: 9, name: null, found: false, constraints: [], matched: false }])
    expect(strategy.failure).toEqual({ at: 'segment', id: 9, index: null, message: 'segment 9 does not exist' })
  })
})

describe('explain: rollouts', () => {
  const flexible = (parameters: Record<string, unknown>) => on('r', [{ name: 'flexibleRollout', parameters }])

  it('default stickiness: the userId, its bucket 1..100 in the group, and the percentage', () => {
    const engine = engineWith([
      flexible({ rollout: '10', stickiness: 'default', groupId: 'Feature.flexibleRollout.10' }),
    ])
    // bucket("Feature.flexibleRollout.10:174") = 10 (engine.test.ts)
    const explained = explain(engine, 'r', { userId: '174', sessionId: 's' })
    expect(explained.strategies[0]!.test).toEqual({
      type: 'rollout',
      stickiness: 'default',
      stickinessUsed: 'userId',
      stickinessValue: '174',
      groupId: 'Feature.flexibleRollout.10',
      percentage: 10,
      bucket: 10,
      result: true,
    })
    expect(explained.random).toBe(false)
  })

  it('default stickiness falls back to sessionId, then to a random draw', () => {
    const engine = engineWith([flexible({ rollout: '50', stickiness: 'default' })])
    expect(explain(engine, 'r', { sessionId: 's1' }).strategies[0]!.test).toMatchObject({
      stickinessUsed: 'sessionId',
      stickinessValue: 's1',
      groupId: 'r',
    })
    vi.spyOn(Math, 'random').mockReturnValue(0.2)
    const random = explain(engine, 'r', {})
    expect(random.strategies[0]!.test).toMatchObject({
      stickinessUsed: 'random',
      stickinessValue: null,
      bucket: null,
      result: true,
    })
    expect(random.random).toBe(true)
  })

  it('a named stickiness field that is missing is off', () => {
    const engine = engineWith([flexible({ rollout: '100', stickiness: 'tenant' })])
    const strategy = explain(engine, 'r', { userId: 'u' }).strategies[0]!
    expect(strategy.test).toMatchObject({ stickiness: 'tenant', stickinessUsed: null, bucket: null, result: false })
    expect(strategy.failure).toEqual({ at: 'test', message: 'tenant is missing from the context' })
    expect(explain(engine, 'r', { properties: { tenant: 'acme' } }).strategies[0]!.test).toMatchObject({
      stickinessUsed: 'tenant',
      stickinessValue: 'acme',
      percentage: 100,
      result: true,
    })
  })

  it('the bucket above the percentage is the failure', () => {
    const engine = engineWith([
      flexible({ rollout: '10', stickiness: 'userId', groupId: 'Feature.flexibleRollout.10' }),
    ])
    // bucket(...:499) = 32
    expect(explain(engine, 'r', { userId: '499' }).strategies[0]!).toMatchObject({
      test: { bucket: 32, percentage: 10, result: false },
      failure: { at: 'test', message: 'bucket 32 is above 10' },
    })
  })

  it('an unusable rollout shows its warning, and no percentage', () => {
    const engine = engineWith([flexible({ rollout: 'half' })])
    const strategy = explain(engine, 'r', { userId: 'u' }).strategies[0]!
    expect(strategy.warnings).toEqual([
      { code: 'invalid-strategy', message: '"half" is not a number; the strategy never matches' },
    ])
    expect(strategy.test).toMatchObject({ type: 'rollout', percentage: null, result: false })
  })

  it('the legacy gradual rollouts say which id they hash', () => {
    const engine = engineWith([
      on('user', [{ name: 'gradualRolloutUserId', parameters: { percentage: '100', groupId: 'g' } }]),
      on('session', [{ name: 'gradualRolloutSessionId', parameters: { percentage: '100' } }]),
      on('dice', [{ name: 'gradualRolloutRandom', parameters: { percentage: '30' } }]),
    ])
    expect(explain(engine, 'user', { userId: 'u1' }).strategies[0]!.test).toMatchObject({
      stickiness: 'userId',
      stickinessUsed: 'userId',
      stickinessValue: 'u1',
      groupId: 'g',
      result: true,
    })
    expect(explain(engine, 'session', { userId: 'u1' }).strategies[0]!.test).toMatchObject({
      stickiness: 'sessionId',
      stickinessUsed: null,
      result: false,
    })
    vi.spyOn(Math, 'random').mockReturnValue(0.5)
    expect(explain(engine, 'dice', {})).toMatchObject({
      enabled: false,
      random: true,
      strategies: [{ test: { stickiness: 'random', stickinessUsed: 'random', percentage: 30, result: false } }],
    })
  })
})

describe('explain: the strategies that pick users', () => {
  const engine = engineWith(
    [
      on('ids', [{ name: 'userWithId', parameters: { userIds: 'ann, bob' } }]),
      on('ips', [{ name: 'remoteAddress', parameters: { IPs: '10.0.0.0/8, office' } }]),
      on('hosts', [{ name: 'applicationHostname', parameters: { hostNames: 'web-1,web-2' } }]),
    ],
    { hostname: 'web-2' },
  )

  it('userWithId: the userId seen, listed or not', () => {
    expect(explain(engine, 'ids', { userId: 'bob' }).strategies[0]!.test).toEqual({
      type: 'userWithId',
      userIds: ['ann', 'bob'],
      seen: 'bob',
      result: true,
    })
    expect(explain(engine, 'ids', { userId: 'cy' }).strategies[0]!).toMatchObject({
      test: { seen: 'cy', result: false },
      failure: { message: 'userId "cy" is not listed' },
    })
  })

  it('remoteAddress: the address seen, and entries the engine cannot use', () => {
    const strategy = explain(engine, 'ips', { remoteAddress: '10.1.2.3' }).strategies[0]!
    expect(strategy.test).toEqual({
      type: 'remoteAddress',
      ips: ['10.0.0.0/8', 'office'],
      seen: '10.1.2.3',
      result: true,
    })
    expect(strategy.warnings.map((w) => w.code)).toEqual(['invalid-cidr'])
  })

  it("applicationHostname: the engine's host name", () => {
    expect(explain(engine, 'hosts').strategies[0]!.test).toEqual({
      type: 'applicationHostname',
      hostNames: ['web-1', 'web-2'],
      hostname: 'web-2',
      result: true,
    })
  })
})

describe('explain: custom and unknown strategies', () => {
  const strategies = [
    {
      name: 'tenant',
      isEnabled: (parameters: Record<string, string>, context: Context) =>
        parameters.tenants!.split(',').includes(String(context.properties?.tenant)),
    },
    {
      name: 'broken',
      isEnabled: () => {
        throw new Error('boom')
      },
    },
  ]
  const engine = engineWith(
    [
      on('custom', [{ name: 'tenant', parameters: { tenants: 'acme' } }]),
      on('broken', [{ name: 'broken' }]),
      on('unknown', [{ name: 'mystery' }, 'not a strategy']),
    ],
    { strategies },
  )

  it('a custom strategy is marked as such, with its parameters and answer', () => {
    expect(explain(engine, 'custom', { properties: { tenant: 'acme' } }).strategies[0]!.test).toEqual({
      type: 'custom',
      parameters: { tenants: 'acme' },
      result: true,
    })
  })

  it('a custom strategy that throws makes the explanation an error, as evaluate reports it', () => {
    const explained = explain(engine, 'broken', {})
    expect(explained).toMatchObject({
      outcome: 'error',
      enabled: false,
      error: 'custom strategy "broken" threw while evaluating "broken": boom',
    })
    expect(explained.details).toEqual(engine.evaluate('broken', {}))
  })

  it('an unknown name, or a strategy that is not an object, never matches', () => {
    const [mystery, junk] = explain(engine, 'unknown', {}).strategies
    expect(mystery).toMatchObject({
      name: 'mystery',
      test: { type: 'unknown', result: false },
      warnings: [{ code: 'unknown-strategy' }],
    })
    expect(junk).toMatchObject({
      name: '',
      test: { type: 'unknown', result: false },
      warnings: [{ code: 'invalid-strategy' }],
    })
  })
})

describe('explain: the flag', () => {
  const engine = engineWith([
    on(
      'two',
      [
        { name: 'userWithId', title: 'Staff', parameters: { userIds: 'ann' } },
        { name: 'default', disabled: true },
        { name: 'default' },
      ],
      { project: 'shop', type: 'release' },
    ),
    { name: 'off', enabled: false, strategies: [{ name: 'default' }] },
    on('open', []),
    { name: 'broken', enabled: true, strategies: 'nope' },
  ])

  it('strategies in order: the first that matched wins, the ones after are not evaluated', () => {
    const explained = explain(engine, 'two', { userId: 'bob' })
    expect(explained).toMatchObject({
      project: 'shop',
      type: 'release',
      outcome: 'strategy-matched',
      matchedStrategy: 1,
      enabled: true,
      flagEnabled: true,
    })
    expect(explained.strategies.map((s) => [s.name, s.title, s.disabled, s.evaluated, s.matched])).toEqual([
      ['userWithId', 'Staff', false, true, false],
      ['default', null, true, true, true],
      ['default', null, false, false, null],
    ])
  })

  it('off in its environment: nothing is evaluated', () => {
    expect(explain(engine, 'off', {})).toMatchObject({
      outcome: 'disabled',
      flagEnabled: false,
      enabled: false,
      strategies: [{ evaluated: false, matched: null }],
      variantExplanation: { source: 'none', none: 'flag-off' },
    })
  })

  it('on without strategies, unknown, and a flag that did not compile', () => {
    expect(explain(engine, 'open', {})).toMatchObject({
      outcome: 'no-strategies',
      enabled: true,
      matchedStrategy: null,
    })
    expect(explain(engine, 'nope', {})).toMatchObject({
      outcome: 'not-found',
      enabled: false,
      details: { errorCode: 'FLAG_NOT_FOUND' },
    })
    expect(explain(engine, 'broken', {})).toMatchObject({
      outcome: 'invalid',
      enabled: false,
      invalid: '"strategies" is not an array',
      details: { errorCode: 'PARSE_ERROR' },
    })
  })

  it('explainAll: every flag in payload order, off ones too', () => {
    expect(explainAll(engine, { userId: 'ann' }).map((e) => [e.name, e.enabled])).toEqual([
      ['two', true],
      ['off', false],
      ['open', true],
      ['broken', false],
    ])
  })

  it('is plain data: JSON keeps all of it', () => {
    const explained = explainAll(engine, { userId: 'ann' })
    expect(JSON.parse(JSON.stringify(explained))).toEqual(explained)
    for (const one of explained) expectJsonSafe(one)
  })
})

describe('explain: which engine, and when', () => {
  it('sees the flags an engine has when asked: after a load, and a fork its own', () => {
    const engine = engineWith([on('a', [{ name: 'default' }])])
    const fork = engine.fork()
    fork.load({
      events: [
        {
          type: 'feature-updated',
          eventId: 2,
          feature: { name: 'a', enabled: false, strategies: [{ name: 'default' }] },
        },
      ],
    })
    expect(explain(fork, 'a', {})).toMatchObject({ outcome: 'disabled', enabled: false })
    expect(explain(engine, 'a', {})).toMatchObject({ outcome: 'strategy-matched', enabled: true })
    engine.load({
      version: 2,
      features: [
        { name: 'b', enabled: true, strategies: [] },
        { name: 'a', enabled: false, strategies: [] },
      ],
    })
    expect(explainAll(engine, {}).map((e) => [e.name, e.outcome])).toEqual([
      ['b', 'no-strategies'],
      ['a', 'disabled'],
    ])
  })

  it('refuses what createEngine did not make, with a TypeError that says so', () => {
    const lookalike = { ...createEngine() }
    for (const notAnEngine of [lookalike, {}, null, undefined, 'engine']) {
      expect(() => explain(notAnEngine as unknown as Engine, 'a')).toThrow(/expected an engine made by createEngine/)
      expect(() => explainAll(notAnEngine as unknown as Engine)).toThrow(TypeError)
    }
  })
})

describe('explain: dependencies', () => {
  const engine = engineWith([
    on('parent', [
      {
        name: 'userWithId',
        parameters: { userIds: 'ann' },
        variants: [{ name: 'blue', weight: 1000, stickiness: 'default' }],
      },
    ]),
    on('wants-blue', [], { dependencies: [{ feature: 'parent', variants: ['blue'] }] }),
    on('wants-off', [], { dependencies: [{ feature: 'parent', enabled: false }] }),
    on('orphan', [], { dependencies: [{ feature: 'missing' }, { feature: 'parent' }] }),
    on('grandchild', [], { dependencies: [{ feature: 'wants-blue' }] }),
  ])

  it('each dependency: what it wants, what the parent evaluated to, satisfied or not', () => {
    expect(explain(engine, 'wants-blue', { userId: 'ann' })).toMatchObject({
      outcome: 'no-strategies',
      enabled: true,
      dependencies: [
        {
          feature: 'parent',
          enabled: true,
          variants: ['blue'],
          parent: { enabled: true, variant: 'blue' },
          problem: null,
          satisfied: true,
        },
      ],
    })
    expect(explain(engine, 'wants-blue', { userId: 'bob' })).toMatchObject({
      outcome: 'dependency-unmet',
      enabled: false,
      dependencies: [{ parent: { enabled: false, variant: 'disabled' }, satisfied: false }],
    })
    expect(explain(engine, 'wants-off', { userId: 'bob' }).dependencies).toMatchObject([
      { enabled: false, satisfied: true },
    ])
  })

  it('an unknown parent, or one with dependencies of its own, is never satisfied; the next ones are not checked', () => {
    expect(explain(engine, 'orphan', {}).dependencies).toEqual([
      { feature: 'missing', enabled: true, variants: null, parent: null, problem: 'unknown-parent', satisfied: false },
      { feature: 'parent', enabled: true, variants: null, parent: null, problem: null, satisfied: null },
    ])
    expect(explain(engine, 'grandchild', { userId: 'ann' }).dependencies).toMatchObject([
      { problem: 'parent-has-dependencies', satisfied: false },
    ])
  })
})

describe('explain: the variant', () => {
  const variants = [
    { name: 'red', weight: 500, stickiness: 'default', overrides: [{ contextName: 'userId', values: ['vip'] }] },
    { name: 'blue', weight: 500, stickiness: 'default' },
  ]
  const engine = engineWith([
    on('flag-variants', [{ name: 'default' }], { variants }),
    on(
      'strategy-variants',
      [
        {
          name: 'flexibleRollout',
          parameters: { rollout: '100', stickiness: 'tenant', groupId: 'g' },
          variants: [
            { name: 'one', weight: 1, stickiness: 'tenant' },
            { name: 'none', weight: 0 },
          ],
        },
      ],
      { variants },
    ),
    on('weightless', [{ name: 'default', variants: [{ name: 'zero', weight: 0 }] }], {
      variants: [{ name: 'nil', weight: 0 }],
    }),
    on('plain', [{ name: 'default' }]),
  ])

  it("from the flag's variants: the stickiness used, its bucket in the total weight and the ranges", () => {
    const explained = explain(engine, 'flag-variants', { sessionId: 's9' })
    const v = explained.variantExplanation
    expect(v).toMatchObject({
      source: 'flag',
      none: null,
      totalWeight: 1000,
      override: null,
      stickiness: 'default',
      stickinessUsed: 'sessionId',
      stickinessValue: 's9',
    })
    expect(v.candidates).toEqual([
      { name: 'red', weight: 500, from: 1, to: 500 },
      { name: 'blue', weight: 500, from: 501, to: 1000 },
    ])
    expect(v.chosen).toBe(v.bucket! <= 500 ? 'red' : 'blue')
    expect(explained.variant.name).toBe(v.chosen)
  })

  it('an override wins over the weights, and says which', () => {
    expect(explain(engine, 'flag-variants', { userId: 'vip' }).variantExplanation).toMatchObject({
      source: 'flag',
      chosen: 'red',
      override: { contextName: 'userId', values: ['vip'], seen: 'vip', variant: 'red' },
      stickiness: null,
      bucket: null,
    })
  })

  it("from the matched strategy's variants", () => {
    expect(explain(engine, 'strategy-variants', { properties: { tenant: 'acme' } }).variantExplanation).toMatchObject({
      source: 'strategy',
      chosen: 'one',
      stickiness: 'tenant',
      stickinessUsed: 'tenant',
      stickinessValue: 'acme',
      bucket: 1,
      candidates: [
        { name: 'one', weight: 1, from: 1, to: 1 },
        { name: 'none', weight: 0, from: null, to: null },
      ],
    })
  })

  it('why there is none: off, no variants, or none with weight', () => {
    expect(explain(engine, 'plain', {}).variantExplanation).toMatchObject({
      source: 'none',
      none: 'no-variants',
      chosen: null,
    })
    expect(explain(engine, 'weightless', {}).variantExplanation).toMatchObject({
      source: 'none',
      none: 'no-weight',
      strategyVariantsUnusable: true,
    })
    expect(explain(engine, 'flag-variants', {}).variantExplanation.none).toBe(null)
  })
})
