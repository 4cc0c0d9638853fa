// The tools some suites need beyond `npm install`, in one list: how to tell whether each is here
// and the one command that installs it. Outside CI a suite whose tool is missing skips; the
// summary at the end of `npm test` (skip-summary-reporter.ts) names what was missing and how to
// install it. Under CI a missing tool fails the suite that needs it.
import { chromiumPath } from './chromium.ts'
import { redisServerPath } from './redis-server.ts'
import { RUNTIMES_INSTALL, runtimeMissing } from './runtimes.ts'
import { UNLEASH_SERVER_INSTALL, unleashServerInstall } from './unleash-install.ts'
import { postgresBinDir } from './unleash-postgres.ts'

export interface OptionalTool {
  name: string
  /** What runs only with it. */
  needs: string
  present(): boolean
  /** A Debian package name (installed together in one apt-get line), or an npm command. */
  install: { apt: string } | { npm: string }
}

export const OPTIONAL_TOOLS: readonly OptionalTool[] = [
  {
    name: 'Chromium',
    needs: 'browser SDK and admin UI tests',
    present: () => chromiumPath() !== undefined,
    install: { apt: 'chromium' },
  },
  {
    name: 'Redis',
    needs: 'shared storage tests',
    present: () => redisServerPath() !== undefined,
    install: { apt: 'redis-server' },
  },
  {
    name: 'PostgreSQL',
    needs: 'the service on PostgreSQL and the Unleash comparisons',
    present: () => postgresBinDir() !== undefined,
    install: { apt: 'postgresql' },
  },
  {
    name: 'Unleash 8.2',
    needs: 'comparisons with the real Unleash server',
    present: () => unleashServerInstall() !== undefined,
    install: { npm: UNLEASH_SERVER_INSTALL },
  },
  {
    name: 'Bun, Deno and workerd',
    needs: 'the runtime suites',
    present: () => (['bun', 'deno', 'workerd'] as const).every((name) => runtimeMissing(name) === undefined),
    install: { npm: RUNTIMES_INSTALL },
  },
]

/** The tools missing here, in list order. */
export function missingTools(): OptionalTool[] {
  return OPTIONAL_TOOLS.filter((tool) => !tool.present())
}

/** The commands that install `tools`: one apt-get line for the Debian packages, then each npm command. */
export function installCommands(tools: readonly OptionalTool[]): string[] {
  const apt = tools.flatMap((tool) => ('apt' in tool.install ? [tool.install.apt] : []))
  const npm = tools.flatMap((tool) => ('npm' in tool.install ? [tool.install.npm] : []))
  return [...(apt.length > 0 ? [`sudo apt-get install ${apt.join(' ')}`] : []), ...npm]
}
