// `vexil offline` (Edge's `offline` command): the proxy serving the flags of a file to the listed
// tokens, with no upstream, on Edge's port 3063 unless --port or PORT says otherwise. A file that
// cannot be read or is not flags stops it at start with exit code 1, naming the file and why.
import { parseArgs } from 'node:util'
import { nextShutdownSignal } from '@vexil/server-kit'
import { createProxyConfig } from '../config/parse.js'
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
  -p, --port <port>              PORT: listening port (default ${EDGE_PORT})
  -h, --help                     Show this help.

Every other proxy variable (HOST, PROXY_BASE_PATH, CORS_*, LOG_LEVEL, ...) applies as for vexil proxy.`

/** Runs offline mode until SIGINT or SIGTERM; resolves with the exit code. */
export async function runOfflineCli(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  let values: ReturnType<typeof parseOfflineArgs>
  try {
    values = parseOfflineArgs(argv)
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${HELP}`)
  }
  if (values.help) {
    process.stdout.write(`${HELP}\n`)
    return 0
  }
  let proxy: RunningProxy
  let shutdown: Promise<NodeJS.Signals>
  try {
    const config = await createProxyConfig(
      {
        port: values.port !== undefined ? Number(values.port) : env.PORT || env.PROXY_PORT ? undefined : EDGE_PORT,
        offline: {
          bootstrapFile: values['bootstrap-file'],
          clientTokens: values['client-tokens'],
          frontendTokens: values['frontend-tokens'],
          reloadInterval: values['reload-interval'],
        },
      },
      env,
    )
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

function fail(message: string): number {
  process.stderr.write(`${message}\n`)
  return 1
}

/** Edge's `offline` options (strict: an unknown option is an error). */
function parseOfflineArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      'bootstrap-file': { type: 'string', short: 'b' },
      'client-tokens': { type: 'string', short: 'c', multiple: true },
      'frontend-tokens': { type: 'string', short: 'f', multiple: true },
      'reload-interval': { type: 'string', short: 'r' },
      port: { type: 'string', short: 'p' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  }).values
}
