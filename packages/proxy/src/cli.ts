#!/usr/bin/env node
// `vexil`: the command line of the platform.
//   vexil start    the platform: the proxy against SERVICE_URL when it is set, otherwise the
//                  service on its embedded database plus the proxy syncing from it
//   vexil proxy    the evaluation proxy alone (configuration by environment variables)
//   vexil service  the flag service alone
import { parseArgs } from 'node:util'
import { PROXY_ENVIRONMENT_VARIABLES } from './config/parse.js'
import { ConfigError } from './config/values.js'
import { type RunningProxy, startProxy } from './server.js'

/** What the CLI uses of @vexil/service, loaded on demand (the proxy runs without it). */
interface ServiceModule {
  startService(options: { port?: number; seedDemo?: boolean }): Promise<{
    url: string
    demo?: { adminToken: string; clientToken: string; proxyClientKey: string }
    close(): Promise<void>
  }>
  runServiceCli(argv: string[]): Promise<number>
}

async function loadService(): Promise<ServiceModule | undefined> {
  const name = '@vexil/service'
  try {
    return (await import(name)) as ServiceModule
  } catch {
    return undefined
  }
}

const HELP = `Usage: vexil <command> [options]

Commands:
  start      The platform (what \`npm start\` runs). With SERVICE_URL (or UNLEASH_URL) set it runs
             only the proxy against that upstream; otherwise it runs the Vexil service on its
             embedded database (seeded with a demo on first run) and the proxy syncing from it.
  proxy      The evaluation proxy alone. \`vexil proxy --help\` lists its configuration.
  service    The flag service alone. \`vexil service --help\` lists its options.

Options:
  -h, --help  Show this help.`

const PROXY_HELP = `Usage: vexil proxy [--port <port>]

Runs the evaluation proxy. It is configured by environment variables (spec names first, the
old proxy's UNLEASH_* names as aliases); SERVICE_URL, SERVICE_API_TOKEN and
SERVICE_PROXY_CLIENT_KEYS are required. A malformed value stops the proxy with exit code 1
and a line naming the variable.

Environment variables:
${Object.values(PROXY_ENVIRONMENT_VARIABLES)
  .map((names) => `  ${names.join(', ')}`)
  .join('\n')}

Options:
  --port <port>  Listening port (overrides PORT; default 3000).
  -h, --help     Show this help.`

function fail(message: string): number {
  process.stderr.write(`${message}\n`)
  return 1
}

async function runProxy(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { port: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true })
  if (values.help) {
    process.stdout.write(`${PROXY_HELP}\n`)
    return 0
  }
  try {
    await startProxy({ handleSignals: true, ...(values.port !== undefined ? { port: Number(values.port) } : {}) })
  } catch (error) {
    if (error instanceof ConfigError) return fail(`Invalid configuration: ${error.message}`)
    return fail(`The proxy could not start: ${error instanceof Error ? error.message : String(error)}`)
  }
  return -1 // keeps running
}

async function runPlatform(): Promise<number> {
  if (process.env.SERVICE_URL || process.env.UNLEASH_URL) return runProxy([])
  const service = await loadService()
  if (!service) {
    return fail('The Vexil service package is not installed. Set SERVICE_URL, SERVICE_API_TOKEN and SERVICE_PROXY_CLIENT_KEYS to run the proxy against an existing upstream.')
  }
  const servicePort = Number(process.env.SERVICE_PORT ?? 4242)
  let running: Awaited<ReturnType<ServiceModule['startService']>>
  try {
    running = await service.startService({ port: servicePort, seedDemo: true })
  } catch (error) {
    return fail(`The service could not start: ${error instanceof Error ? error.message : String(error)}`)
  }
  const demo = running.demo!
  let proxy: RunningProxy
  try {
    proxy = await startProxy({
      serviceUrl: `${running.url}/api`,
      serviceApiToken: demo.clientToken,
      clientKeys: [demo.proxyClientKey],
      refreshInterval: Number(process.env.SERVICE_FETCH_INTERVAL ?? 1000),
      showURL: false,
    })
  } catch (error) {
    await running.close()
    if (error instanceof ConfigError) return fail(`Invalid configuration: ${error.message}`)
    return fail(`The proxy could not start: ${error instanceof Error ? error.message : String(error)}`)
  }
  process.stdout.write(
    [
      '',
      'Vexil is running.',
      `  Admin UI:                   ${running.url}/  (sign in with the admin token)`,
      `  Admin token:                ${demo.adminToken}`,
      `  Service API:                ${running.url}/api`,
      `  Proxy:                      ${proxy.url}`,
      `  Proxy client key:           ${demo.proxyClientKey}`,
      '',
      'Try it:',
      `  curl -H 'Authorization: ${demo.proxyClientKey}' '${proxy.url}?userId=42'`,
      '',
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  )
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    process.stdout.write(`\n${signal}: stopping the proxy (sending its metrics), then the service.\n`)
    try {
      await proxy.close()
      await running.close()
      process.exit(0)
    } catch (error) {
      process.stderr.write(`Error while stopping: ${error instanceof Error ? error.message : String(error)}\n`)
      process.exit(1)
    }
  }
  process.once('SIGINT', () => void stop('SIGINT'))
  process.once('SIGTERM', () => void stop('SIGTERM'))
  return -1
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  switch (command) {
    case undefined:
    case 'start':
      return runPlatform()
    case 'proxy':
      return runProxy(rest)
    case 'service': {
      const service = await loadService()
      return service ? service.runServiceCli(rest) : fail('The Vexil service package is not installed.')
    }
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(`${HELP}\n`)
      return 0
    default:
      return fail(`Unknown command "${command}".\n\n${HELP}`)
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code)
  },
  (error) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exit(1)
  },
)
