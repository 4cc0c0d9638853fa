// Engine hot path: evaluateAll over the 200-flag workload for 1,000 contexts, side by side with
// unleash-client (isEnabled + getVariant per flag) on the same payload and contexts; single-flag
// calls; compiling 10k flags.
import { Bench } from 'tinybench'
import { createEngine } from '@vexil/engine'
import { makeContexts, makeFeatures } from '@vexil/test-fixtures/workload.ts'
import type { BudgetRow } from './budget.js'
import { createUnleashBaseline } from './unleash-baseline.js'

/**
 * The median latency of a task in ms. The median, not the mean: on a shared machine a few
 * iterations that lose the CPU to a neighbour drag the mean, not the typical figure.
 */
function medianMs(bench: Bench, name: string): number {
  const result = bench.getTask(name)?.result
  if (!result || result.state !== 'completed') throw new Error(`benchmark task "${name}" did not complete`)
  return result.latency.p50
}

export async function runEngineBench(): Promise<BudgetRow[]> {
  const payload = makeFeatures(200)
  const contexts = makeContexts(1000)
  const names = payload.features.map((f) => f.name)
  const big = makeFeatures(10_000, 1)

  const engine = createEngine()
  engine.load(payload)
  const unleash = await createUnleashBaseline(payload)
  const sdkContexts = contexts as Array<Parameters<typeof unleash.isEnabled>[1]>
  // A flag that is on, with constraints and variants: the single-flag figures measure real work.
  const single = payload.features.find((f) => f.enabled && (f.variants ?? []).length > 0 && f.strategies.some((s) => (s.constraints ?? []).length > 0))!.name
  const SINGLE_CALLS = 1000
  let sink = 0

  const bench = new Bench({ time: 2000, warmupTime: 500, iterations: 3 })
  bench
    .add('vexil: evaluateAll, 200 flags x 1000 contexts', () => {
      for (const context of contexts) sink += engine.evaluateAll(context).length
    })
    .add('unleash-client: isEnabled + getVariant, 200 flags x 1000 contexts', () => {
      for (const context of sdkContexts) {
        for (const name of names) {
          if (unleash.isEnabled(name, context)) sink++
          sink += unleash.getVariant(name, context).name.length
        }
      }
    })
    .add('vexil: isEnabled, one flag x 1000 contexts', () => {
      for (let i = 0; i < SINGLE_CALLS; i++) sink += engine.isEnabled(single, contexts[i]!) ? 1 : 0
    })
    .add('vexil: getVariant, one flag x 1000 contexts', () => {
      for (let i = 0; i < SINGLE_CALLS; i++) sink += engine.getVariant(single, contexts[i]!).name.length
    })
    .add('vexil: compile 10k flags', () => {
      sink += createEngine().load(big).length
    })
  await bench.run()
  unleash.destroy()
  console.table(bench.table())

  const vexilPerContext = (medianMs(bench, 'vexil: evaluateAll, 200 flags x 1000 contexts') * 1000) / contexts.length
  const unleashPerContext = (medianMs(bench, 'unleash-client: isEnabled + getVariant, 200 flags x 1000 contexts') * 1000) / contexts.length
  if (sink === 42) console.log('') // keep the results alive
  return [
    { metric: 'evaluateAll, 200 flags: Vexil speed-up over unleash-client', value: unleashPerContext / vexilPerContext, unit: 'x', kind: 'min', limit: 50, absolute: false },
    { metric: 'evaluateAll, 200 flags: Vexil time per context', value: vexilPerContext, unit: 'us', kind: 'max', limit: 20, absolute: true },
    { metric: 'evaluateAll, 200 flags: unleash-client time per context (reference)', value: unleashPerContext, unit: 'us', kind: 'max', limit: Number.POSITIVE_INFINITY, absolute: true },
    { metric: 'isEnabled, one flag', value: (medianMs(bench, 'vexil: isEnabled, one flag x 1000 contexts') * 1000) / SINGLE_CALLS, unit: 'us', kind: 'max', limit: 1, absolute: true },
    { metric: 'getVariant, one flag', value: (medianMs(bench, 'vexil: getVariant, one flag x 1000 contexts') * 1000) / SINGLE_CALLS, unit: 'us', kind: 'max', limit: 1, absolute: true },
    { metric: 'compile 10k flags', value: medianMs(bench, 'vexil: compile 10k flags'), unit: 'ms', kind: 'max', limit: 100, absolute: true },
  ]
}
