// The OpenFeature benchmark compares like with like (bench/openfeature.bench.ts): on the engine
// workload's 200 flags and its contexts as an app hands them to OpenFeature, the provider's
// answers through the SDK equal unleash-client's on the same payload: isEnabled for booleans,
// getVariant's payload (or name) for the flags with variants, asked as strings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Unleash } from 'unleash-client'
import { OpenFeature } from '@openfeature/server-sdk'
import { createEngine, type EvaluationTrace } from '@vexil/engine'
import { makeContexts, makeFeatures } from '@vexil/test-fixtures/workload.ts'
import { inMemoryUpstream, toOpenFeatureContext } from '@vexil/bench/openfeature.bench.ts'
import { createUnleashBaseline } from '@vexil/bench/unleash-baseline.ts'
import { VexilProvider } from '../src/index.js'

const NOW = new Date('2026-01-15T00:00:00Z')
const payload = makeFeatures(200)
const engine = createEngine()
engine.load(payload)
// Contexts whose answers use randomness (a rollout with no stickiness value) cannot be compared:
// the engine's trace says which; the workload's contexts all carry a userId and a sessionId.
const contexts = makeContexts(300)
  .map((context) => ({ ...context, currentTime: NOW }))
  .filter((context) => {
    const trace: EvaluationTrace = { usedRandom: false, usedClock: false, usedCustomStrategy: false }
    engine.evaluateAll(context, { includeDisabled: true, trace })
    return !trace.usedRandom
  })
const typed = new Set(
  payload.features
    .filter((f) => (f.variants ?? []).length > 0 || f.strategies.some((s) => (s.variants ?? []).length > 0))
    .map((f) => f.name),
)

let unleash: Unleash
const provider = new VexilProvider({
  url: 'http://127.0.0.1:9/api',
  clientKey: 'equivalence',
  appName: 'web',
  environment: 'production',
  streaming: false,
  fetch: inMemoryUpstream(payload),
})

beforeAll(async () => {
  unleash = await createUnleashBaseline(payload)
  await OpenFeature.setProviderAndWait('equivalence', provider)
})
afterAll(async () => {
  unleash?.destroy()
  await OpenFeature.clearProviders()
})

describe('the OpenFeature benchmark inputs', () => {
  it('no context of the workload depends on randomness', () => {
    expect(contexts).toHaveLength(300)
  })

  it('booleans through the SDK equal unleash-client isEnabled for every flag and context', async () => {
    const client = OpenFeature.getClient('equivalence')
    let enabled = 0
    for (const context of contexts) {
      const ofContext = { ...toOpenFeatureContext(context), currentTime: NOW }
      for (const { name } of payload.features) {
        const expected = unleash.isEnabled(name, context as Parameters<Unleash['isEnabled']>[1])
        const details = await client.getBooleanDetails(name, !expected, ofContext)
        expect(details.errorCode, `${name} for ${context.userId}`).toBeUndefined()
        expect(details.value, `${name} for ${context.userId}`).toBe(expected)
        if (expected) enabled++
      }
    }
    // Not a degenerate workload: a real share of flags is on.
    expect(enabled / (contexts.length * payload.features.length)).toBeGreaterThan(0.2)
  })

  it("flags with variants, asked as strings, answer getVariant's payload (or name), the default when it has none", async () => {
    expect(typed.size).toBeGreaterThan(40)
    const client = OpenFeature.getClient('equivalence')
    for (const context of contexts.slice(0, 100)) {
      const ofContext = { ...toOpenFeatureContext(context), currentTime: NOW }
      for (const name of typed) {
        const variant = unleash.getVariant(name, context as Parameters<Unleash['getVariant']>[1])
        const value = await client.getStringValue(name, 'code-default', ofContext)
        expect(value, `${name} for ${context.userId}`).toBe(
          variant.enabled ? (variant.payload?.value ?? variant.name) : 'code-default',
        )
      }
    }
  })
})
