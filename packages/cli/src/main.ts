// `vexil <command>`: dispatch to the platform, the proxy's CLI or the service's CLI.
import { runProxyCli } from '@vexil/proxy'
import { runServiceCli } from '@vexil/service'
import { runPlatform } from './platform.js'

const HELP = `Usage: vexil <command> [options]

Commands:
  start      The platform (what \`npm start\` runs). With SERVICE_URL (or UNLEASH_URL) set it runs
             only the proxy against that upstream; otherwise it runs the Vexil service on its
             embedded database (seeded with a demo on first run) and the proxy syncing from it.
  proxy      The evaluation proxy alone. \`vexil proxy --help\` lists its configuration.
  offline    Edge's offline mode: flags from a file, no upstream. \`vexil offline --help\`.
  service    The flag service alone. \`vexil service --help\` lists its options.

Options:
  -h, --help  Show this help.`

/** Runs one `vexil` command; resolves with its exit code once it has finished (servers: stopped). */
export async function runVexilCli(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  switch (command) {
    case undefined:
    case 'start':
      return runPlatform()
    case 'proxy':
      return runProxyCli(rest)
    case 'offline':
      return runProxyCli(argv)
    case 'service':
      return runServiceCli(rest)
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
