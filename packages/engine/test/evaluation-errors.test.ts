// The evaluation methods as one family with one error contract (README, "Evaluation methods"):
// what each answers for a name no flag has and for input of the wrong type, that none throws on
// anything a caller passes, and the one failure, a custom strategy that throws: Unleash's answers
// throw CustomStrategyError, OpenFeature's give that flag a GENERAL result with the same message.
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type Context, createEngine, CustomStrategyError, type Engine, type EvaluateAllOptions } from '@vexil/engine'
import { hostileContextArb, payloadArb } from './arbitraries.js'

type Call = (engine: Engine, name: unknown, context: unknown, options?: unknown) => unknown

/** Each evaluation method, given a name where it takes one and options where it takes them. */
const FAMILY: Record<string, Call> = {
  isEnabled: (engine, name, context) => engine.isEnabled(name as string, context as Context),
  getVariant: (engine, name, context) => engine.getVariant(name as string, context as Context),
  evaluateAll: (engine, _name, context, options) =>
    engine.evaluateAll(context as Context, options as EvaluateAllOptions),
  evaluate: (engine, name, context) => engine.evaluate(name as string, context as Context),
  evaluateAllDetails: (engine, _name, context, options) =>
    engine.evaluateAllDetails(context as Context, options as { trace?: never }),
}

const DISABLED = { name: 'disabled', enabled: false, feature_enabled: false, featureEnabled: false }
const on = (name: string, strategies: unknown[]) => ({ name, enabled: true, strategies })

/** Answers that use no randomness, so two calls compare: an id list, a constraint, a userId rollout. */
function fixedEngine(): Engine {
  const engine = createEngine()
  engine.load({
    features: [
      on('everyone', [{ name: 'default' }]),
      on('listed', [{ name: 'userWithId', parameters: { userIds: 'u1' } }]),
      on('tenant', [
        { name: 'default', constraints: [{ contextName: 'tenant', operator: 'NOT_IN', values: ['acme'] }] },
      ]),
      {
        ...on('half', [
          { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'userId', groupId: 'half' } },
        ]),
        variants: [{ name: 'v', weight: 1000, stickiness: 'userId' }],
      },
      { name: 'off', enabled: false, strategies: [] },
    ],
  })
  return engine
}

describe('the evaluation methods', () => {
  it('are the ones the README documents as a family', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
    const section = readme.slice(readme.indexOf('## Evaluation methods'), readme.indexOf('**One error contract.**'))
    const documented = [...section.matchAll(/^\| `(\w+)\(/gm)].map((match) => match[1])
    expect(documented).toEqual(Object.keys(FAMILY))
  })

  it('answer a name no flag has, each in its own result type', () => {
    const engine = fixedEngine()
    const unknownToggle = { name: 'nope', enabled: false, variant: DISABLED, impressionData: false }
    expect(engine.isEnabled('nope')).toBe(false)
    expect(engine.getVariant('nope')).toEqual(DISABLED)
    expect(engine.evaluateAll({}, { names: ['nope', 'everyone'] })).toEqual([
      unknownToggle,
      expect.objectContaining({ name: 'everyone', enabled: true }),
    ])
    expect(engine.evaluate('nope')).toEqual({
      flagKey: 'nope',
      type: undefined,
      reason: 'ERROR',
      errorCode: 'FLAG_NOT_FOUND',
      errorMessage: 'No flag named "nope"',
      flagMetadata: {},
      toggle: unknownToggle,
    })
    expect(engine.evaluateAllDetails({}).map((details) => details.flagKey)).toEqual([
      'everyone',
      'listed',
      'tenant',
      'half',
      'off',
    ])
  })

  it.each([42, Symbol('everyone'), Object.create(null), { toString: () => 'everyone' }, null, ['everyone']])(
    "take a name that is not a string as no flag's (%s)",
    (name) => {
      const engine = fixedEngine()
      expect(engine.isEnabled(name as string)).toBe(false)
      expect(engine.getVariant(name as string)).toEqual(DISABLED)
      expect(engine.evaluateAll({}, { names: [name as string] })).toEqual([
        expect.objectContaining({ enabled: false, variant: DISABLED }),
      ])
      expect(engine.evaluate(name as string)).toMatchObject({ reason: 'ERROR', errorCode: 'FLAG_NOT_FOUND' })
    },
  )

  it.each(Object.entries(FAMILY))('%s takes a context that is not an object as an empty one', (_, call) => {
    const engine = fixedEngine()
    for (const name of ['everyone', 'listed', 'tenant', 'half', 'off']) {
      const empty = call(engine, name, {})
      for (const context of [undefined, null, 7, 'u1', true, Symbol('u1'), () => ({ userId: 'u1' })])
        expect(call(engine, name, context)).toEqual(empty)
    }
  })

  it.each([
    ['options', 7],
    ['options', 'names'],
    ['names', { names: 'everyone' }],
    ['names', { names: 3 }],
    ['names', { names: { 0: 'everyone', length: 1 } }],
    ['includeDisabled', { includeDisabled: 'yes' }],
    ['trace', { trace: 5 }],
    ['trace', { trace: 'trace' }],
  ])('evaluateAll and evaluateAllDetails ignore an option of the wrong type (%s: %o)', (_, options) => {
    const engine = fixedEngine()
    const context = { userId: 'u1' }
    expect(engine.evaluateAll(context, options as EvaluateAllOptions)).toEqual(engine.evaluateAll(context))
    expect(engine.evaluateAllDetails(context, options as { trace?: never })).toEqual(engine.evaluateAllDetails(context))
  })

  it('leave a trace they cannot write as it is, and fill one they can', () => {
    const engine = fixedEngine()
    const frozen = Object.freeze({ usedRandom: true, usedClock: true, usedCustomStrategy: true })
    expect(engine.evaluateAll({ userId: 'u1' }, { trace: frozen })).toEqual(engine.evaluateAll({ userId: 'u1' }))
    expect(engine.evaluateAllDetails({ userId: 'u1' }, { trace: frozen })).toEqual(
      engine.evaluateAllDetails({ userId: 'u1' }),
    )
    expect(frozen).toEqual({ usedRandom: true, usedClock: true, usedCustomStrategy: true })
    const trace = { usedRandom: true, usedClock: true, usedCustomStrategy: true }
    engine.evaluateAll({ userId: 'u1' }, { trace })
    expect(trace).toEqual({ usedRandom: false, usedClock: false, usedCustomStrategy: false })
  })

  it('never throw, whatever names, contexts and options a caller passes', () => {
    const anything = fc.anything({
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withNullPrototype: true,
      withObjectString: true,
      withSet: true,
      withSparseArray: true,
      withTypedArray: true,
    })
    const name = fc.oneof(anything, fc.string(), fc.constantFrom('__proto__', 'constructor', 'toString', 'f0', 'f1'))
    const options = fc.oneof(
      anything,
      fc.record(
        { names: fc.oneof(anything, fc.array(name)), includeDisabled: anything, trace: anything },
        { requiredKeys: [] },
      ),
    )
    fc.assert(
      fc.property(
        payloadArb(),
        name,
        fc.oneof(hostileContextArb, anything),
        options,
        (payload, flag, context, option) => {
          const engine = createEngine()
          engine.load(payload)
          for (const call of Object.values(FAMILY)) call(engine, flag, context, option)
          for (const feature of payload.features)
            for (const call of Object.values(FAMILY)) call(engine, feature.name, context, option)
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('a custom strategy that throws', () => {
  const failure = new Error('kaput')
  const engine = createEngine({
    strategies: [
      {
        name: 'boom',
        isEnabled: () => {
          throw failure
        },
      },
    ],
  })
  engine.load({
    features: [on('a', [{ name: 'default' }]), on('custom', [{ name: 'boom' }]), on('b', [{ name: 'default' }])],
  })

  /** What a call threw (it must throw). */
  const thrownBy = (call: () => unknown): unknown => {
    try {
      call()
    } catch (error) {
      return error
    }
    throw new Error('the call did not throw')
  }

  it.each([
    ['isEnabled', () => engine.isEnabled('custom', {})],
    ['getVariant', () => engine.getVariant('custom', {})],
    ['evaluateAll', () => engine.evaluateAll({})],
    ['evaluateAll, includeDisabled', () => engine.evaluateAll({}, { includeDisabled: true })],
    ['evaluateAll, names', () => engine.evaluateAll({}, { names: ['custom'] })],
  ])('makes %s, an Unleash answer, throw CustomStrategyError', (_, call) => {
    const error = thrownBy(call)
    expect(error).toBeInstanceOf(CustomStrategyError)
    expect(error).toMatchObject({
      code: 'CUSTOM_STRATEGY_FAILED',
      featureName: 'custom',
      strategyName: 'boom',
      cause: failure,
    })
  })

  it('makes that flag a GENERAL result of evaluate and evaluateAllDetails, with the message CustomStrategyError has', () => {
    const { message } = thrownBy(() => engine.isEnabled('custom', {})) as CustomStrategyError
    expect(engine.evaluate('custom', {})).toMatchObject({
      flagKey: 'custom',
      reason: 'ERROR',
      errorCode: 'GENERAL',
      errorMessage: message,
      toggle: { enabled: false },
    })
    expect(
      engine.evaluateAllDetails({}).map((details) => [details.flagKey, details.reason, details.errorMessage]),
    ).toEqual([
      ['a', 'STATIC', undefined],
      ['custom', 'ERROR', message],
      ['b', 'STATIC', undefined],
    ])
  })

  it("leaves the other flags' answers standing", () => {
    expect(engine.isEnabled('a', {})).toBe(true)
    expect(engine.evaluateAll({}, { names: ['a', 'b'] }).map((toggle) => toggle.enabled)).toEqual([true, true])
    expect(engine.evaluate('b', {}).value).toBe(true)
  })
})
