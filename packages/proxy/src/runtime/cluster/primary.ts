// The primary of `vexil proxy` with WORKERS=N (docs/architecture.md, "Proxy: every core"): it
// serves no HTTP. It runs the one upstream sync (scope/upstream-sync.ts: every scope's polling,
// backups, token validation, usage reports) and forks N workers behind one port (node:cluster),
// sending them tokens, scopes and flag payloads as they change; their usage counts come back
// and go upstream in its reports, once. A dead worker is replaced (restart-policy.ts); SIGTERM or
// SIGINT stops the workers (each finishes its requests and hands over its counts) and then the
// sync, whose last report carries every count.
import cluster, { type Worker } from 'node:cluster'
import { fileURLToPath } from 'node:url'
import { createEngine } from '@vexil/engine'
import { nextShutdownSignal } from '@vexil/server-kit'
import type { TracingSdk } from '@vexil/server-kit/tracing'
import type { ProxyConfig } from '../../config/types.js'
import { createPrometheusExporter } from '../../prometheus.js'
import type { FlagSet } from '../../scope/flag-set.js'
import { createUpstreamSync } from '../../scope/upstream-sync.js'
import type { TokenSync } from '../../scope/token-sync.js'
import { startSummary } from '../../config/start-summary.js'
import { type KnownToken, scopeKey, type TokenScope } from '../../tokens/api-token.js'
import { createClusterMetrics } from './cluster-metrics.js'
import { type ClusterReadiness, clusterReadiness, type WorkerReadiness } from './cluster-readiness.js'
import {
  type Channel,
  CLUSTER_INSTANCE_ID,
  isClusterMessage,
  type PrimaryMessage,
  STATIC_SCOPE_KEY,
  type WorkerMessage,
} from './messages.js'
import { createRestartPolicy } from './restart-policy.js'
import { workerExecArgv } from './worker-exec-argv.js'
import { engineHostname } from '../../config/parse.js'

/** How long stopping workers may take (their requests in flight, the hand-over) before they are killed. */
const STOP_TIMEOUT_MS = 15_000

/**
 * Runs the cluster until SIGTERM/SIGINT; resolves with the exit code. `argv`: the CLI's arguments,
 * passed to every worker. `tracing`: the primary's SDK (OTEL_*), for its upstream calls' spans;
 * it is shut down last.
 */
export async function runProxyPrimary(
  config: ProxyConfig,
  argv: readonly string[],
  tracing?: TracingSdk,
): Promise<number> {
  const { logger } = config
  const engineHost = engineHostname()
  const newEngine = () => createEngine({ strategies: config.customStrategies, hostname: engineHost })

  const workers = new Map<Worker, { readiness?: WorkerReadiness; channel: Channel<PrimaryMessage> }>()
  const channelOf = (worker: Worker): Channel<PrimaryMessage> => ({
    send(message) {
      if (worker.isConnected()) worker.send(message, undefined, () => undefined)
    },
  })
  const broadcast = (message: PrimaryMessage) => {
    for (const { channel } of workers.values()) channel.send(message)
  }

  // What workers serve: the tokens, the token scopes in the order their syncs were made, flags.
  let syncTokens: KnownToken[] = []
  let staticScope: TokenScope | undefined
  const flagsMessage = (key: string, set: FlagSet): PrimaryMessage => ({
    vexil: 1,
    type: 'flags',
    key,
    payload: set.engine.getState(),
    source: set.source,
    etag: set.etag,
  })
  const sync = createUpstreamSync({
    config,
    logger,
    newEngine,
    onFetch: (result) => prometheus.upstreamFetch(result),
    tracing: tracing?.tracing('proxy'),
    onTokenSync: (token: KnownToken, tokenSync: TokenSync) => {
      syncTokens.push(token)
      broadcast({ vexil: 1, type: 'scope', token })
      tokenSync.flags.subscribe((set) => {
        broadcast(flagsMessage(tokenSync.key, set))
        updateReadiness()
      })
      updateReadiness()
    },
    onTokenSyncEnd: (tokenSync: TokenSync) => {
      syncTokens = syncTokens.filter((token) => scopeKey(token) !== tokenSync.key)
      broadcast({ vexil: 1, type: 'scope-end', key: tokenSync.key })
      updateReadiness()
    },
    onStaticScope: (scope) => {
      staticScope = scope
      broadcast({ vexil: 1, type: 'static-scope', scope })
      updateReadiness()
    },
    onTokenChange: (secret, token) => {
      broadcast({ vexil: 1, type: 'token', secret, token, invalidCount: sync.tokens.invalidCount })
      updateReadiness()
    },
  })
  sync.scope?.flags.subscribe((set) => {
    broadcast(flagsMessage(STATIC_SCOPE_KEY, set))
    updateReadiness()
  })
  // The primary drops too: the bounds apply again as it adds the workers' buckets.
  const prometheus = createPrometheusExporter({ config, sync })
  const metrics = createClusterMetrics({
    local: prometheus.registry,
    workers: () => [...workers.values()].map((w) => w.channel),
    logger,
  })

  let readiness: ClusterReadiness = { static: false, all: false }
  function updateReadiness(): void {
    const next = clusterReadiness(
      config.workers,
      [...workers.values()].map((w) => w.readiness),
      { static: sync.staticReady, all: sync.ready, scopes: sync.scopes.syncs.length },
    )
    if (next.static === readiness.static && next.all === readiness.all) return
    readiness = next
    logger.debug(
      `Cluster readiness: static scope ${next.static ? 'ready' : 'not ready'}, every scope ${next.all ? 'ready' : 'not ready'}`,
    )
    broadcast({ vexil: 1, type: 'cluster-ready', ...next })
  }

  function snapshot(channel: Channel<PrimaryMessage>): void {
    const invalidCount = sync.tokens.invalidCount
    for (const token of sync.tokens.tokens())
      channel.send({ vexil: 1, type: 'token', secret: token.secret, token, invalidCount })
    channel.send({ vexil: 1, type: 'static-scope', scope: staticScope })
    for (const token of syncTokens) channel.send({ vexil: 1, type: 'scope', token })
    if (sync.scope?.flags.current) channel.send(flagsMessage(STATIC_SCOPE_KEY, sync.scope.flags.current))
    for (const tokenSync of sync.scopes.syncs)
      if (tokenSync.flags.current) channel.send(flagsMessage(tokenSync.key, tokenSync.flags.current))
    channel.send({ vexil: 1, type: 'cluster-ready', ...readiness })
    channel.send({ vexil: 1, type: 'synced' })
  }

  function usageOf(key: string) {
    if (key === STATIC_SCOPE_KEY) return sync.scope?.usage
    return sync.scopes.syncs.find((tokenSync) => tokenSync.key === key)?.usage
  }

  function receive(worker: Worker, message: WorkerMessage): void {
    const entry = workers.get(worker)
    if (!entry) return
    switch (message.type) {
      case 'hello':
        // A worker that starts as the cluster stops is told to stop at once.
        return stopping ? entry.channel.send({ vexil: 1, type: 'shutdown' }) : snapshot(entry.channel)
      case 'state':
        entry.readiness = { static: message.static, all: message.all, scopes: message.scopes }
        return updateReadiness()
      case 'usage': {
        // Added to the counts the next report sends (restore merges a bucket, keeping the earliest start).
        const usage = usageOf(message.key)
        if (usage) usage.restore(message.bucket)
        else
          logger.warn(
            `A worker sent usage counts for a scope this proxy does not sync (${message.key}); they are dropped`,
          )
        return
      }
      case 'resolve':
        void sync.tokens
          .resolve(message.secret, message.caller, () => message.trace)
          .then((result) =>
            entry.channel.send({
              vexil: 1,
              type: 'resolved',
              id: message.id,
              result,
              invalidCount: sync.tokens.invalidCount,
            }),
          )
        return
      case 'scrape':
        void metrics.scrape().then(
          (text) => entry.channel.send({ vexil: 1, type: 'scraped', id: message.id, text }),
          (error) => logger.error('A cluster-wide Prometheus scrape failed', error),
        )
        return
      case 'collected':
        return metrics.collected(message.id, message.metrics)
      case 'closing':
        // Messages arrive in order: its last usage counts are merged already.
        return entry.channel.send({ vexil: 1, type: 'bye' })
    }
  }

  // --- Workers: forked, replaced when they die, stopped on a signal ---
  let stopping = false
  let listening = false
  let startupFailure: string | undefined
  const restarts = createRestartPolicy()
  const allExited = () =>
    new Promise<void>((resolve) =>
      workers.size === 0 ? resolve() : cluster.once('exit', () => void allExited().then(resolve)),
    )

  cluster.setupPrimary({
    exec: fileURLToPath(new URL('../../cli.js', import.meta.url)),
    args: [...argv],
    execArgv: workerExecArgv(process.execArgv, process.env.NODE_OPTIONS),
  })
  function fork(): void {
    // One instance for the whole cluster: a worker left to make its own id would make up a new one
    // where the user cannot be told (config/parse.ts defaultInstanceId), splitting the metrics' series.
    const worker = cluster.fork({ [CLUSTER_INSTANCE_ID]: config.serviceInstanceId })
    workers.set(worker, { channel: channelOf(worker) })
    worker.on('message', (message: unknown) => {
      if (isClusterMessage<WorkerMessage>(message)) receive(worker, message)
    })
    updateReadiness()
  }
  cluster.on('listening', (_worker, address) => {
    // A worker listens on the HTTP port after the HTTPS one (TLS_ENABLE): the proxy is up then.
    if (listening || (config.tls && address.port === config.tls.port)) return
    listening = true
    console.log(startSummary(config, address.port, config.workers, config.tls?.port).join('\n'))
  })
  let signalled: (reason: string) => void = () => undefined
  const stopRequested = new Promise<string>((resolve) => (signalled = resolve))
  cluster.on('exit', (worker, code, signal) => {
    workers.delete(worker)
    updateReadiness()
    if (stopping) return
    const how = signal ? `signal ${signal}` : `code ${code}`
    if (!listening) {
      // A worker that cannot start (the port is taken, …) would fail again: stop instead of looping.
      startupFailure = `A worker exited with ${how} before the proxy listened`
      signalled('startup failure')
      return
    }
    const delay = restarts.nextDelay()
    logger.error(
      `Worker ${worker.process.pid} exited with ${how}; starting a new one${delay > 0 ? ` in ${delay} ms (it keeps dying)` : ''}`,
    )
    setTimeout(() => {
      if (!stopping) fork()
    }, delay).unref()
  })

  for (let i = 0; i < config.workers; i++) fork()
  // Runs beside the workers' start: their first flags are the primary's first payload.
  sync.start().catch((error) => logger.error('The upstream sync failed to start', error))
  void nextShutdownSignal().then((signal) => signalled(signal))
  const reason = await stopRequested
  stopping = true
  if (reason !== 'startup failure')
    logger.info(`Received ${reason}: stopping the workers, sending pending metrics and stopping`)
  broadcast({ vexil: 1, type: 'shutdown' })
  const killer = setTimeout(() => {
    for (const worker of workers.keys()) worker.process.kill('SIGKILL')
  }, STOP_TIMEOUT_MS)
  await allExited()
  clearTimeout(killer)
  try {
    await sync.close()
  } catch (error) {
    logger.error('Error while stopping', error)
    return 1
  } finally {
    // Last: the spans of the final metrics report are exported too.
    await tracing?.shutdown()
  }
  if (startupFailure) {
    process.stderr.write(`The proxy could not start: ${startupFailure}\n`)
    return 1
  }
  return 0
}
