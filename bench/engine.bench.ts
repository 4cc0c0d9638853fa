// Engine hot path: evaluateAll over the 200-flag workload for 1,000 contexts, side by side with
// unleash-client used the way the old proxy used it (isEnabled for every flag, then getVariant for
// the enabled ones) on the same payload and contexts; single-flag calls; compiling 10k flags.
//
// The contexts are shaped as a server receives them, and every one is new: before each round,
// 1,000 contexts with user and session ids never seen before are made, half parsed from a JSON
// body and half from a query string (so the engine never meets a string it has hashed or looked
// up before). A reference row measures the same with the CPU caches cold, as inside a server,
// whose request handling evicts the engine's data between evaluations.
import { Bench } from 'tinybench'
import { type Context, createEngine } from '@vexil/engine'
import { makeContexts, makeFeatures } from '@vexil/test-fixtures/workload.ts'
import type { BudgetRow } from './budget.js'
import { listed, median, medianMs, runRounds } from './measure.js'
import { createUnleashBaseline } from './unleash-baseline.js'

/** A context as `/proxy` hands it to the engine: from `{"context": ...}` JSON, or from a query string. */
function asReceived(context: Context, index: number, round: number): Context {
  const fresh = { ...context, userId: `user-${round}-${index}`, sessionId: `${round}${index}` }
  if (index % 2 === 0) return JSON.parse(JSON.stringify({ context: fresh })).context as Context
  const query = new URLSearchParams({ appName: fresh.appName!, userId: fresh.userId, sessionId: fresh.sessionId })
  for (const [key, value] of Object.entries(fresh.properties ?? {})) query.append(`properties[${key}]`, String(value))
  const parsed: Context = { properties: {} }
  for (const [key, value] of new URLSearchParams(query.toString())) {
    const property = /^properties\[(.+)\]$/.exec(key)
    if (property) parsed.properties![property[1]!] = value
    else parsed[key] = value
  }
  return parsed
}

/** Touches `bytes` of memory, as a server's request handling does between two evaluations. */
function evictCaches(scratch: Uint8Array): number {
  let sum = 0
  for (let i = 0; i < scratch.length; i += 64) {
    const value = scratch[i]!
    scratch[i] = value + 1
    sum += value
  }
  return sum
}

/** Rounds of evaluateAll side by side with unleash-client. */
const ROUNDS = 5

export async function runEngineBench(): Promise<BudgetRow[]> {
  const payload = makeFeatures(200)
  const templates = makeContexts(1000)
  let round = 0
  let contexts: Context[] = templates
  const newContexts = () => {
    round++
    contexts = templates.map((context, index) => asReceived(context, index, round))
  }
  const big = makeFeatures(10_000, 1)
  // A delta that changes one flag of the 10k (issue 18): what a streamed change costs a proxy.
  const bigEngine = createEngine()
  bigEngine.load(big)
  const changed = big.features[big.features.length >> 1]!
  const oneFlagDelta = {
    events: [{ type: 'feature-updated', eventId: 2, feature: { ...changed, enabled: !changed.enabled } }],
  }

  const engine = createEngine()
  engine.load(payload)
  const unleash = await createUnleashBaseline(payload)
  const definitions = unleash.getFeatureToggleDefinitions()
  const COLD_CONTEXTS = 200
  const scratch = new Uint8Array(4 * 1024 * 1024)
  // A flag that is on, with constraints and variants: the single-flag figures measure real work.
  const single = payload.features.find(
    (f) => f.enabled && (f.variants ?? []).length > 0 && f.strategies.some((s) => (s.constraints ?? []).length > 0),
  )!.name
  const SINGLE_CALLS = 1000
  let sink = 0

  // evaluateAll and unleash-client side by side in rounds (measure.ts): the speed-up is the median
  // of the per-round ratios, so one slow moment of the machine does not decide it.
  const VEXIL_ALL = 'vexil: evaluateAll, 200 flags x 1000 contexts'
  const UNLEASH_ALL = 'unleash-client as the old proxy: isEnabled, getVariant if enabled, 200 flags x 1000 contexts'
  const rounds = await runRounds(
    {
      [VEXIL_ALL]: {
        fn: () => {
          for (const context of contexts) sink += engine.evaluateAll(context).length
        },
        options: { beforeEach: newContexts },
      },
      [UNLEASH_ALL]: {
        fn: () => {
          // unleash-proxy's client.ts getEnabledToggles: every definition's isEnabled, then
          // getVariant for the enabled ones.
          for (const context of contexts as Array<Parameters<typeof unleash.isEnabled>[1]>) {
            for (const definition of definitions) {
              if (unleash.isEnabled(definition.name, context))
                sink += unleash.getVariant(definition.name, context).name.length
            }
          }
        },
        options: { beforeEach: newContexts },
      },
    },
    ROUNDS,
    { time: 1000, iterations: 2 },
  )
  const speedUps = rounds.map((round) => round[UNLEASH_ALL]! / round[VEXIL_ALL]!)
  console.log(`evaluateAll speed-up over unleash-client per round: ${listed(speedUps, 1)}`)

  const bench = new Bench({ time: 2000, warmupTime: 500, iterations: 3 })
  bench
    .add(
      `vexil: evaluateAll with cold CPU caches (4 MB touched before each), 200 flags x ${COLD_CONTEXTS} contexts`,
      () => {
        for (let i = 0; i < COLD_CONTEXTS; i++) {
          sink += evictCaches(scratch)
          sink += engine.evaluateAll(contexts[i]!).length
        }
      },
      { beforeEach: newContexts },
    )
    .add(`cache eviction alone, x ${COLD_CONTEXTS}`, () => {
      for (let i = 0; i < COLD_CONTEXTS; i++) sink += evictCaches(scratch)
    })
    .add('vexil: isEnabled, one flag x 1000 contexts', () => {
      for (let i = 0; i < SINGLE_CALLS; i++) sink += engine.isEnabled(single, templates[i]!) ? 1 : 0
    })
    .add('vexil: getVariant, one flag x 1000 contexts', () => {
      for (let i = 0; i < SINGLE_CALLS; i++) sink += engine.getVariant(single, templates[i]!).name.length
    })
    .add('vexil: compile 10k flags', () => {
      sink += createEngine().load(big).length
    })
    .add('vexil: a one-flag delta on 10k flags, on a fork of the engine', () => {
      const fork = bigEngine.fork()
      sink += fork.load(oneFlagDelta).length + fork.size
    })
    .add('vexil: a one-flag delta on 10k flags, on a new engine loaded with the state', () => {
      const fresh = createEngine()
      fresh.load(bigEngine.getState())
      sink += fresh.load(oneFlagDelta).length + fresh.size
    })
  await bench.run()
  unleash.destroy()
  console.table(bench.table())

  const vexilPerContext = (median(rounds.map((round) => round[VEXIL_ALL]!)) * 1000) / templates.length
  const unleashPerContext = (median(rounds.map((round) => round[UNLEASH_ALL]!)) * 1000) / templates.length
  const coldPerContext =
    ((medianMs(
      bench,
      `vexil: evaluateAll with cold CPU caches (4 MB touched before each), 200 flags x ${COLD_CONTEXTS} contexts`,
    ) -
      medianMs(bench, `cache eviction alone, x ${COLD_CONTEXTS}`)) *
      1000) /
    COLD_CONTEXTS
  if (sink === 42) console.log('') // keep the results alive
  return [
    // Issue 17's targets (>= 100x, <= 10 us). The baseline is now the old proxy's use of
    // unleash-client (getVariant for enabled flags only), faster than getVariant for every flag:
    // the enforced floor of the ratio is 40x; the target is a row of its own, enforced locally and
    // reported under CI until it is met.
    {
      metric: `evaluateAll, 200 flags, every context new: Vexil speed-up over unleash-client as the old proxy (median of ${ROUNDS} rounds)`,
      value: median(speedUps),
      unit: 'x',
      kind: 'min',
      limit: 40,
      absolute: false,
    },
    {
      metric: 'the same speed-up: target of issue 17',
      value: median(speedUps),
      unit: 'x',
      kind: 'min',
      limit: 100,
      absolute: false,
      target: 'issue 17',
    },
    {
      metric: 'evaluateAll, 200 flags, every context new: Vexil time per context',
      value: vexilPerContext,
      unit: 'us',
      kind: 'max',
      limit: 10,
      absolute: true,
    },
    {
      metric: 'evaluateAll, 200 flags, every context new, CPU caches cold: Vexil time per context (reference)',
      value: coldPerContext,
      unit: 'us',
      kind: 'max',
      limit: Number.POSITIVE_INFINITY,
      absolute: true,
    },
    {
      metric: 'evaluateAll, 200 flags: unleash-client time per context (reference)',
      value: unleashPerContext,
      unit: 'us',
      kind: 'max',
      limit: Number.POSITIVE_INFINITY,
      absolute: true,
    },
    {
      metric: 'isEnabled, one flag',
      value: (medianMs(bench, 'vexil: isEnabled, one flag x 1000 contexts') * 1000) / SINGLE_CALLS,
      unit: 'us',
      kind: 'max',
      limit: 1,
      absolute: true,
    },
    {
      metric: 'getVariant, one flag',
      value: (medianMs(bench, 'vexil: getVariant, one flag x 1000 contexts') * 1000) / SINGLE_CALLS,
      unit: 'us',
      kind: 'max',
      limit: 1,
      absolute: true,
    },
    {
      metric: 'compile 10k flags',
      value: medianMs(bench, 'vexil: compile 10k flags'),
      unit: 'ms',
      kind: 'max',
      limit: 100,
      absolute: true,
    },
    {
      metric: 'a one-flag delta on 10k flags: forked engine (reference)',
      value: medianMs(bench, 'vexil: a one-flag delta on 10k flags, on a fork of the engine'),
      unit: 'ms',
      kind: 'max',
      limit: Number.POSITIVE_INFINITY,
      absolute: true,
    },
    {
      metric:
        'a one-flag delta on 10k flags: forked engine over a new engine loading the state (issue 18: recompile only what changed)',
      value:
        medianMs(bench, 'vexil: a one-flag delta on 10k flags, on a fork of the engine') /
        medianMs(bench, 'vexil: a one-flag delta on 10k flags, on a new engine loaded with the state'),
      unit: 'x',
      kind: 'max',
      limit: 0.02,
      absolute: false,
    },
  ]
}
