import { describe, expect, it } from 'vitest'
import { checkConstraint, checkStrategy, createEngine, type EngineWarning } from '@vexil/engine'

const codes = (warnings: EngineWarning[]) => warnings.map((w) => w.code)

/** What `load` says about the same constraint in a flag, without the flag. */
function loadWarnings(strategy: unknown): EngineWarning[] {
  return createEngine()
    .load({ features: [{ name: 'f', enabled: true, strategies: [strategy] }] })
    .map((warning) => ({ ...warning, flag: undefined }))
}

describe('checkConstraint: the warnings load gives for one constraint', () => {
  describe.each([
    // each operator family with a literal it can use
    ['IN', { values: ['a', 'b'] }],
    ['NOT_IN', { values: [] }],
    ['STR_STARTS_WITH', { values: ['ab'] }],
    ['STR_ENDS_WITH', { values: ['ab'] }],
    ['STR_CONTAINS', { values: ['ab'] }],
    ['NUM_EQ', { value: '1.5' }],
    ['NUM_GT', { value: '-3' }],
    ['NUM_LTE', { value: '0' }],
    ['DATE_AFTER', { value: '2024-01-01T00:00:00.000Z' }],
    ['DATE_BEFORE', { value: '2024-01-01' }],
    ['SEMVER_EQ', { value: '1.2.3' }],
    ['SEMVER_GTE', { value: 'v1.2.3-beta.1' }],
    ['REGEX', { value: '^admin@.+\\.com$' }],
    ['IN_CIDR', { values: ['10.0.0.0/8', '2001:db8::/32', '192.168.1.1'] }],
  ])('%s %j', (operator, valid) => {
    it.each([
      [false, false],
      [true, false],
      [false, true],
      [true, true],
    ])('is accepted (inverted %s, caseInsensitive %s)', (inverted, caseInsensitive) => {
      expect(checkConstraint({ contextName: 'field', operator, ...valid, inverted, caseInsensitive })).toEqual([])
    })
  })

  describe.each([
    // each operator family with a literal it cannot use, and the code
    ['NUM_EQ', { value: 'one' }, 'invalid-number'],
    ['NUM_GT', {}, 'invalid-number'],
    ['NUM_LTE', { value: '12x' }, 'invalid-number'],
    ['DATE_AFTER', { value: 'next tuesday' }, 'invalid-date'],
    ['DATE_BEFORE', {}, 'invalid-date'],
    ['SEMVER_EQ', { value: '1.2' }, 'invalid-semver'],
    ['SEMVER_GTE', { value: 'latest' }, 'invalid-semver'],
    ['REGEX', { value: '^(?=admin)' }, 'invalid-regex'],
    ['IN_CIDR', { values: ['10.0.0.0/33'] }, 'invalid-cidr'],
  ])('%s %j', (operator, invalid, code) => {
    it.each([
      [false, false],
      [true, false],
      [false, true],
      [true, true],
    ])('is reported, as load does (inverted %s, caseInsensitive %s)', (inverted, caseInsensitive) => {
      const constraint = { contextName: 'field', operator, ...invalid, inverted, caseInsensitive }
      const warnings = checkConstraint(constraint)
      expect(codes(warnings)).toEqual([code])
      expect(warnings[0]!.message).toMatch(
        inverted ? /the inverted constraint always matches$/ : /the constraint never matches$/,
      )
      expect(warnings).toEqual(loadWarnings({ name: 'default', constraints: [constraint] }))
    })
  })

  it('names the operator, the field and the literal, and warns with flag undefined', () => {
    expect(checkConstraint({ contextName: 'age', operator: 'NUM_GT', value: 'twelve' })).toEqual([
      {
        flag: undefined,
        code: 'invalid-number',
        message: 'NUM_GT on "age": "twelve" is not a valid number; the constraint never matches',
      },
    ])
  })

  it('IN_CIDR skips the entries that are not addresses or ranges, and still uses the others', () => {
    const constraint = {
      contextName: 'remoteAddress',
      operator: 'IN_CIDR',
      values: ['10.0.0.0/8', '10.1.2.300', 'fe80::/129', 'localhost'],
    }
    expect(checkConstraint(constraint)).toEqual([
      {
        flag: undefined,
        code: 'invalid-cidr',
        message:
          'IN_CIDR on "remoteAddress": "10.1.2.300", "fe80::/129", "localhost" are not IP addresses or CIDR ranges; they are skipped',
      },
    ])
    const engine = createEngine()
    expect(
      codes(
        engine.load({
          features: [{ name: 'f', enabled: true, strategies: [{ name: 'default', constraints: [constraint] }] }],
        }),
      ),
    ).toEqual(['invalid-cidr'])
    expect(engine.isEnabled('f', { remoteAddress: '10.9.9.9' })).toBe(true)
    expect(engine.isEnabled('f', { remoteAddress: 'localhost' })).toBe(false)
  })

  it('IN_CIDR with no usable entry says what the constraint does then', () => {
    expect(checkConstraint({ contextName: 'ip', operator: 'IN_CIDR', values: ['nope'] })[0]!.message).toBe(
      'IN_CIDR on "ip": "nope" is not an IP address or CIDR range; it is skipped; the constraint never matches',
    )
    expect(
      checkConstraint({ contextName: 'ip', operator: 'IN_CIDR', values: ['nope'], inverted: true })[0]!.message,
    ).toMatch(/the inverted constraint always matches$/)
  })

  it('every flag with the same bad IN_CIDR gets its own warning (identical constraints share one compile)', () => {
    const bad = { contextName: 'ip', operator: 'IN_CIDR', values: ['10.0.0.0/8', 'x'] }
    const warnings = createEngine().load({
      features: ['a', 'b'].map((name) => ({
        name,
        enabled: true,
        strategies: [{ name: 'default', constraints: [bad] }],
      })),
    })
    expect(warnings.map((w) => [w.flag, w.code])).toEqual([
      ['a', 'invalid-cidr'],
      ['b', 'invalid-cidr'],
    ])
  })

  it.each([
    [{ contextName: 'x', operator: 'NUM_ABOUT', value: '1' }, 'unknown-operator'],
    [{ contextName: 'x' }, 'unknown-operator'],
    [null, 'invalid-constraint'],
    ['IN', 'invalid-constraint'],
  ])('%j: %s', (constraint, code) => {
    expect(codes(checkConstraint(constraint))).toEqual([code])
  })
})

describe('checkStrategy: the warnings load gives for one strategy', () => {
  it.each([
    { name: 'default' },
    { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: 'g' } },
    { name: 'flexibleRollout', parameters: { rollout: 0 } },
    { name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'tenant' } },
    { name: 'gradualRolloutUserId', parameters: { percentage: '12.5' } },
    { name: 'gradualRolloutRandom', parameters: { percentage: '1' } },
    { name: 'userWithId', parameters: { userIds: 'a, b,c' } },
    { name: 'remoteAddress', parameters: { IPs: '10.0.0.1, 192.168.0.0/16, 2001:db8::/32' } },
    { name: 'applicationHostname', parameters: { hostNames: 'web-1' } },
  ])('accepts %j', (strategy) => {
    expect(checkStrategy(strategy)).toEqual([])
  })

  it.each([
    [
      { name: 'flexibleRollout', parameters: { rollout: 'half' } },
      '"half" is not a number; the strategy never matches',
    ],
    [{ name: 'flexibleRollout', parameters: {} }, 'no rollout given; the strategy never matches'],
    [{ name: 'flexibleRollout', parameters: { rollout: ' ' } }, 'no rollout given; the strategy never matches'],
    [{ name: 'flexibleRollout', parameters: { rollout: '-5' } }, 'rollout -5 is below 0; the strategy never matches'],
    [
      { name: 'flexibleRollout', parameters: { rollout: '150' } },
      'rollout 150 is above 100; the strategy matches everyone',
    ],
    [
      { name: 'gradualRolloutSessionId', parameters: { percentage: 'x' } },
      '"x" is not a number; the strategy never matches',
    ],
    [{ name: 'gradualRolloutRandom' }, 'no percentage given; the strategy never matches'],
  ])('reports the rollout of %j as invalid-strategy', (strategy, message) => {
    expect(checkStrategy(strategy)).toEqual([{ flag: undefined, code: 'invalid-strategy', message }])
    expect(loadWarnings(strategy)).toEqual(checkStrategy(strategy))
  })

  it('reports remoteAddress IPs that are not addresses or ranges (they only match their exact text)', () => {
    const strategy = { name: 'remoteAddress', parameters: { IPs: '10.0.0.1, 10.0.0.0/40, office' } }
    expect(checkStrategy(strategy)).toEqual([
      {
        flag: undefined,
        code: 'invalid-cidr',
        message:
          'IPs "10.0.0.0/40", "office" are not IP addresses or CIDR ranges; only a remoteAddress of exactly that text matches',
      },
    ])
    expect(loadWarnings(strategy)).toEqual(checkStrategy(strategy))
  })

  it('reports an unknown strategy name (only the built-in ones are known)', () => {
    expect(checkStrategy({ name: 'myCustom', parameters: {} })).toEqual([
      { flag: undefined, code: 'unknown-strategy', message: 'unknown strategy "myCustom"; it never matches' },
    ])
  })

  it('reports its constraints, in order, with its parameters', () => {
    const strategy = {
      name: 'flexibleRollout',
      parameters: { rollout: 'abc' },
      constraints: [
        { contextName: 'appVersion', operator: 'SEMVER_GT', value: 'latest' },
        { contextName: 'userId', operator: 'IN', values: ['1'] },
        { contextName: 'ip', operator: 'IN_CIDR', values: ['1.2.3.4/99'], inverted: true },
      ],
      variants: [{ name: 'a', weight: 1000, stickiness: 'default' }],
    }
    expect(codes(checkStrategy(strategy))).toEqual(['invalid-semver', 'invalid-cidr', 'invalid-strategy'])
    expect(loadWarnings(strategy)).toEqual(checkStrategy(strategy))
  })

  it('does not look up the segments it references (they live in the payload)', () => {
    expect(checkStrategy({ name: 'default', segments: [1, 2] })).toEqual([])
  })

  it('a strategy that is not an object', () => {
    expect(codes(checkStrategy('default'))).toEqual(['invalid-strategy'])
    expect(codes(checkStrategy(undefined))).toEqual(['invalid-strategy'])
  })
})
