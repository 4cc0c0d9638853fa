// The benchmark compares like with like: on the workload's payload and contexts, @vexil/engine
// and unleash-client give the same enabled state and the same variant for every flag.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Unleash } from 'unleash-client'
import { createEngine } from '@vexil/engine'
import { makeContexts, makeFeatures } from '@vexil/test-fixtures/workload.ts'
import { createUnleashBaseline } from './unleash-baseline.js'

describe('engine benchmark inputs', () => {
  const payload = makeFeatures(200)
  const contexts = makeContexts(300).map((c) => ({ ...c, currentTime: new Date('2026-01-15T00:00:00Z') }))
  const engine = createEngine()
  let unleash: Unleash

  beforeAll(async () => {
    expect(engine.load(payload)).toEqual([])
    unleash = await createUnleashBaseline(payload)
  })
  afterAll(() => unleash?.destroy())

  it('the workload is the realistic mix: 200 flags, mostly enabled, with variants, segments and dependencies', () => {
    const features = payload.features
    expect(features).toHaveLength(200)
    expect(features.filter((f) => f.enabled).length).toBeGreaterThan(150)
    expect(features.filter((f) => (f.variants ?? []).length > 0).length).toBeGreaterThan(40)
    expect(features.filter((f) => f.dependencies).length).toBeGreaterThan(3)
    expect(features.flatMap((f) => f.strategies).filter((s) => s.segments).length).toBeGreaterThan(50)
  })

  it('evaluateAll agrees with unleash-client isEnabled + getVariant for every flag and context', () => {
    let enabled = 0
    for (const context of contexts) {
      const sdkContext = context as Parameters<Unleash['isEnabled']>[1]
      const all = engine.evaluateAll(context, { includeDisabled: true })
      expect(all).toHaveLength(200)
      for (const toggle of all) {
        expect(toggle.enabled, `${toggle.name} for ${context.userId}`).toBe(unleash.isEnabled(toggle.name, sdkContext))
        const expected = unleash.getVariant(toggle.name, sdkContext)
        expect({ name: toggle.variant.name, enabled: toggle.variant.enabled, payload: toggle.variant.payload }).toEqual(
          { name: expected.name, enabled: expected.enabled, payload: expected.payload },
        )
        if (toggle.enabled) enabled++
      }
    }
    // Not a degenerate workload: a real share of flags is on for each context.
    expect(enabled / (contexts.length * 200)).toBeGreaterThan(0.2)
  })
})
