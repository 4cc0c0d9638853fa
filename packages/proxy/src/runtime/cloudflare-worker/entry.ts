// The proxy as a Cloudflare Worker (README, "Runtimes"): the same app as the Node server
// (createProxyApp: every route, check and answer), served from a `fetch` handler through h3's
// web adapter. Only the edges differ from the Node server:
// - listening: the runtime's; the caller's address is Cloudflare's CF-Connecting-IP;
// - timers: a Worker's timers end with the request that set them, so polls, metrics reports and
//   token revalidation are due tasks (@vexil/sync's timers), run after each answer (waitUntil) and by
//   the cron trigger (`scheduled`): the flags are refreshed once the refresh interval has passed;
// - upstream calls: the runtime's fetch; no upstream stream (STREAMING is off: a stream cannot
//   outlive the request that opened it), and /api/client/streaming answers 404, so SDKs poll;
// - storage: the last good payload in memory, and in Workers KV when the namespace is bound as
//   VEXIL_KV, so a cold isolate serves flags while the upstream is down;
// - configuration: the Worker's environment variables and secrets, by the Node server's names.
// Nothing runs at module scope: the proxy is made on the first event, from its bindings.
//
// A Worker cancels the I/O an event started once the event (its answer and what it handed to
// waitUntil) is over, and a promise that waited on it never settles: a metrics report begun
// after one answer would hang every later one. So every upstream and KV call goes through one
// tracker, and each event hands waitUntil the work it leaves pending.
import { toWebHandler } from 'h3'
import { createProxyApp, type ProxyApp } from '../../app.js'
import { createProxyConfig, type Environment } from '../../config/parse.js'
import type { ProxyConfig } from '../../config/types.js'
import { createKvStorage, type KvNamespace } from '../../storage/kv.js'
import { createDueTimers, type DueTimers, type SendRequest } from '@vexil/sync'
import { createUpstreamTransport } from '../../upstream/transport.js'
import { createHttpUpstream } from '../../upstream/upstream.js'

/** The Worker's bindings: variables and secrets by the Node server's names, and optionally a KV namespace. */
export interface WorkerEnv {
  /** A Workers KV namespace for the last good payload and the known tokens. */
  VEXIL_KV?: KvNamespace
  [name: string]: unknown
}

/** What the proxy uses of the Worker's ExecutionContext. */
export interface WorkerContext {
  waitUntil(promise: Promise<unknown>): void
}

export interface WorkerProxy {
  /** Answers one request; the sync work it makes due goes to `ctx.waitUntil`. */
  fetch(request: Request, ctx: WorkerContext): Promise<Response>
  /** The cron trigger: runs whatever is due (a poll, a metrics report). */
  scheduled(ctx: WorkerContext): Promise<void>
  readonly app: ProxyApp
  readonly config: ProxyConfig
  readonly timers: DueTimers
}

/** The proxy over `env`, started: the first fetch (or the KV backup) done when it resolves. */
export async function createWorkerProxy(env: WorkerEnv): Promise<WorkerProxy> {
  const timers = createDueTimers()
  const io = createIoTracker()
  const variables = environmentOf(env)
  // One id per isolate unless configured: many isolates run at once, each reporting its own metrics.
  variables.SERVICE_INSTANCE_ID ??= variables.UNLEASH_INSTANCE_ID ?? `vexil-worker-${crypto.randomUUID()}`
  if (variables.STREAMING && variables.STREAMING !== 'false')
    console.warn('STREAMING is off in a Worker: the proxy polls its upstream, and SDKs poll the proxy')
  // startWithBackup: a new isolate's first request answers from the KV copy when KV is faster
  // than the upstream (the first fetch goes on behind it, within the event's waitUntil).
  const config = await createProxyConfig({ timers, streaming: false, workers: 1, startWithBackup: true }, variables)
  const transport = createUpstreamTransport(config.upstreamNetwork, config.rejectUnauthorized, 'worker')
  const send: SendRequest = (url, options) => io.track(transport.send(url, options))
  const kv = env.VEXIL_KV
  const app = createProxyApp({
    config,
    upstream: createHttpUpstream(config, { send }),
    upstreamFor: (token) => createHttpUpstream(config, { token, filters: false, send }),
    storage: kv
      ? createKvStorage(
          { get: (key, type) => io.track(kv.get(key, type)), put: (key, value) => io.track(kv.put(key, value)) },
          variables.KV_KEY_PREFIX,
        )
      : null,
    // swagger-ui-dist stays out of the bundle: with ENABLE_OAS the document is served, not the page.
    swaggerUi: false,
    processMetrics: false,
  })
  await app.start()
  const handler = toWebHandler(app.app)
  /** The due tasks, then every call they (or the request) started, within this event's lifetime. */
  const settle = async () => {
    if (timers.nextDue !== undefined && timers.nextDue <= Date.now())
      await timers.runDue().catch((error: unknown) => config.logger.error('A sync task failed', error))
    await io.drain()
  }
  return {
    app,
    config,
    timers,
    async fetch(request, ctx) {
      const answer = await handler(request, { peerAddress: request.headers.get('cf-connecting-ip') ?? undefined })
      // A body the app compressed is sent as it is (a Worker would otherwise encode it again).
      const response = answer.headers.has('content-encoding')
        ? new Response(answer.body, {
            status: answer.status,
            headers: answer.headers,
            encodeBody: 'manual',
          } as ResponseInit)
        : answer
      if (io.pending > 0 || (timers.nextDue !== undefined && timers.nextDue <= Date.now())) ctx.waitUntil(settle())
      return response
    },
    async scheduled(ctx) {
      ctx.waitUntil(settle())
    },
  }
}

let instance: Promise<WorkerProxy> | undefined

/** One proxy per isolate, made from the bindings of the first event; a failed start is retried on the next. */
function proxyFor(env: WorkerEnv): Promise<WorkerProxy> {
  instance ??= createWorkerProxy(env).catch((error: unknown) => {
    instance = undefined
    throw error
  })
  return instance
}

export default {
  async fetch(request: Request, env: WorkerEnv, ctx: WorkerContext): Promise<Response> {
    let proxy: WorkerProxy
    try {
      proxy = await proxyFor(env)
    } catch (error) {
      // Bad configuration: say which variable, as the Node server does at start.
      const message = error instanceof Error ? error.message : String(error)
      console.error(`Vexil proxy could not start: ${message}`)
      return Response.json({ error: "The proxy is not configured correctly; see the Worker's logs" }, { status: 503 })
    }
    return proxy.fetch(request, ctx)
  },
  async scheduled(_controller: unknown, env: WorkerEnv, ctx: WorkerContext): Promise<void> {
    await (await proxyFor(env)).scheduled(ctx)
  },
}

// --- Internal helpers ---

/** The calls in flight, so an event can wait for them (and for the calls their results start). */
function createIoTracker(): {
  track<T>(promise: Promise<T>): Promise<T>
  drain(): Promise<void>
  readonly pending: number
} {
  const pending = new Set<Promise<unknown>>()
  return {
    track(promise) {
      pending.add(promise)
      const done = () => void pending.delete(promise)
      promise.then(done, done)
      return promise
    },
    async drain() {
      // A result may start another call (a new payload is written to KV): wait until none is left.
      for (;;) {
        if (pending.size > 0) await Promise.allSettled([...pending])
        await new Promise((resolve) => setTimeout(resolve, 0))
        if (pending.size === 0) return
      }
    },
    get pending() {
      return pending.size
    },
  }
}

/** The string bindings: the variables and secrets (KV namespaces and other bindings are objects). */
function environmentOf(env: WorkerEnv): Environment {
  const variables: Environment = {}
  for (const [name, value] of Object.entries(env)) if (typeof value === 'string') variables[name] = value
  return variables
}
