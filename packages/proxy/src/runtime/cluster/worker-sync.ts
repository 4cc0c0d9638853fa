// A cluster worker's ProxySync (scope/upstream-sync.ts): the same surface the routes read, fed by
// the primary instead of the upstream. Flags arrive as payloads and are compiled here; the token
// scopes follow the primary's (a sync is made here when the primary made one); tokens come from
// the primary's registry (worker-token-registry.ts); usage counts are kept here and handed to the
// primary every USAGE_PUSH_MS and on close, where they join the one report sent upstream.
import type { Engine } from '@vexil/engine'
import type { Registry } from 'prom-client'
import type { ResponseCaches } from '../../cache/response-cache.js'
import type { ProxyConfig } from '../../config/types.js'
import type { Logger } from '../../logger.js'
import { createScopeFlags, type ScopeFlags, usageAggregatorFor } from '../../scope/scope-flags.js'
import { createTokenScopes } from '../../scope/token-scopes.js'
import type { TokenSync } from '../../scope/token-sync.js'
import type { MetricsSource, ProxySync } from '../../scope/upstream-sync.js'
import { type KnownToken, scopeKey, type TokenScope } from '../../tokens/api-token.js'
import type { UsageAggregator } from '@vexil/sync'
import { type Channel, type PrimaryMessage, STATIC_SCOPE_KEY, type WorkerMessage } from './messages.js'
import { createWorkerTokenRegistry } from './worker-token-registry.js'

/** How often counts go to the primary (at most; never slower than the primary reports them). */
const USAGE_PUSH_MS = 1_000
/** How long a scrape or the final hand-over waits for the primary. */
const PRIMARY_TIMEOUT_MS = 5_000

interface WorkerSyncOptions {
  config: ProxyConfig
  logger: Logger
  newEngine: () => Engine
  /** The worker's response cache, shared by every scope's flag sets; undefined for none. */
  responseCaches: ResponseCaches | undefined
  /** To the primary. */
  channel: Channel<WorkerMessage>
}

interface WorkerSync extends ProxySync {
  /** A message from the primary. */
  receive(message: PrimaryMessage): void
}

export function createWorkerSync(options: WorkerSyncOptions): WorkerSync {
  const { config, logger, newEngine, responseCaches, channel } = options
  const send = (message: WorkerMessage) => channel.send(message)
  const copyOf = () =>
    createScopeFlags({ newEngine, responseCaches, logger, storage: undefined, storageKey: '', announce: false })
  const staticFlags = config.serviceApiToken ? copyOf() : undefined
  const scope = staticFlags ? { flags: staticFlags, usage: usageAggregatorFor(staticFlags) } : undefined
  /** Where counts go, by the key the primary knows them by. */
  const counters = new Map<string, UsageAggregator>(scope ? [[STATIC_SCOPE_KEY, scope.usage]] : [])
  const copies = new Map<string, ScopeFlags>(staticFlags ? [[STATIC_SCOPE_KEY, staticFlags]] : [])
  /** Flags that arrived before their scope (not expected: the primary sends the scope first). */
  const early = new Map<string, Extract<PrimaryMessage, { type: 'flags' }>>()

  // The primary says which scopes it syncs; the worker logs nothing about them twice.
  const scopes = createTokenScopes({
    logger: { ...logger, info: () => undefined, warn: () => undefined, error: () => undefined },
    newEngine,
    responseCaches,
    follows: true,
    known: () => tokens.tokens(),
    createSync: (token) => copiedSync(token),
  })

  function copiedSync(token: KnownToken): TokenSync {
    const tokenScope: TokenScope = { environment: token.environment, projects: token.projects }
    const key = scopeKey(tokenScope)
    const flags = copyOf()
    const usage = usageAggregatorFor(flags)
    copies.set(key, flags)
    counters.set(key, usage)
    const waiting = early.get(key)
    if (waiting) {
      early.delete(key)
      offer(waiting)
    }
    return {
      // The primary fetches, with whichever token it has for the scope.
      token,
      scope: tokenScope,
      key,
      flags,
      usage,
      // Not this process's fetch: when the primary's payload arrived here.
      get lastFetch() {
        return flags.current?.loadedAt ?? 0
      },
      start: () => Promise.resolve(),
      rehome: () => undefined,
      close: () => Promise.resolve(),
    }
  }

  function offer(message: Extract<PrimaryMessage, { type: 'flags' }>): void {
    const flags = copies.get(message.key)
    if (!flags) {
      early.set(message.key, message)
      return
    }
    flags.offer({ payload: message.payload, source: message.source, etag: message.etag })
  }

  const tokens = createWorkerTokenRegistry({
    mode: config.tokenMode,
    configured: config.tokens,
    ask: (id, secret, caller, trace) =>
      send({ vexil: 1, type: 'resolve', id, secret, caller, ...(trace ? { trace } : {}) }),
  })

  // Readiness: what this worker serves, reported to the primary whenever it changes.
  let reported = ''
  const cluster = { static: false, all: false }
  const localStatic = () => staticFlags === undefined || staticFlags.current !== undefined
  const localAll = () =>
    localStatic() && scopes.syncs.every((sync) => sync.flags.current !== undefined) && scopes.unserved.length === 0
  function report(): void {
    const state = {
      vexil: 1,
      type: 'state',
      static: localStatic(),
      all: localAll(),
      scopes: scopes.syncs.length,
    } as const
    const text = `${state.static}/${state.all}/${state.scopes}`
    if (text === reported) return
    reported = text
    send(state)
  }

  // Usage: handed over as buckets; the primary adds them to its own aggregators.
  function pushUsage(): void {
    for (const [key, usage] of counters) {
      const bucket = usage.take(new Date())
      if (bucket) send({ vexil: 1, type: 'usage', key, bucket })
    }
  }
  const pushEvery = config.metricsInterval > 0 ? Math.min(USAGE_PUSH_MS, config.metricsInterval) : 0
  let pushTimer: NodeJS.Timeout | undefined

  // Requests to the primary that wait for an answer: scrapes, the final hand-over.
  let nextId = 1
  const scrapes = new Map<number, (text: string | undefined) => void>()
  let local: Registry | undefined
  let bye: (() => void) | undefined
  let synced: (() => void) | undefined
  let helloSent = false
  const firstSnapshot = new Promise<void>((resolve) => (synced = resolve))

  return {
    scope,
    tokens,
    scopes,
    // The primary fetches: a cluster-wide scrape takes its figure (the largest).
    lastFetch: 0,
    get ready() {
      return localAll() && cluster.all
    },
    get staticReady() {
      return localStatic() && cluster.static
    },
    metricsSource(registry: Registry): MetricsSource {
      local = registry
      return {
        contentType: registry.contentType,
        async metrics() {
          const id = nextId++
          const text = await new Promise<string | undefined>((resolve) => {
            const timer = setTimeout(() => resolve(undefined), PRIMARY_TIMEOUT_MS)
            scrapes.set(id, (answer) => {
              clearTimeout(timer)
              resolve(answer)
            })
            send({ vexil: 1, type: 'scrape', id })
          })
          scrapes.delete(id)
          if (text !== undefined) return text
          logger.warn(
            "The primary did not answer a Prometheus scrape in time: answering with this worker's figures only",
          )
          return registry.metrics()
        },
      }
    },
    receive(message) {
      switch (message.type) {
        case 'token':
          tokens.apply(message.secret, message.token, message.invalidCount)
          return report()
        case 'scope':
          scopes.learn(message.token)
          return report()
        case 'scope-end':
          copies.delete(message.key)
          counters.delete(message.key)
          scopes.endSync(message.key)
          return report()
        case 'static-scope':
          scopes.setStaticSource(
            scope &&
              message.scope && {
                key: scopeKey(message.scope),
                scope: message.scope,
                flags: scope.flags,
                usage: scope.usage,
              },
          )
          return report()
        case 'flags':
          offer(message)
          return report()
        case 'synced':
          synced?.()
          return report()
        case 'resolved':
          return tokens.settle(message.id, message.result, message.invalidCount)
        case 'cluster-ready':
          cluster.static = message.static
          cluster.all = message.all
          return
        case 'collect':
          if (local)
            void local
              .getMetricsAsJSON()
              .then((metrics) => send({ vexil: 1, type: 'collected', id: message.id, metrics }))
          else send({ vexil: 1, type: 'collected', id: message.id, metrics: [] })
          return
        case 'scraped':
          return scrapes.get(message.id)?.(message.text)
        case 'bye':
          return bye?.()
        case 'shutdown':
          // The process (worker.ts) handles it: it closes the server first.
          return
      }
    },
    /** Asks for the snapshot (once); resolves when it has been applied. */
    start() {
      if (!helloSent) {
        helloSent = true
        send({ vexil: 1, type: 'hello' })
        if (pushEvery > 0) {
          pushTimer = setInterval(pushUsage, pushEvery)
          pushTimer.unref()
        }
      }
      return firstSnapshot
    },
    async close() {
      if (pushTimer) clearInterval(pushTimer)
      tokens.stop()
      for (const answer of scrapes.values()) answer(undefined)
      // The last counts, then `closing`: the primary answers `bye` once it has merged them.
      pushUsage()
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, PRIMARY_TIMEOUT_MS)
        bye = () => {
          clearTimeout(timer)
          resolve()
        }
        send({ vexil: 1, type: 'closing' })
      })
    },
  }
}
