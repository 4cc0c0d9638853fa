// The OpenFeature provider (@vexil/openfeature) on the engine benchmark's workload: 200 flags x
// 200 contexts, every flag asked as a boolean for every context, four ways side by side:
//
// (a) the OpenFeature SDK with its own InMemoryProvider (a constant per flag): the SDK's cost;
// (b) the SDK with VexilProvider: what an app pays per getBooleanValue;
// (c) VexilProvider.resolveBooleanEvaluation called directly: the provider's own cost (context
//     mapping, evaluation, usage counting), the returned promise not awaited;
// (d) unleash-client's isEnabled on the same payload and contexts (the Unleash contexts).
//
// The contexts are OpenFeature contexts (targetingKey + custom attributes, the score a number),
// mapped by the provider on every call. The provider runs as an app runs it: initialized through
// the SDK from a fetch that answers in memory with the payload (no socket, no timer firing during
// the run), usage metrics counted (the default; they would be sent every 60 s).
import { InMemoryProvider, OpenFeature, type EvaluationContext, type Logger } from '@openfeature/server-sdk'
import type { Context } from '@vexil/engine'
import { VexilProvider } from '@vexil/openfeature'
import { makeContexts, makeFeatures } from '@vexil/test-fixtures/workload.ts'
import type { BudgetRow } from './budget.js'
import { listed, median, type RoundTask, runRounds } from './measure.js'
import { createUnleashBaseline } from './unleash-baseline.js'

const FLAGS = 200
const CONTEXTS = 200
const ROUNDS = 7
const TASKS = {
  inMemory: `(a) SDK + InMemoryProvider: getBooleanValue, ${FLAGS} flags x ${CONTEXTS} contexts`,
  sdk: `(b) SDK + VexilProvider: getBooleanValue, ${FLAGS} flags x ${CONTEXTS} contexts`,
  direct: `(c) VexilProvider.resolveBooleanEvaluation, ${FLAGS} flags x ${CONTEXTS} contexts`,
  unleash: `(d) unleash-client isEnabled, ${FLAGS} flags x ${CONTEXTS} contexts`,
} as const

/** The workload's context as an app hands it to OpenFeature: targetingKey plus custom attributes. */
export function toOpenFeatureContext(context: Context): EvaluationContext {
  const { tenant, appVersion, email, score, country } = context.properties as Record<string, string>
  return {
    targetingKey: context.userId!,
    sessionId: context.sessionId!,
    remoteAddress: context.remoteAddress!,
    tenant: tenant!,
    appVersion: appVersion!,
    email: email!,
    score: Number(score),
    country: country!,
  }
}

/** The workload served from memory: a `fetch` that answers `GET /client/features` (and accepts the rest). */
export function inMemoryUpstream(payload: unknown): (url: string) => Promise<Response> {
  const body = JSON.stringify(payload)
  return async (url) =>
    url.endsWith('/client/features')
      ? new Response(body, { status: 200, headers: { 'content-type': 'application/json', etag: '"workload"' } })
      : new Response(null, { status: 202 })
}

const silent: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined }

export async function runOpenFeatureBench(): Promise<BudgetRow[]> {
  const payload = makeFeatures(FLAGS)
  const unleashContexts = makeContexts(CONTEXTS)
  const contexts = unleashContexts.map(toOpenFeatureContext)
  const names = payload.features.map((feature) => feature.name)

  const vexil = new VexilProvider({
    url: 'http://127.0.0.1:9/api',
    clientKey: 'bench',
    appName: 'web',
    environment: 'production',
    streaming: false,
    fetch: inMemoryUpstream(payload),
    logger: silent,
  })
  const inMemory = new InMemoryProvider(
    Object.fromEntries(
      payload.features.map((feature) => [
        feature.name,
        { variants: { on: true, off: false }, defaultVariant: feature.enabled ? 'on' : 'off', disabled: false },
      ]),
    ),
  )
  await OpenFeature.setProviderAndWait('bench-in-memory', inMemory)
  await OpenFeature.setProviderAndWait('bench-vexil', vexil)
  const inMemoryClient = OpenFeature.getClient('bench-in-memory')
  const vexilClient = OpenFeature.getClient('bench-vexil')
  const unleash = await createUnleashBaseline(payload)
  let sink = 0

  const tasks: Record<string, RoundTask> = {
    [TASKS.inMemory]: {
      fn: async () => {
        for (const context of contexts)
          for (const name of names) if (await inMemoryClient.getBooleanValue(name, false, context)) sink++
      },
    },
    [TASKS.sdk]: {
      fn: async () => {
        for (const context of contexts)
          for (const name of names) if (await vexilClient.getBooleanValue(name, false, context)) sink++
      },
    },
    [TASKS.direct]: {
      fn: () => {
        let answer: unknown
        for (const context of contexts)
          for (const name of names) answer = vexil.resolveBooleanEvaluation(name, false, context)
        if (answer !== undefined) sink++
      },
    },
    [TASKS.unleash]: {
      fn: () => {
        for (const context of unleashContexts as Array<Parameters<typeof unleash.isEnabled>[1]>)
          for (const name of names) if (unleash.isEnabled(name, context)) sink++
      },
    },
  }
  // Ratios per round, then their median (measure.ts); figures in us per evaluation.
  const rounds = (await runRounds(tasks, ROUNDS, { time: 1000, iterations: 3 })).map((round) =>
    Object.fromEntries(Object.entries(round).map(([name, ms]) => [name, (ms * 1000) / (FLAGS * CONTEXTS)])),
  )
  unleash.destroy()
  await OpenFeature.clearProviders()
  if (sink === 42) console.log('') // keep the results alive

  const overhead = rounds.map((r) => r[TASKS.sdk]! / r[TASKS.inMemory]!)
  const speedUp = rounds.map((r) => r[TASKS.unleash]! / r[TASKS.direct]!)
  console.log(
    `per round: SDK + VexilProvider over InMemoryProvider ${listed(overhead)}; speed-up over unleash-client ${listed(speedUp)}`,
  )
  const [a, b, c, d] = [TASKS.inMemory, TASKS.sdk, TASKS.direct, TASKS.unleash].map((task) =>
    median(rounds.map((r) => r[task]!)),
  )
  return [
    {
      metric: `getBooleanValue through the SDK: VexilProvider over InMemoryProvider (median of ${ROUNDS} rounds)`,
      value: median(overhead),
      unit: 'x',
      kind: 'max',
      limit: 1.2,
      absolute: false,
    },
    {
      metric: `VexilProvider.resolveBooleanEvaluation speed-up over unleash-client isEnabled (median of ${ROUNDS} rounds)`,
      value: median(speedUp),
      unit: 'x',
      kind: 'min',
      limit: 10,
      absolute: false,
    },
    {
      metric: '(a) SDK + InMemoryProvider, per evaluation (reference)',
      value: a!,
      unit: 'us',
      kind: 'max',
      limit: Number.POSITIVE_INFINITY,
      absolute: true,
    },
    {
      metric: '(b) SDK + VexilProvider, per evaluation (reference)',
      value: b!,
      unit: 'us',
      kind: 'max',
      limit: Number.POSITIVE_INFINITY,
      absolute: true,
    },
    {
      metric: '(c) VexilProvider.resolveBooleanEvaluation, per evaluation (reference)',
      value: c!,
      unit: 'us',
      kind: 'max',
      limit: Number.POSITIVE_INFINITY,
      absolute: true,
    },
    {
      metric: '(d) unleash-client isEnabled, per evaluation (reference)',
      value: d!,
      unit: 'us',
      kind: 'max',
      limit: Number.POSITIVE_INFINITY,
      absolute: true,
    },
  ]
}
