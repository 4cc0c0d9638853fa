import { describe, expect, it } from 'vitest'
import { createEngine, type EngineWarning } from '@vexil/engine'

const on = (name: string, strategies: unknown[], extra: Record<string, unknown> = {}) => ({
  name,
  enabled: true,
  strategies,
  ...extra,
})
const withConstraint = (name: string, constraint: Record<string, unknown>) =>
  on(name, [{ name: 'default', constraints: [constraint] }])

describe('load warnings are { flag, code, message }', () => {
  describe.each([
    ['NUM_GT', 'age', 'twelve', 'invalid-number', 'NUM_GT on "age": "twelve" is not a valid number'],
    ['NUM_EQ', 'age', undefined, 'invalid-number', 'NUM_EQ on "age": no number given'],
    [
      'DATE_AFTER',
      'currentTime',
      'next tuesday',
      'invalid-date',
      'DATE_AFTER on "currentTime": "next tuesday" is not a valid date',
    ],
    [
      'SEMVER_GTE',
      'appVersion',
      '2.x',
      'invalid-semver',
      'SEMVER_GTE on "appVersion": "2.x" is not a valid semantic version',
    ],
    ['REGEX', 'email', '^(?=admin)', 'invalid-regex', 'REGEX on "email": "^(?=admin)" is not a valid RE2 pattern ('],
  ])('%s with the literal %j', (operator, contextName, value, code, message) => {
    const constraint = { contextName, operator, value }
    const context = {
      properties: { age: '30', appVersion: '3.0.0', email: 'admin@example.com' },
      currentTime: '2030-01-01T00:00:00Z',
    }

    it('never matches, and the warning names the flag, the field, the operator and the literal', () => {
      const engine = createEngine()
      const warnings = engine.load({ features: [withConstraint('f', constraint)] })
      expect(warnings).toEqual([{ flag: 'f', code, message: expect.stringContaining(message) }])
      expect(warnings[0]!.message).toMatch(/the constraint never matches$/)
      expect(engine.isEnabled('f', context)).toBe(false)
    })

    it('inverted, always matches (Node SDK), and the warning says so', () => {
      const engine = createEngine()
      const warnings = engine.load({ features: [withConstraint('f', { ...constraint, inverted: true })] })
      expect(warnings).toEqual([
        { flag: 'f', code, message: expect.stringMatching(/the inverted constraint always matches$/) },
      ])
      expect(engine.isEnabled('f', context)).toBe(true)
    })
  })

  it('every flag with the same bad literal gets its own warning', () => {
    const bad = { contextName: 'age', operator: 'NUM_GT', value: 'x' }
    const warnings = createEngine().load({ features: [withConstraint('a', bad), withConstraint('b', bad)] })
    expect(warnings.map((w) => [w.flag, w.code])).toEqual([
      ['a', 'invalid-number'],
      ['b', 'invalid-number'],
    ])
  })

  it("a segment's bad literal names the segment, not one of the flags that use it", () => {
    const warnings = createEngine().load({
      segments: [{ id: 7, constraints: [{ contextName: 'appVersion', operator: 'SEMVER_GT', value: 'latest' }] }],
      features: [on('a', [{ name: 'default', segments: [7] }]), on('b', [{ name: 'default', segments: [7] }])],
    })
    expect(warnings).toEqual([
      {
        flag: undefined,
        code: 'invalid-semver',
        message:
          'segment 7: SEMVER_GT on "appVersion": "latest" is not a valid semantic version; the constraint never matches',
      },
    ])
  })

  it('each problem of a flag has its code', () => {
    const warnings = createEngine().load({
      features: [
        on('strategy', ['nope']),
        on('unknown-strategy', [{ name: 'nope' }]),
        on('segment', [{ name: 'default', segments: [404] }]),
        on('constraint', [{ name: 'default', constraints: [null] }]),
        on('operator', [{ name: 'default', constraints: [{ contextName: 'x', operator: 'NUM_ABOUT', value: '1' }] }]),
        on('dependency', [], { dependencies: [{ enabled: true }] }),
        on('orphan', [], { dependencies: [{ feature: 'missing' }] }),
        { name: 'broken', enabled: true, strategies: {} },
      ],
    })
    const codes = (w: EngineWarning) => [w.flag, w.code]
    expect(warnings.map(codes)).toEqual([
      ['strategy', 'invalid-strategy'],
      ['unknown-strategy', 'unknown-strategy'],
      ['segment', 'unknown-segment'],
      ['constraint', 'invalid-constraint'],
      ['operator', 'unknown-operator'],
      ['dependency', 'invalid-dependency'],
      ['broken', 'invalid-flag'],
      ['orphan', 'unknown-dependency'],
    ])
  })

  it('problems of the payload itself name no flag', () => {
    const engine = createEngine()
    expect(
      engine.load({ features: [{ enabled: true }], segments: [{ name: 'no id' }] }).map((w) => [w.flag, w.code]),
    ).toEqual([
      [undefined, 'invalid-flag'],
      [undefined, 'invalid-segment'],
    ])
    expect(engine.load({ events: [42, { type: 'feature-renamed' }] }).map((w) => [w.flag, w.code])).toEqual([
      [undefined, 'invalid-event'],
      [undefined, 'invalid-event'],
    ])
    expect(engine.load([]).map((w) => w.code)).toEqual(['invalid-payload'])
  })
})
