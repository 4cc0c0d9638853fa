// One worker process of `vexil proxy` with WORKERS=N: the proxy's routes on the port the cluster
// shares, over the primary's sync (worker-sync.ts). It stops when the primary says so, on its own
// SIGTERM/SIGINT (Ctrl-C reaches the whole process group), or when the primary is gone; stopping
// closes the server (requests in flight finish), hands the last counts to the primary, exits 0.
import { createEngine } from '@vexil/engine'
import { startTracing } from '@vexil/server-kit/tracing'
import { createProxyConfig, engineHostname, type Environment } from '../../config/parse.js'
import { createResponseCaches } from '../../cache/response-cache.js'
import type { ProxyOptions } from '../../config/types.js'
import { serveProxy } from '../../server.js'
import { CLUSTER_INSTANCE_ID, isClusterMessage, type PrimaryMessage, type WorkerMessage } from './messages.js'
import { createWorkerSync } from './worker-sync.js'

/** Runs the worker until it is told to stop; resolves with its exit code. */
export async function runProxyWorker(options: ProxyOptions, env?: Environment): Promise<number> {
  // The primary parsed the same environment and options already: this does not fail on its own.
  // Its instance id is the cluster's (an option wins over every variable, Edge's included).
  const instanceId = process.env[CLUSTER_INSTANCE_ID]
  const config = await createProxyConfig(instanceId ? { ...options, serviceInstanceId: instanceId } : options, env)
  const engineHost = engineHostname()
  const newEngine = () => createEngine({ strategies: config.customStrategies, hostname: engineHost })
  const sync = createWorkerSync({
    config,
    logger: config.logger,
    newEngine,
    responseCaches: createResponseCaches({
      maxEntries: config.responseCacheSize,
      maxBytes: config.responseCacheMaxBytes,
    }),
    channel: {
      send(message: WorkerMessage) {
        // The primary may be gone (then this worker stops too).
        if (process.connected) process.send?.(message, undefined, undefined, () => undefined)
      },
    },
  })

  let stop: (why: string) => void = () => undefined
  const stopped = new Promise<string>((resolve) => (stop = resolve))
  process.on('message', (message: unknown) => {
    if (!isClusterMessage<PrimaryMessage>(message)) return
    if (message.type === 'shutdown') stop('shutdown')
    else sync.receive(message)
  })
  process.on('disconnect', () => stop('the primary is gone'))
  process.once('SIGTERM', () => stop('SIGTERM'))
  process.once('SIGINT', () => stop('SIGINT'))

  // The primary's flags first, then the port: a replacement worker never answers 503 while the
  // others serve (the snapshot comes at once, with or without flags).
  const early = await Promise.race([sync.start().then(() => undefined), stopped])
  if (early !== undefined) {
    // Stopped before serving (the cluster stopped while this worker started).
    await sync.close()
    return 0
  }
  // Each worker exports its requests' spans with an SDK of its own (the primary's has its upstream calls).
  const tracing = await startTracing(env ?? process.env, 'vexil-proxy')
  const proxy = await serveProxy(config, { newEngine, sync, tracing: tracing?.tracing('proxy') }, false)
  const why = await stopped
  config.logger.debug(`Worker ${process.pid} stopping (${why})`)
  try {
    await proxy.close()
  } finally {
    await tracing?.shutdown()
  }
  return 0
}
