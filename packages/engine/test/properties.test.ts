import fc from 'fast-check'
import murmurhash3 from 'murmurhash3js-revisited'
import { describe, expect, it, vi } from 'vitest'
import { createEngine, SUPPORTED_OPERATORS, type Context, type Engine } from '@vexil/engine'
import { bucketOf, createBucketer, murmur3 } from '../src/hash.js'
import { contextArb, hostileContextArb, hostilePayloadArb, payloadArb, smallContextArb } from './arbitraries.js'

const flag = (strategy: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  version: 2,
  features: [{ name: 'f', enabled: true, strategies: [strategy], ...extra }],
})

describe('engine properties', () => {
  it('load and evaluate never throw, for arbitrary payloads and contexts', () => {
    fc.assert(
      fc.property(
        fc.array(hostilePayloadArb, { minLength: 1, maxLength: 3 }),
        fc.array(hostileContextArb, { maxLength: 4 }),
        (payloads, contexts) => {
          const engine = createEngine()
          for (const payload of payloads) expect(Array.isArray(engine.load(payload))).toBe(true)
          for (const context of contexts) {
            const ctx = context as Context
            for (const toggle of engine.evaluateAll(ctx, { includeDisabled: true })) {
              expect(typeof engine.isEnabled(toggle.name, ctx)).toBe('boolean')
              expect(typeof engine.getVariant(toggle.name, ctx).name).toBe('string')
            }
            engine.evaluateAll(ctx, { names: ['f1', '__proto__', 'constructor'] })
            JSON.stringify(engine.evaluateAll(ctx))
          }
          JSON.stringify(engine.getState())
        },
      ),
      { numRuns: 300 },
    )
  })

  it.each([
    ['any payload and context', payloadArb(), contextArb],
    // Dependencies, variants and matching constraints often: a child reads its parent's match.
    ['a small vocabulary', payloadArb({ small: true }), smallContextArb],
  ])('evaluateAll gives the enabled flags of evaluating each flag on its own, for %s', (_, payloads, contexts) => {
    fc.assert(
      fc.property(
        payloads,
        fc.array(contexts as fc.Arbitrary<Context>, { minLength: 1, maxLength: 3 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (payload, list, draw) => {
          // evaluateAll reuses a parent's match from the same pass; each flag on its own evaluates
          // its parents again: with random draws fixed, both must say the same.
          vi.spyOn(Math, 'random').mockReturnValue(draw)
          try {
            const engine = createEngine()
            engine.load(payload)
            for (const context of list) {
              const one = engine.evaluateAll(context, { includeDisabled: true }).filter((toggle) => toggle.enabled)
              const all = engine.evaluateAll(context)
              expect(all).toEqual(one)
              for (const [i, toggle] of all.entries()) expect(toggle).toBe(one[i])
              for (const toggle of all) expect(engine.isEnabled(toggle.name, context)).toBe(true)
            }
          } finally {
            vi.restoreAllMocks()
          }
        },
      ),
      { numRuns: 500 },
    )
  })

  it('evaluateAll inside evaluateAll (a custom strategy asking the engine) keeps both passes apart', () => {
    let engine = createEngine()
    const inner: string[][] = []
    engine = createEngine({
      strategies: [
        {
          name: 'asks',
          isEnabled: () => {
            inner.push(engine.evaluateAll({ userId: 'inner' }).map((toggle) => toggle.name))
            return true
          },
        },
      ],
    })
    engine.load({
      features: [
        { name: 'parent', enabled: true, strategies: [{ name: 'userWithId', parameters: { userIds: 'outer' } }] },
        { name: 'asker', enabled: true, strategies: [{ name: 'asks' }], dependencies: [{ feature: 'parent' }] },
        { name: 'child', enabled: true, strategies: [], dependencies: [{ feature: 'parent' }] },
      ],
    })
    // The inner pass (user "inner": parent off, so asker and child off) runs between the outer
    // pass's parent and child; the outer child still sees its own parent's match.
    expect(engine.evaluateAll({ userId: 'outer' }).map((toggle) => toggle.name)).toEqual(['parent', 'asker', 'child'])
    expect(inner).toEqual([[]])
    expect(engine.evaluateAll({ userId: 'nobody' }).map((toggle) => toggle.name)).toEqual([])
  })

  it('inverted is the negation of the operator (for every known operator)', () => {
    const constraint = fc.record({
      contextName: fc.constantFrom('userId', 'tenant', 'currentTime', 'remoteAddress', 'version'),
      operator: fc.constantFrom(...SUPPORTED_OPERATORS),
      values: fc.array(fc.constantFrom('u1', 't1', '10.0.0.0/8', '1.2.3', 'a', ''), { maxLength: 3 }),
      value: fc.constantFrom('u1', '5', '1.2.3', '2024-01-01T00:00:00Z', '^u', 'bad['),
      caseInsensitive: fc.boolean(),
    })
    fc.assert(
      fc.property(constraint, contextArb, (c, context) => {
        const plain = createEngine()
        const inverted = createEngine()
        plain.load(flag({ name: 'default', constraints: [{ ...c, inverted: false }] }))
        inverted.load(flag({ name: 'default', constraints: [{ ...c, inverted: true }] }))
        const fixed = { ...context, currentTime: '2024-06-01T00:00:00Z' }
        expect(inverted.isEnabled('f', fixed)).toBe(!plain.isEnabled('f', fixed))
      }),
      { numRuns: 1000 },
    )
  })

  it('an unknown operator is false even when inverted', () => {
    const engine = createEngine()
    engine.load(
      flag({
        name: 'default',
        constraints: [{ contextName: 'userId', operator: 'NOPE', values: ['1'], inverted: true }],
      }),
    )
    expect(engine.isEnabled('f', { userId: '1' })).toBe(false)
    expect(engine.isEnabled('f', {})).toBe(false)
  })

  it('buckets are in range 1..modulus', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.integer({ min: 1, max: 10_000 }), (group, id, modulus) => {
        const bucket = bucketOf(createBucketer(group, 0, modulus), id)
        expect(Number.isInteger(bucket) && bucket >= 1 && bucket <= modulus).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })

  it('the hash equals MurmurHash3 x86 32 over the UTF-8 bytes (murmurhash3js-revisited)', () => {
    const encoder = new TextEncoder()
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.string({ unit: 'grapheme' }),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        (prefix, id, seed) => {
          const key = `${prefix}:${id}`
          const expected = murmurhash3.x86.hash32(encoder.encode(key), seed)
          expect(murmur3(key, seed)).toBe(expected)
          expect((bucketOf(createBucketer(prefix, seed, 2 ** 32), id) - 1) >>> 0).toBe(expected % 2 ** 32)
        },
      ),
      { numRuns: 2000 },
    )
  })

  it('rollout is monotonic in percentage', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.string({ minLength: 1 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        (groupId, userId, a, b) => {
          const [low, high] = a <= b ? [a, b] : [b, a]
          const engine = createEngine()
          engine.load({
            features: [
              {
                name: 'low',
                enabled: true,
                strategies: [
                  { name: 'flexibleRollout', parameters: { rollout: String(low), stickiness: 'userId', groupId } },
                ],
              },
              {
                name: 'high',
                enabled: true,
                strategies: [
                  { name: 'flexibleRollout', parameters: { rollout: String(high), stickiness: 'userId', groupId } },
                ],
              },
            ],
          })
          if (engine.isEnabled('low', { userId })) expect(engine.isEnabled('high', { userId })).toBe(true)
        },
      ),
      { numRuns: 2000 },
    )
  })

  it('variant distribution is within 2% of the weights over 20k ids', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 2, maxLength: 5 }),
        fc.string(),
        (raw, flagSuffix) => {
          const total = raw.reduce((a, b) => a + b, 0)
          const variants = raw.map((w, i) => ({ name: `v${i}`, weight: w, stickiness: 'default' }))
          const engine = createEngine()
          engine.load({
            features: [{ name: `dist${flagSuffix}`, enabled: true, strategies: [{ name: 'default' }], variants }],
          })
          const counts = new Map<string, number>()
          const ids = 20_000
          for (let i = 0; i < ids; i++) {
            const name = engine.getVariant(`dist${flagSuffix}`, { userId: `user-${i}` }).name
            counts.set(name, (counts.get(name) ?? 0) + 1)
          }
          raw.forEach((w, i) => {
            expect(Math.abs((counts.get(`v${i}`) ?? 0) / ids - w / total)).toBeLessThanOrEqual(0.02)
          })
        },
      ),
      { numRuns: 20 },
    )
  })

  it('compiling the same payload twice gives the same answers', () => {
    fc.assert(
      fc.property(
        payloadArb({ deterministic: true }),
        fc.array(
          contextArb.map((c) => ({
            ...c,
            userId: c.userId || 'u1',
            sessionId: c.sessionId || 's1',
            remoteAddress: '10.0.0.1',
          })),
          { minLength: 1, maxLength: 5 },
        ),
        (payload, contexts) => {
          const first = createEngine({ hostname: 'localhost' })
          const second = createEngine({ hostname: 'localhost' })
          first.load(payload)
          second.load(JSON.parse(JSON.stringify(payload)))
          for (const context of contexts) {
            const fixed = { ...context, currentTime: '2024-06-01T00:00:00Z' }
            expect(second.evaluateAll(fixed, { includeDisabled: true })).toEqual(
              first.evaluateAll(fixed, { includeDisabled: true }),
            )
          }
        },
      ),
      { numRuns: 500 },
    )
  })
})

describe('forks (issue 18: a delta compiles only what it touches)', () => {
  const contexts = fc.array(
    contextArb.map((c) => ({
      ...c,
      userId: c.userId || 'u1',
      sessionId: c.sessionId || 's1',
      remoteAddress: '10.0.0.1',
      currentTime: '2024-06-01T00:00:00Z',
    })),
    { minLength: 1, maxLength: 4 },
  )
  const names = fc.array(fc.constantFrom('f1', 'f2', 'f3', 'f4', 'f5', 'flag-ø', 'missing'), { maxLength: 2 })
  const segmentIds = fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 2 })
  /**
   * Delta events from another payload: its segments and features updated, and some removed,
   * before or after the updates (a flag removed and added again in one batch moves to the end).
   */
  const deltaArb = fc
    .tuple(payloadArb({ deterministic: true }), names, segmentIds, fc.boolean())
    .map(([other, removed, removedSegments, removedFirst]) => {
      const updates = other.features.slice(0, 3).map((feature) => ({ type: 'feature-updated', feature }))
      const removals = removed.map((featureName) => ({ type: 'feature-removed', featureName }))
      return {
        events: [
          ...other.segments.map((segment) => ({ type: 'segment-updated', segment })),
          ...(removedFirst ? [...removals, ...updates] : [...updates, ...removals]),
          ...removedSegments.map((segmentId) => ({ type: 'segment-removed', segmentId })),
        ],
      }
    })
  /** evaluateAll both ways: every flag (one by one), and the enabled ones (the flag table). */
  const answers = (engine: Engine, context: Context) => [
    engine.evaluateAll(context, { includeDisabled: true }),
    engine.evaluateAll(context),
  ]

  it('a fork that loads deltas answers as a new engine loaded with its state, and its parent answers as before', () => {
    fc.assert(
      fc.property(
        payloadArb({ deterministic: true }),
        fc.array(deltaArb, { minLength: 1, maxLength: 3 }),
        contexts,
        (payload, deltas, contexts) => {
          const parent = createEngine({ hostname: 'localhost' })
          parent.load(payload)
          const before = contexts.map((context) => answers(parent, context))
          const stateBefore = JSON.stringify(parent.getState())
          let engine = parent
          for (const delta of deltas) {
            engine = engine.fork()
            engine.load(delta)
            const fresh = createEngine({ hostname: 'localhost' })
            fresh.load(JSON.parse(JSON.stringify(engine.getState())))
            for (const context of contexts) expect(answers(engine, context)).toEqual(answers(fresh, context))
          }
          expect(contexts.map((context) => answers(parent, context))).toEqual(before)
          expect(JSON.stringify(parent.getState())).toBe(stateBefore)
        },
      ),
      { numRuns: 500 },
    )
  })

  it('a fork answers as before whatever its parent loads after it (they share what neither changed)', () => {
    fc.assert(
      fc.property(
        payloadArb({ deterministic: true }),
        deltaArb,
        fc.array(deltaArb, { minLength: 1, maxLength: 3 }),
        contexts,
        (payload, forked, later, contexts) => {
          const parent = createEngine({ hostname: 'localhost' })
          parent.load(payload)
          const fork = parent.fork()
          fork.load(forked)
          const before = contexts.map((context) => answers(fork, context))
          const stateBefore = JSON.stringify(fork.getState())
          for (const delta of later) parent.load(delta)
          expect(contexts.map((context) => answers(fork, context))).toEqual(before)
          expect(JSON.stringify(fork.getState())).toBe(stateBefore)
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('bucket arithmetic', () => {
  it('ids hashed from their prepared blocks equal murmur3, for every prefix alignment, long ids and ids hashed in turn', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 9 }), { minLength: 1, maxLength: 6 }),
        fc.array(
          fc.oneof(
            fc.string({ minLength: 0, maxLength: 140 }),
            fc.string({ unit: 'grapheme', maxLength: 12 }),
            fc.stringMatching(/^[a-z0-9-]{125,135}$/),
          ),
          { minLength: 1, maxLength: 4 },
        ),
        (groups, ids) => {
          // Each id against every group, interleaved: the prepared-id cache swaps between them.
          for (const group of groups) {
            for (const id of [...ids, ...ids.slice().reverse()]) {
              expect(bucketOf(createBucketer(group, 0, 2 ** 32), id) - 1).toBe(murmur3(`${group}:${id}`, 0))
            }
          }
        },
      ),
      { numRuns: 1000 },
    )
  })

  it('bucketOf equals (murmur3 % modulus) + 1 for fractional moduli (variant weights given as decimals), as the Node SDK computes it', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.double({ min: 0.5, max: 5000, noNaN: true }).filter((m) => !Number.isInteger(m)),
        (group, id, modulus) => {
          expect(bucketOf(createBucketer(group, 0, modulus), id)).toBe((murmur3(`${group}:${id}`, 0) % modulus) + 1)
        },
      ),
      { numRuns: 2000 },
    )
  })

  it('bucketOf equals (murmur3 % modulus) + 1 for small and huge moduli', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 2 ** 32 })),
        (group, id, modulus) => {
          expect(bucketOf(createBucketer(group, 0, modulus), id)).toBe((murmur3(`${group}:${id}`, 0) % modulus) + 1)
        },
      ),
      { numRuns: 5000 },
    )
  })
})
