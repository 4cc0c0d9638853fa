import { createEngine } from '@vexil/engine'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createToggleSerializer } from '../src/bodies/serialize.js'

// The /proxy ETag comes from the toggles' fragments, not from hashing the body (issue 17): it must
// still be a function of the body bytes alone, equal across serializers (instances, reloads) and
// different for different bodies.

const flags = (count: number) => ({
  version: 2,
  features: Array.from({ length: count }, (_, i) => ({
    name: `f-${i}`,
    enabled: true,
    strategies: [{ name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'userId', groupId: `f-${i}` } }],
    variants:
      i % 3 === 0
        ? [
            { name: 'a', weight: 500, stickiness: 'default' },
            { name: 'b', weight: 500, stickiness: 'default', payload: { type: 'string', value: 'ü' } },
          ]
        : [],
  })),
})

function setup() {
  const engine = createEngine()
  engine.load(flags(24))
  return { engine, serializer: createToggleSerializer(() => false) }
}

describe('the /proxy answer and its ETag', () => {
  it('has the body of body(), the byte length in hex and 16 base64 characters', () => {
    const { engine, serializer } = setup()
    for (const mode of ['default', 'listed'] as const) {
      const toggles = engine.evaluateAll({ userId: 'u-1' })
      const answer = serializer.answer(toggles, mode)
      expect(answer.body).toBe(serializer.body(toggles, mode))
      expect(answer.bytes).toBe(Buffer.byteLength(answer.body))
      expect(answer.etag).toMatch(new RegExp(`^W/"${Buffer.byteLength(answer.body).toString(16)}-[A-Za-z0-9+/]{16}"$`))
    }
    expect(serializer.answer([], 'default')).toEqual({
      body: '{"toggles":[]}',
      bytes: 14,
      etag: expect.stringMatching(/^W\/"e-/),
    })
  })

  it("is the toggles' JSON in order, and its ETags stay what earlier versions sent (clients revalidate across an upgrade)", () => {
    const { engine, serializer } = setup()
    const toggles = engine.evaluateAll({ userId: 'u-1' })
    for (const [mode, etag] of [
      ['default', 'W/"5d8-BUA+s89G5Knic4JP"'],
      ['listed', 'W/"6ec-zKhPC2x37tshFPGx"'],
    ] as const) {
      const answer = serializer.answer(toggles, mode)
      expect(answer.body).toBe(`{"toggles":[${toggles.map((toggle) => serializer.toggle(toggle, mode)).join(',')}]}`)
      expect(answer.etag).toBe(etag)
    }
    for (const count of [1, 2]) {
      const answer = serializer.answer(toggles.slice(0, count), 'listed')
      expect(JSON.parse(answer.body).toggles).toHaveLength(count)
      expect(answer.bytes).toBe(Buffer.byteLength(answer.body))
    }
    expect(serializer.answer([], 'default').etag).toBe('W/"e-PNbj84ScUW/faPN3"')
  })

  it('is the same for the same bytes from another engine and serializer, and differs for different bytes', () => {
    const one = setup()
    const two = setup()
    const etags = new Map<string, string>()
    fc.assert(
      fc.property(fc.string(), fc.boolean(), (userId, listed) => {
        const mode = listed ? 'listed' : 'default'
        const a = one.serializer.answer(one.engine.evaluateAll({ userId }), mode)
        const b = two.serializer.answer(two.engine.evaluateAll({ userId }), mode)
        expect(b).toEqual(a)
        const known = etags.get(a.etag)
        if (known !== undefined) expect(known).toBe(a.body)
        etags.set(a.etag, a.body)
      }),
      { numRuns: 500 },
    )
    // 500 users over 24 coin-flip flags: the bodies differ, and so do their ETags.
    expect(new Set(etags.values()).size).toBe(etags.size)
    expect(etags.size).toBeGreaterThan(400)
  })

  it('depends on the order of the toggles', () => {
    const { engine, serializer } = setup()
    const toggles = engine.evaluateAll({ userId: 'x' }, { includeDisabled: true })
    const reversed = [...toggles].reverse()
    expect(serializer.answer(reversed, 'listed').etag).not.toBe(serializer.answer(toggles, 'listed').etag)
  })
})
