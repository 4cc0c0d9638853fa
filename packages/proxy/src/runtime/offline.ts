// `vexil offline` (Edge's `offline` command): the proxy serving the flags of a file to the listed
// tokens, with no upstream, on Edge's port 3063 unless --port or PORT says otherwise. A file that
// cannot be read or is not flags stops it at start with exit code 1, naming the file and why.
import { nextShutdownSignal } from '@vexil/server-kit'
import {
  type EdgeCommandLine,
  EdgeUsageError,
  edgeProxyEnvironment,
  offlineOptions,
  parseEdgeCommandLine,
} from '../config/edge-command-line.js'
import { createProxyConfig, type Environment } from '../config/parse.js'
import { ConfigError } from '../config/values.js'
import { type RunningProxy, serveProxy } from '../server.js'

/** Edge's port, the default of its commands. */
const EDGE_PORT = 3063

const HELP = `Usage: vexil offline [options]

Serves the flags of a file to the listed tokens, as Unleash Edge's offline mode does: no
upstream, no token validation, no metrics sent. /api/client/* answers the client tokens,
/api/frontend and OFREP the frontend tokens; any other token gets 403.

Options (each also read from its variable):
  -b, --bootstrap-file <path>    BOOTSTRAP_FILE: Edge's simple map {"name": {"enabled": true,
                                 "variant": "v"}} or Unleash's client features JSON (required)
  -c, --client-tokens <tokens>   CLIENT_TOKENS: comma-separated, or the option repeated
  -f, --frontend-tokens <tokens> FRONTEND_TOKENS: comma-separated, or the option repeated
  -r, --reload-interval <s>      RELOAD_INTERVAL: seconds between reads of the file (0: never; default 0)
  -h, --help                     Show this help.

Edge's global options (vexil edge --help lists them) go before \`offline\` as in Edge, or after it:
  -p, --port <port>              PORT: listening port (default ${EDGE_PORT})
  -i, --interface <address>      INTERFACE: listening address

Every other proxy variable (HOST, PROXY_BASE_PATH, CORS_*, LOG_LEVEL, ...) applies as for vexil proxy.`

/**
 * Runs offline mode until SIGINT or SIGTERM; resolves with the exit code. `argv` is Edge's command
 * line naming `offline` (`[--port 4000] offline -b flags.json -c token`), read from Edge's table
 * of options (config/edge-options.ts) as `vexil edge` reads its own.
 */
export async function runOfflineCli(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  let line: EdgeCommandLine
  let translated: Environment
  let warnings: string[]
  try {
    line = parseEdgeCommandLine(argv)
    if (line.help) {
      process.stdout.write(`${HELP}\n`)
      return 0
    }
    ;({ env: translated, warnings } = edgeProxyEnvironment(line.given, env, 'offline'))
  } catch (error) {
    if (error instanceof EdgeUsageError) return fail(`Invalid command line: ${error.message}\n\n${HELP}`, 2)
    if (error instanceof ConfigError) return fail(`Invalid configuration: ${error.message}`)
    throw error
  }
  let proxy: RunningProxy
  let shutdown: Promise<NodeJS.Signals>
  try {
    const config = await createProxyConfig(
      {
        port: translated.PORT || translated.PROXY_PORT ? undefined : EDGE_PORT,
        offline: offlineOptions(line.given),
      },
      translated,
    )
    for (const warning of warnings) config.logger.warn(warning)
    if (config.workers > 1)
      config.logger.warn(`WORKERS=${config.workers} is not used in offline mode: one process serves the file`)
    // Listening before the start line is printed: a SIGTERM sent as soon as it appears stops cleanly.
    shutdown = nextShutdownSignal()
    proxy = await serveProxy(config, {}, false)
  } catch (error) {
    if (error instanceof ConfigError) return fail(`Invalid configuration: ${error.message}`)
    return fail(`Offline mode could not start: ${error instanceof Error ? error.message : String(error)}`)
  }
  const base = proxy.url.replace(/\/proxy$/, '')
  process.stdout.write(
    `Vexil offline mode listening on ${base}: /api/client/*, /api/frontend, /ofrep/v1 from ${proxy.config.offline!.bootstrapFile}\n`,
  )
  const signal = await shutdown
  proxy.config.logger.info(`Received ${signal}: stopping`)
  await proxy.close()
  return 0
}

function fail(message: string, code = 1): number {
  process.stderr.write(`${message}\n`)
  return code
}
