#!/usr/bin/env node
// `vexil proxy` (and the `vexil-proxy` bin): the evaluation proxy alone, configured by
// environment variables, until SIGTERM/SIGINT; it then sends its pending metrics and stops.
// With WORKERS=N (N > 1) this process is the cluster's primary and forks N workers, each of which
// runs this file again (runtime/cluster/primary.ts, runtime/cluster/worker.ts).
import cluster from 'node:cluster'
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { nextShutdownSignal } from '@vexil/server-kit'
import { runProxyPrimary } from './runtime/cluster/primary.js'
import { runProxyWorker } from './runtime/cluster/worker.js'
import { runOfflineCli } from './runtime/offline.js'
import { createProxyConfig, PROXY_ENVIRONMENT_VARIABLES } from './config/parse.js'
import type { ProxyConfig } from './config/types.js'
import { ConfigError } from './config/values.js'
import { type RunningProxy, serveProxy } from './server.js'

const HELP = `Usage: vexil proxy [--port <port>]

Runs the evaluation proxy. It is configured by environment variables (spec names first, the
old proxy's UNLEASH_* names as aliases); SERVICE_URL, SERVICE_API_TOKEN and
SERVICE_PROXY_CLIENT_KEYS are required. A malformed value stops the proxy with exit code 1
and a line naming the variable.

Environment variables:
${Object.values(PROXY_ENVIRONMENT_VARIABLES)
  .map((names) => `  ${names.join(', ')}`)
  .join('\n')}

WORKERS=N (or auto: one per core) runs N worker processes behind the port, with one upstream
sync for all of them.

Options:
  --port <port>  Listening port (overrides PORT; default 3000).
  -h, --help     Show this help.`

/**
 * `vexil proxy`: parses its flags, starts the proxy and stops it cleanly on SIGINT or SIGTERM
 * (pending metrics sent first). Resolves with an exit code once the proxy has stopped (or at
 * once for `--help` and a configuration that does not parse).
 */
export async function runProxyCli(argv: string[]): Promise<number> {
  if (argv[0] === 'offline') return runOfflineCli(argv.slice(1))
  const { values } = parseArgs({ args: argv, options: { port: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true })
  if (values.help) {
    process.stdout.write(`${HELP}\n`)
    return 0
  }
  const options = values.port !== undefined ? { port: Number(values.port) } : {}
  let config: ProxyConfig
  let proxy: RunningProxy
  try {
    if (cluster.isWorker) return await runProxyWorker(options)
    config = await createProxyConfig(options)
    if (config.workers > 1) return await runProxyPrimary(config, argv)
    proxy = await serveProxy(config, {}, true)
  } catch (error) {
    if (error instanceof ConfigError) return fail(`Invalid configuration: ${error.message}`)
    return fail(`The proxy could not start: ${error instanceof Error ? error.message : String(error)}`)
  }
  const signal = await nextShutdownSignal()
  proxy.config.logger.info(`Received ${signal}: sending pending metrics and stopping`)
  try {
    await proxy.close()
    return 0
  } catch (error) {
    proxy.config.logger.error('Error while stopping', error)
    return 1
  }
}

// --- Internal helpers ---

function fail(message: string): number {
  process.stderr.write(`${message}\n`)
  return 1
}

// Run directly (`node dist/cli.js`, or the `vexil-proxy` bin).
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runProxyCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
      process.exit(1)
    },
  )
}
