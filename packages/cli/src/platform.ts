// `vexil start` (what `npm start` runs): the proxy against SERVICE_URL when it is set, otherwise
// the service on its embedded database (seeded with a demo on first run) plus the proxy syncing
// from it, until Ctrl-C stops the proxy (sending its metrics) and then the service. With OTEL_*
// set, one OpenTelemetry SDK traces both, as one service (`vexil` unless OTEL_SERVICE_NAME), each
// span's instrumentation scope saying which: `@vexil/proxy` or `@vexil/service`.
import { ConfigError, type RunningProxy, runProxyCli, startProxy } from '@vexil/proxy'
import { isPort, nextShutdownSignal, readCommandLine } from '@vexil/server-kit'
import { startTracing, TracingConfigError, type TracingSdk, tracingSummary } from '@vexil/server-kit/tracing'
import { type RunningService, startService } from '@vexil/service'

const HELP = `Usage: vexil start

Runs the platform (what \`npm start\` runs): the Vexil service on its embedded database, seeded
with a demo on first run, and the proxy syncing from it. With SERVICE_URL (or UNLEASH_URL) set it
runs only the proxy, against that upstream, as \`vexil proxy\`.

Environment:
  SERVICE_URL, UNLEASH_URL   set: run only the proxy, against this upstream
  SERVICE_PORT               the service's port (default 4242)
  PORT                       the proxy's port (default 3000)
  HOST                       the listening address of both (default 127.0.0.1)
  SERVICE_FETCH_INTERVAL     ms between the proxy's polls of the service (default 1000)
  DATA_DIR                   the service's data folder (default ./.vexil/data)

Every other variable reaches the proxy and the service as when they run alone
(\`vexil proxy --help\`, \`vexil service --help\`).`

/** Runs the platform; resolves with an exit code once it has stopped (or could not start). */
export async function runPlatform(argv: readonly string[] = []): Promise<number> {
  const line = readCommandLine('vexil start', argv, { help: { type: 'boolean', short: 'h' } })
  if ('refusal' in line) return fail(line.refusal, 2)
  if (line.values.help) {
    process.stdout.write(`${HELP}\n`)
    return 0
  }
  const env = process.env
  if (env.SERVICE_URL || env.UNLEASH_URL) return runProxyCli([])
  const servicePortText = env.SERVICE_PORT || '4242'
  if (!isPort(servicePortText))
    return fail(`Invalid configuration: SERVICE_PORT must be a port number (0 to 65535), got "${servicePortText}"`)
  const servicePort = Number(servicePortText)
  // The banner prints an admin token: this machine only, unless HOST says otherwise (the
  // container image sets HOST=0.0.0.0, its ports being published by the runtime).
  const host = env.HOST || '127.0.0.1'
  let tracing: TracingSdk | undefined
  try {
    tracing = await startTracing(env, 'vexil')
  } catch (error) {
    if (error instanceof TracingConfigError) return fail(`Invalid configuration: ${error.message}`)
    throw error
  }
  let service: RunningService
  try {
    service = await startService({
      port: servicePort,
      host,
      seedDemo: true,
      ...(tracing ? { tracing: tracing.tracing('service') } : {}),
    })
  } catch (error) {
    await tracing?.shutdown()
    return fail(`The service could not start: ${messageOf(error)}`)
  }
  const demo = service.demo!
  let proxy: RunningProxy
  try {
    proxy = await startProxy({
      host,
      serviceUrl: `${service.url}/api`,
      serviceApiToken: demo.clientToken,
      clientKeys: [demo.proxyClientKey],
      refreshInterval: Number(env.SERVICE_FETCH_INTERVAL ?? 1000),
      showURL: false,
      ...(tracing ? { tracing: tracing.tracing('proxy') } : {}),
    })
  } catch (error) {
    await service.close()
    await tracing?.shutdown()
    if (error instanceof ConfigError) return fail(`Invalid configuration: ${error.message}`)
    return fail(`The proxy could not start: ${messageOf(error)}`)
  }
  // The proxy's URL names /proxy; the frontend API sits beside it. The admin UI's setup snippets name both.
  service.announceProxy({ url: proxy.url.replace(/\/proxy$/, ''), clientKey: demo.proxyClientKey })
  const frontendUrl = proxy.url.replace(/\/proxy$/, '/api/frontend')
  const ofrepUrl = proxy.url.replace(/\/proxy$/, '/ofrep/v1/evaluate/flags')
  // Listening before the banner is printed: a SIGTERM sent as soon as it appears stops cleanly.
  const shutdown = nextShutdownSignal()
  // The banner's curl lines work once the proxy has its first flags from the service; a signal
  // while it waits stops at once, without the banner.
  const ready = await Promise.race([proxyReady(proxy, FIRST_FLAGS_WAIT_MS, shutdown), shutdown])
  if (typeof ready !== 'boolean') return stop(ready)
  process.stdout.write(
    [
      '',
      'Vexil is running.',
      `  Listening on:               ${listeningOn(host)}`,
      `  Admin UI:                   ${service.url}/  (sign in with the admin token)`,
      `  Admin token:                ${demo.adminToken}`,
      `  Service API:                ${service.url}/api`,
      `  Proxy:                      ${proxy.url}`,
      `  Proxy client key:           ${demo.proxyClientKey}`,
      `  Frontend API (as Edge):     ${frontendUrl}`,
      `  Frontend token:             ${demo.frontendToken}`,
      `  OpenFeature (OFREP):        ${ofrepUrl}  (either key)`,
      '',
      'Try it:',
      `  curl -H 'Authorization: ${demo.proxyClientKey}' '${proxy.url}?userId=42'`,
      `  curl -H 'Authorization: ${demo.frontendToken}' '${frontendUrl}?userId=42'`,
      `  curl -H 'Authorization: ${demo.frontendToken}' -H 'Content-Type: application/json' -d '{"context":{"targetingKey":"42"}}' '${ofrepUrl}'`,
      '',
      ...(tracing ? [tracingSummary(tracing), ''] : []),
      ...(ready
        ? []
        : [
            `The proxy has no flags from the service yet (none within ${FIRST_FLAGS_WAIT_MS / 1000} s): it answers 503 until it does.`,
            '',
          ]),
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  )
  return stop(await shutdown)

  async function stop(signal: string): Promise<number> {
    process.stdout.write(`\n${signal}: stopping the proxy (sending its metrics), then the service.\n`)
    try {
      await proxy.close()
      await service.close()
      await tracing?.shutdown()
      return 0
    } catch (error) {
      return fail(`Error while stopping: ${messageOf(error)}`)
    }
  }
}

// --- Internal helpers ---

const FIRST_FLAGS_WAIT_MS = 10_000

/** Resolves true once the proxy serves flags, false if it does not within `ms` or `until` settles first. */
async function proxyReady(proxy: RunningProxy, ms: number, until: Promise<unknown>): Promise<boolean> {
  let given = false
  void until.then(() => (given = true))
  const deadline = Date.now() + ms
  while (!proxy.app.ready) {
    if (given || Date.now() >= deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return true
}

/** Where the servers can be reached from; the URLs below name this machine's loopback for all interfaces. */
function listeningOn(host: string): string {
  if (host === '0.0.0.0' || host === '::')
    return `every interface (HOST=${host}); the addresses below are this machine's own`
  if (host === '127.0.0.1' || host === '::1' || host === 'localhost')
    return `${host} only (HOST=0.0.0.0 for every interface)`
  return `${host} (HOST)`
}

function fail(message: string, code = 1): number {
  process.stderr.write(`${message}\n`)
  return code
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
