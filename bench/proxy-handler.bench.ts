// The proxy's request handler in one process: the built proxy's listener (as `node:http` calls
// it) driven with /proxy and OFREP requests over in-memory sockets, CPU time per request, every
// request a new user and repeating contexts side by side, GET and POST, next to the engine alone on the
// same new-user contexts. No sockets and no load generator share the cores, so the figures are
// steadier than the wrk benchmark's on a shared machine, and the ratio to the engine isolates what
// the proxy adds to an evaluation (reading, context, cache, serialization, headers).
import { fork } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { IncomingMessage, type RequestListener, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { type Context, createEngine, type FeatureDefinition } from '@vexil/engine'
import { createProxyApp, createProxyConfig, type ProxyAppOptions, type ProxyOptions } from '@vexil/proxy'
import { startTracing } from '@vexil/server-kit/tracing'
import { makeContexts, makeFeatures } from '@vexil/test-fixtures/workload.ts'
import type { BudgetRow } from './budget.js'
import { median } from './measure.js'
import { asNewUser, CLIENT_KEY, proxyGet } from './proxy-http.bench.js'

const ROUNDS = 25
const PER_ROUND = 2000
const CLIENT_TOKEN = '*:development.bench-client'
const OFREP_BULK = '/ofrep/v1/evaluate/flags'

/** A flag with an unconstrained `default` strategy and no parents: on for every context. */
function onForEveryone(feature: FeatureDefinition): boolean {
  return (
    feature.enabled &&
    !feature.dependencies?.length &&
    (feature.strategies ?? []).some(
      (strategy) => strategy.name === 'default' && !strategy.constraints?.length && !strategy.segments?.length,
    )
  )
}

/** An Unleash context as an OpenFeature provider sends it: flat, the user as `targetingKey`. */
function ofrepContext({ userId, properties, ...fields }: Context): Record<string, unknown> {
  return { targetingKey: userId, ...fields, ...properties }
}

interface Call {
  method: 'GET' | 'POST'
  url: string
  body?: Buffer
}

/** Answers one request through `listener` over an in-memory socket; resolves with its status. */
function call(listener: RequestListener, request: Call): Promise<number> {
  return new Promise((resolve) => {
    const req = new IncomingMessage(new Socket())
    req.method = request.method
    req.url = request.url
    req.headers = request.body
      ? {
          host: '127.0.0.1',
          authorization: CLIENT_KEY,
          'content-type': 'application/json',
          'content-length': String(request.body.length),
        }
      : { host: '127.0.0.1', authorization: CLIENT_KEY }
    if (request.body) req.push(request.body)
    req.push(null)
    const res = new ServerResponse(req)
    // The response only writes to its socket, so a stream that drops the bytes stands in for one.
    res.assignSocket(new Writable({ write: (_chunk, _encoding, done) => done() }) as Socket)
    // As node:http's server does once a response is sent: 'close' on the next tick, where the
    // request observers (metrics, request log, tracing) run.
    res.once('finish', () => process.nextTick(() => res.emit('close')))
    res.once('close', () => resolve(res.statusCode))
    listener(req, res)
  })
}

/**
 * ROUNDS rounds of PER_ROUND calls of every task, alternating their order each round, after
 * checking that every request task answers 200 (or the figures would time error answers).
 */
async function rounds(
  tasks: Record<string, (i: number) => Promise<number> | unknown>,
): Promise<Record<string, number[]>> {
  for (const [name, task] of Object.entries(tasks)) {
    if (name.startsWith('engine')) continue
    for (let i = 0; i < 1000; i++) {
      const status = await task(i)
      if (status !== 200) throw new Error(`${name}: status ${status}`)
    }
  }
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(tasks).map((name) => [name, []]))
  const names = Object.keys(tasks)
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse())
      samples[name]!.push(await cpuPerCall(PER_ROUND, tasks[name]!))
  }
  return samples
}

/** CPU µs per call of `next` over `count` calls (awaited one after another). */
async function cpuPerCall(count: number, next: (i: number) => Promise<unknown> | unknown): Promise<number> {
  const start = process.cpuUsage()
  for (let i = 0; i < count; i++) await next(i)
  const used = process.cpuUsage(start)
  return (used.user + used.system) / count
}

export async function runProxyHandlerBench(): Promise<BudgetRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'vexil-handler-'))
  const payload = makeFeatures(200)
  const payloadFile = join(dir, 'payload.json')
  writeFileSync(payloadFile, JSON.stringify(payload))
  const upstream = fork(new URL('./servers/upstream.mjs', import.meta.url), [payloadFile], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  })
  try {
    const port = await new Promise<number>((resolve, reject) => {
      upstream.once('message', (message: { port: number }) => resolve(message.port))
      upstream.once('exit', (code) => reject(new Error(`upstream.mjs exited with code ${code}`)))
    })
    /** A proxy as configured by default, plus `options` and `appOptions`. */
    const startProxy = async (options: ProxyOptions = {}, appOptions: Partial<ProxyAppOptions> = {}) => {
      const config = await createProxyConfig(
        {
          serviceUrl: `http://127.0.0.1:${port}/api`,
          serviceApiToken: CLIENT_TOKEN,
          clientKeys: [CLIENT_KEY],
          tokens: [CLIENT_TOKEN],
          metricsInterval: 0,
          refreshInterval: 600_000,
          responseCacheSize: 10_000,
          ...options,
        },
        {},
      )
      const app = createProxyApp({ config, storage: null, ...appOptions })
      await app.start()
      return app
    }
    const proxy = await startProxy()
    const listener = proxy.listener as RequestListener
    // The same requests with the Prometheus endpoints off, which also stops the request histogram.
    const bare = await startProxy({ disableMetricsEndpoint: true })
    const bareListener = bare.listener as RequestListener
    // And with OTEL_* set: a span per request, batched and exported over OTLP/HTTP to the upstream's process.
    const sdk = await startTracing(
      { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_SERVICE_NAME: 'bench' },
      'vexil-proxy',
    )
    if (!sdk) throw new Error('tracing did not start')
    const traced = await startProxy({}, { tracing: sdk.tracing('proxy') })
    const tracedListener = traced.listener as RequestListener

    const contexts = makeContexts(1000)
    const fresh = contexts.map(asNewUser)
    // A new user's `__N__` becomes a number never used before, as in the wrk benchmark.
    let n = 1_000_000
    const newUser = (text: string) => text.replaceAll('__N__', String(n++))
    const getPaths = contexts.map((context) => proxyGet(context).path)
    const newGetPaths = fresh.map((context) => proxyGet(context).path)
    const postBodies = contexts.map((context) => Buffer.from(JSON.stringify({ context })))
    const newPostBodies = fresh.map((context) => JSON.stringify({ context }))
    // OFREP's flat contexts (the same users), naming the app: bulk and single-flag evaluations,
    // the latter counted upstream under that app (protocols/ofrep-usage.ts). A flag off for the
    // context answers a client key 404 (FLAG_NOT_FOUND), so single-flag calls ask for flags on for everyone.
    const ofrepBodies = contexts.map((context) => Buffer.from(JSON.stringify({ context: ofrepContext(context) })))
    const newOfrepBodies = fresh.map((context) => JSON.stringify({ context: ofrepContext(context) }))
    const flagNames = payload.features.filter(onForEveryone).map((feature) => feature.name)
    const ofrepFlag = (i: number) => `/ofrep/v1/evaluate/flags/${encodeURIComponent(flagNames[i % flagNames.length]!)}`
    const engine = createEngine()
    engine.load(payload)
    const newEngineContexts = fresh.map((context) => JSON.stringify(context))

    const tasks: Record<string, (i: number) => Promise<number> | unknown> = {
      'GET, every request a new user': (i) => call(listener, { method: 'GET', url: newUser(newGetPaths[i % 1000]!) }),
      'GET, repeating contexts': (i) => call(listener, { method: 'GET', url: getPaths[i % 1000]! }),
      'POST, every request a new user': (i) =>
        call(listener, { method: 'POST', url: '/proxy', body: Buffer.from(newUser(newPostBodies[i % 1000]!)) }),
      'POST, repeating contexts': (i) => call(listener, { method: 'POST', url: '/proxy', body: postBodies[i % 1000]! }),
      'GET, every request a new user, metrics off': (i) =>
        call(bareListener, { method: 'GET', url: newUser(newGetPaths[i % 1000]!) }),
      'GET, repeating contexts, metrics off': (i) => call(bareListener, { method: 'GET', url: getPaths[i % 1000]! }),
      'GET, every request a new user, tracing on': (i) =>
        call(tracedListener, { method: 'GET', url: newUser(newGetPaths[i % 1000]!) }),
      'GET, repeating contexts, tracing on': (i) => call(tracedListener, { method: 'GET', url: getPaths[i % 1000]! }),
      'engine evaluateAll, every request a new user': (i) =>
        engine.evaluateAll(JSON.parse(newUser(newEngineContexts[i % 1000]!)) as Context),
    }
    // OFREP runs after /proxy's rounds: in one process the OFREP dialects make the answer
    // pipeline's call sites polymorphic, which slows /proxy's figures, and those are compared
    // across builds. Its own rounds take POST /proxy again as their reference.
    const ofrepTasks: Record<string, (i: number) => Promise<number>> = {
      'OFREP bulk, every request a new user': (i) =>
        call(listener, { method: 'POST', url: OFREP_BULK, body: Buffer.from(newUser(newOfrepBodies[i % 1000]!)) }),
      'OFREP bulk, repeating contexts': (i) =>
        call(listener, { method: 'POST', url: OFREP_BULK, body: ofrepBodies[i % 1000]! }),
      'OFREP one flag, every request a new user': (i) =>
        call(listener, { method: 'POST', url: ofrepFlag(i), body: Buffer.from(newUser(newOfrepBodies[i % 1000]!)) }),
      'OFREP one flag, repeating contexts': (i) =>
        call(listener, { method: 'POST', url: ofrepFlag(i), body: ofrepBodies[i % 1000]! }),
      'POST, every request a new user, beside OFREP': tasks['POST, every request a new user']! as (
        i: number,
      ) => Promise<number>,
    }
    const samples = await rounds(tasks)
    Object.assign(samples, await rounds(ofrepTasks))
    const names = [...Object.keys(tasks), ...Object.keys(ofrepTasks)]
    await proxy.close()
    await bare.close()
    await traced.close()
    await sdk.shutdown()

    const us = (name: string) => median(samples[name]!)
    const over = (name: string, base: string) =>
      median(samples[name]!.map((value, round) => value / samples[base]![round]!))
    const overEngine = (name: string) =>
      median(
        samples[name]!.map((value, round) => value / samples['engine evaluateAll, every request a new user']![round]!),
      )
    console.log(
      `Proxy handler: ${ROUNDS} rounds of ${PER_ROUND} requests each, CPU per request (median µs): ${names.map((name) => `${name} ${us(name).toFixed(1)}`).join('; ')}`,
    )
    return [
      {
        metric: 'GET /proxy in one process, every request a new user: CPU per request',
        value: us('GET, every request a new user'),
        unit: 'µs',
        kind: 'max',
        limit: 120,
        absolute: true,
      },
      {
        metric: 'GET /proxy in one process, repeating contexts: CPU per request',
        value: us('GET, repeating contexts'),
        unit: 'µs',
        kind: 'max',
        limit: 40,
        absolute: true,
      },
      {
        metric: 'POST /proxy in one process, every request a new user: CPU per request',
        value: us('POST, every request a new user'),
        unit: 'µs',
        kind: 'max',
        limit: 150,
        absolute: true,
      },
      {
        metric: 'POST /proxy in one process, repeating contexts: CPU per request',
        value: us('POST, repeating contexts'),
        unit: 'µs',
        kind: 'max',
        limit: 50,
        absolute: true,
      },
      {
        metric: 'POST /ofrep/v1/evaluate/flags (bulk), every request a new user: CPU per request',
        value: us('OFREP bulk, every request a new user'),
        unit: 'µs',
        kind: 'max',
        limit: 250,
        absolute: true,
      },
      {
        metric: 'POST /ofrep/v1/evaluate/flags (bulk), repeating contexts: CPU per request',
        value: us('OFREP bulk, repeating contexts'),
        unit: 'µs',
        kind: 'max',
        limit: 60,
        absolute: true,
      },
      {
        metric: 'POST /ofrep/v1/evaluate/flags/<key> (one flag, app named), every request a new user: CPU per request',
        value: us('OFREP one flag, every request a new user'),
        unit: 'µs',
        kind: 'max',
        limit: 80,
        absolute: true,
      },
      {
        metric: 'POST /ofrep/v1/evaluate/flags/<key> (one flag, app named), repeating contexts: CPU per request',
        value: us('OFREP one flag, repeating contexts'),
        unit: 'µs',
        kind: 'max',
        limit: 80,
        absolute: true,
      },
      {
        metric: 'OFREP bulk / POST /proxy beside it, every request a new user (same contexts)',
        value: over('OFREP bulk, every request a new user', 'POST, every request a new user, beside OFREP'),
        unit: 'x',
        kind: 'max',
        limit: 1.6,
        absolute: false,
        noisyInCI: true,
      },
      {
        metric: 'GET /proxy, every request a new user: handler / engine evaluateAll (same contexts)',
        value: overEngine('GET, every request a new user'),
        unit: 'x',
        kind: 'max',
        limit: 4.5,
        absolute: false,
        noisyInCI: true,
      },
      {
        metric: 'POST /proxy, every request a new user: handler / engine evaluateAll (same contexts)',
        value: overEngine('POST, every request a new user'),
        unit: 'x',
        kind: 'max',
        limit: 6.5,
        absolute: false,
        noisyInCI: true,
      },
      {
        metric: 'GET /proxy, every request a new user: with / without the request metrics',
        value: over('GET, every request a new user', 'GET, every request a new user, metrics off'),
        unit: 'x',
        kind: 'max',
        limit: 1.1,
        absolute: false,
        noisyInCI: true,
      },
      {
        metric: 'GET /proxy, every request a new user: with / without OpenTelemetry tracing',
        value: over('GET, every request a new user, tracing on', 'GET, every request a new user'),
        unit: 'x',
        kind: 'max',
        limit: 1.5,
        absolute: false,
        noisyInCI: true,
      },
      {
        metric: 'GET /proxy, repeating contexts: with / without OpenTelemetry tracing',
        value: over('GET, repeating contexts, tracing on', 'GET, repeating contexts'),
        unit: 'x',
        kind: 'max',
        limit: 2.2,
        absolute: false,
        noisyInCI: true,
      },
      {
        metric: 'GET /proxy, repeating contexts: with / without the request metrics',
        value: over('GET, repeating contexts', 'GET, repeating contexts, metrics off'),
        unit: 'x',
        kind: 'max',
        limit: 1.15,
        absolute: false,
        noisyInCI: true,
      },
    ]
  } finally {
    upstream.kill()
    rmSync(dir, { recursive: true, force: true })
  }
}
