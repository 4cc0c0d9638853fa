#!/usr/bin/env node
import { readFileSync, realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { nextShutdownSignal, readCommandLine } from '@vexil/server-kit'
import { startTracing, TracingConfigError, type TracingSdk, tracingSummary } from '@vexil/server-kit/tracing'
import { ConfigError } from './config.js'
import { type RunningService, startService } from './server.js'

const HELP = `Usage: vexil service [options]

Runs the Vexil flag service: the Unleash client API (/api/client/*), the admin API
(/api/admin/*) and GET /health.

Options:
  --port <n>            Listening port (env PORT, default 4242; 0 = any free port)
  --host <address>      Listening address (env HOST, default 0.0.0.0)
  --database-url <url>  PostgreSQL server (env DATABASE_URL); unset = embedded PGlite
  --data-dir <path>     PGlite data folder (env DATA_DIR, default ./.vexil/data)
  --demo                Seed a demo project on first run and print demo credentials
  -h, --help            Show this help
  --version             Show the version

Environment:
  INIT_ADMIN_API_TOKENS   comma-separated admin tokens, *:*.<secret> (secrets of 32+ characters;
                          a token taken off the list is deleted at the next start)
  INIT_CLIENT_API_TOKENS  comma-separated client tokens, <project>:<environment>.<secret> (the same)
  PUBLIC_URL              the service's address as callers see it (signal endpoint URLs);
                          default http://localhost:<port>
  LOG_LEVEL               debug, info (default), warn, error or fatal
`

const SERVICE_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'database-url': { type: 'string' },
  'data-dir': { type: 'string' },
  demo: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const

/**
 * `vexil service`: parses flags (and env), starts the service and stops it cleanly on SIGINT or
 * SIGTERM (HTTP server first, then the database, so nothing is lost). Resolves with an exit code
 * once the service has stopped (or at once for `--help` and bad arguments).
 */
export async function runServiceCli(argv: string[], out: Pick<Console, 'log' | 'error'> = console): Promise<number> {
  const line = readCommandLine('vexil service', argv, SERVICE_OPTIONS)
  if ('refusal' in line) {
    out.error(line.refusal)
    return 2
  }
  const { values } = line
  if (values.help) {
    out.log(HELP)
    return 0
  }
  if (values.version) {
    out.log(`vexil-service ${packageVersion()}`)
    return 0
  }
  const port = values.port === undefined ? undefined : Number(values.port)
  let service: RunningService
  let tracing: TracingSdk | undefined
  try {
    tracing = await startTracing(process.env, 'vexil-service')
    service = await startService({
      ...(tracing ? { tracing: tracing.tracing('service') } : {}),
      ...(port !== undefined ? { port } : {}),
      ...(typeof values.host === 'string' ? { host: values.host } : {}),
      ...(typeof values['database-url'] === 'string' ? { databaseUrl: values['database-url'] } : {}),
      ...(typeof values['data-dir'] === 'string' ? { dataDir: values['data-dir'] } : {}),
      seedDemo: values.demo === true,
    })
  } catch (error) {
    await tracing?.shutdown()
    out.error(
      error instanceof ConfigError || error instanceof TracingConfigError
        ? error.message
        : `The service could not start: ${(error as Error).message}`,
    )
    return 1
  }
  if (tracing) out.log(tracingSummary(tracing))
  // Listening before the start lines are printed: a SIGTERM sent as soon as they appear stops cleanly.
  const shutdown = nextShutdownSignal()
  const everywhere =
    service.host === '0.0.0.0' || service.host === '::' ? '; every other interface too: HOST sets one' : ''
  out.log(`Vexil service listening on ${service.url} (health: ${service.url}/health${everywhere})`)
  out.log(`Admin UI: ${service.url}/ (sign in with an admin token or a personal access token)`)
  if (service.demo) {
    out.log(`Demo admin token:  ${service.demo.adminToken}`)
    out.log(`Demo client token: ${service.demo.clientToken}`)
  }
  const signal = await shutdown
  out.log(`${signal} received: stopping the service`)
  try {
    await service.close()
    await tracing?.shutdown()
    return 0
  } catch (error) {
    out.error(`Stopping failed: ${(error as Error).message}`)
    return 1
  }
}

/** The installed package's version (src/ and dist/ are both one level below package.json). */
function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version
}

// Run directly (`node dist/cli.js`, or the `vexil-service` bin).
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void runServiceCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code
  })
}
