// `vexil <command>`: dispatch to the platform, the proxy's CLI (Edge's command line too), the
// service's CLI or the probes.
import { readFileSync } from 'node:fs'
import { runProxyCli } from '@vexil/proxy'
import { runServiceCli } from '@vexil/service'
import { runPlatform } from './platform.js'
import { runProbe } from './probe.js'

const HELP = `Usage: vexil <command> [options]

Commands:
  start      The platform (what \`npm start\` runs). With SERVICE_URL (or UNLEASH_URL) set it runs
             only the proxy against that upstream; otherwise it runs the Vexil service on its
             embedded database (seeded with a demo on first run) and the proxy syncing from it.
  proxy      The evaluation proxy alone. \`vexil proxy --help\` lists its configuration.
  offline    Edge's offline mode: flags from a file, no upstream. \`vexil offline --help\`.
  service    The flag service alone. \`vexil service --help\` lists its options.

Unleash Edge's commands (the image takes them as its first argument, as Edge's does):
  edge       The proxy configured by Edge's options and variables, on port 3063.
             Edge's global options go before it: \`vexil --port 4000 edge --tokens ...\`.
             \`vexil edge --help\` lists every option with what Vexil does for it.
  health     Exit 0 when a running proxy answers /internal-backstage/health (--edge-url).
  ready      Exit 0 when a running proxy answers /internal-backstage/ready with READY.

Options:
  -h, --help  Show this help.
  --version   Show the version.`

const EDGE_COMMANDS = ['edge', 'offline', 'health', 'ready']

/** Runs one `vexil` command; resolves with its exit code once it has finished (servers: stopped). */
export async function runVexilCli(argv: string[]): Promise<number> {
  // Edge's global options come before its subcommand: `vexil --port 4000 edge ...`.
  const edgeAt = argv[0]?.startsWith('-') ? argv.findIndex((arg) => EDGE_COMMANDS.includes(arg)) : 0
  const command = edgeAt > 0 ? argv[edgeAt] : argv[0]
  const rest = argv.slice(edgeAt > 0 ? edgeAt + 1 : 1)
  switch (command) {
    case undefined:
    case 'start':
      return runPlatform(rest)
    case 'proxy':
      return runProxyCli(rest)
    case 'service':
      return runServiceCli(rest)
    case 'edge':
    case 'offline':
      // Edge's command line, read whole: global options before the subcommand, its own after it.
      return runProxyCli(argv)
    case 'health':
    case 'ready':
      return runProbe(command, rest)
    case '--version':
      process.stdout.write(`vexil ${version()}\n`)
      return 0
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(`${HELP}\n`)
      return 0
    default:
      process.stderr.write(`Unknown command "${command}".\n\n${HELP}\n`)
      return 1
  }
}

/** The installed package's version (src/ and dist/ are both one level below package.json). */
function version(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version
}
