#!/usr/bin/env node
// `vexil proxy` (and the `vexil-proxy` bin): the evaluation proxy alone, configured by
// environment variables, until SIGTERM/SIGINT; it then sends its pending metrics and stops.
// `vexil edge` (and `vexil-proxy edge`): the same proxy configured by Unleash Edge's command line.
// With WORKERS=N (N > 1) this process is the cluster's primary and forks N workers, each of which
// runs this file again (runtime/cluster/primary.ts, runtime/cluster/worker.ts).
import cluster from 'node:cluster'
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { nextShutdownSignal, readCommandLine } from '@vexil/server-kit'
import {
  startTracing,
  TRACING_ENVIRONMENT_VARIABLES,
  TracingConfigError,
  type TracingSdk,
  tracingSummary,
} from '@vexil/server-kit/tracing'
import { runProxyPrimary } from './runtime/cluster/primary.js'
import { runProxyWorker } from './runtime/cluster/worker.js'
import { runOfflineCli } from './runtime/offline.js'
import {
  edgeCommandIn,
  edgeProxyEnvironment,
  edgeVariableWarnings,
  EdgeUsageError,
  parseEdgeCommandLine,
} from './config/edge-command-line.js'
import { EDGE_HELP } from './config/edge-help.js'
import { createProxyConfig, type Environment, PROXY_ENVIRONMENT_VARIABLES } from './config/parse.js'
import type { ProxyConfig, ProxyOptions } from './config/types.js'
import { ConfigError } from './config/values.js'
import { type RunningProxy, serveProxy } from './server.js'
import { SDK_VERSION } from './upstream/upstream.js'

const HELP = `Usage: vexil proxy [--port <port>]
       vexil [<Edge's global options>] edge [<Edge's options>]   (vexil edge --help)

Runs the evaluation proxy. It is configured by environment variables (spec names first, the
old proxy's UNLEASH_* names as aliases, and Edge's names where the proxy has the setting).
SERVICE_URL (or UNLEASH_URL, or Edge's UPSTREAM_URL without /api) is required, and at least one of:
  SERVICE_API_TOKEN with SERVICE_PROXY_CLIENT_KEYS   the old proxy's /proxy routes
  TOKENS (Edge's)                                    client tokens for /api/frontend, /api/client, OFREP
A malformed value stops the proxy with exit code 1 and a line naming the variable. Edge's
variables that \`vexil proxy\` does not read are named in a warning at start.

Environment variables:
${Object.values(PROXY_ENVIRONMENT_VARIABLES)
  .map((names) => `  ${names.join(', ')}`)
  .join('\n')}

WORKERS=N (or auto: one per core) runs N worker processes behind the port, with one upstream
sync for all of them.

Traces: OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) exports a span per
request and per upstream call over OTLP/HTTP; the other OTEL_* variables are read as the
OpenTelemetry SDK reads them (docs/operations.md, "Tracing").

Options:
  --port <port>  Listening port (overrides PORT; default 3000).
  -h, --help     Show this help.
  --version      Show the version.`

/** What a command line starts: the proxy's options and environment, and the warnings to log once it has a logger. */
interface ProxyStart {
  options: ProxyOptions
  env: Environment
  warnings: string[]
}

/**
 * `vexil proxy`, and Edge's command line (`vexil edge`, `vexil-proxy edge`): parses the flags,
 * starts the proxy and stops it cleanly on SIGINT or SIGTERM (pending metrics sent first).
 * Resolves with an exit code once the proxy has stopped (or at once for `--help` and a
 * configuration that does not parse: 1, or 2 for an Edge command line Edge would refuse).
 */
export async function runProxyCli(argv: string[]): Promise<number> {
  if (edgeCommandIn(argv) === 'offline') return runOfflineCli(argv)
  let start: ProxyStart | number
  try {
    start = edgeCommandIn(argv) ? edgeStart(argv) : proxyStart(argv)
  } catch (error) {
    if (error instanceof EdgeUsageError) return fail(`Invalid command line: ${error.message}`, 2)
    if (error instanceof ConfigError) return fail(`Invalid configuration: ${error.message}`)
    throw error
  }
  if (typeof start === 'number') return start
  let config: ProxyConfig
  let proxy: RunningProxy
  let shutdown: Promise<NodeJS.Signals>
  let tracing: TracingSdk | undefined
  try {
    if (cluster.isWorker) return await runProxyWorker(start.options, start.env)
    config = await createProxyConfig(start.options, start.env)
    for (const warning of start.warnings) config.logger.warn(warning)
    tracing = await startTracing(start.env, 'vexil-proxy')
    if (config.workers > 1) {
      if (tracing) console.log(tracingSummary(tracing))
      // The primary exports its upstream calls' spans; each worker starts an SDK of its own for its requests'.
      return await runProxyPrimary(config, argv, tracing)
    }
    // Listening before the start log is printed: a SIGTERM sent as soon as it appears stops cleanly.
    shutdown = nextShutdownSignal()
    proxy = await serveProxy(config, { tracing: tracing?.tracing('proxy') }, true)
    if (tracing) console.log(tracingSummary(tracing))
  } catch (error) {
    await tracing?.shutdown()
    if (error instanceof ConfigError || error instanceof TracingConfigError)
      return fail(`Invalid configuration: ${error.message}`)
    return fail(`The proxy could not start: ${error instanceof Error ? error.message : String(error)}`)
  }
  const signal = await shutdown
  proxy.config.logger.info(`Received ${signal}: sending pending metrics and stopping`)
  try {
    await proxy.close()
    return 0
  } catch (error) {
    proxy.config.logger.error('Error while stopping', error)
    return 1
  } finally {
    // Last: the spans of the stop itself (the final metrics report) are exported too.
    await tracing?.shutdown()
  }
}

// --- Internal helpers ---

const PROXY_OPTIONS = {
  port: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const

/** `vexil proxy [--port <port>]`: Vexil's variables; Edge's that it does not read are warned about. */
function proxyStart(argv: string[]): ProxyStart | number {
  const line = readCommandLine('vexil proxy', argv, PROXY_OPTIONS)
  if ('refusal' in line) return fail(line.refusal, 2)
  const { values } = line
  if (values.help) return help(HELP)
  if (values.version) return help(`vexil-proxy ${SDK_VERSION}`)
  const proxyReads = new Set([...Object.values(PROXY_ENVIRONMENT_VARIABLES).flat(), ...TRACING_ENVIRONMENT_VARIABLES])
  return {
    options: values.port !== undefined ? { port: Number(values.port) } : {},
    env: process.env,
    warnings: edgeVariableWarnings(process.env, proxyReads),
  }
}

/** Edge's command line: its options and variables translated to the proxy's, with Edge's defaults. */
function edgeStart(argv: string[]): ProxyStart | number {
  const { command, given, help: wantsHelp } = parseEdgeCommandLine(argv)
  if (wantsHelp) return help(EDGE_HELP)
  if (command !== 'edge') return fail(`\`${command}\` is a command of vexil: run \`vexil ${command}\``, 2)
  const { env, warnings } = edgeProxyEnvironment(given, process.env)
  return { options: { mode: 'edge' }, env, warnings }
}

function help(text: string): number {
  process.stdout.write(`${text}\n`)
  return 0
}

function fail(message: string, code = 1): number {
  process.stderr.write(`${message}\n`)
  return code
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
