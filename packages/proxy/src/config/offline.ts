// Edge's offline mode as configuration (`vexil offline`; Edge's `offline` command): the file the
// flags are read from, the tokens that may read them, and how often the file is read again.
// Set only by the command (or code passing `offline`): Edge reads these variables in that mode
// alone, so a BOOTSTRAP_FILE left in an environment never turns `vexil proxy` offline.
import { resolve } from 'node:path'
import { ConfigError, parseInteger, parseList } from './values.js'

/** What code passes (`startProxy({ offline })`); each unset field is read from its variable. */
export interface OfflineOptions {
  bootstrapFile?: string
  clientTokens?: string[]
  frontendTokens?: string[]
  /** Seconds between reads of the file; 0: never read again (Edge's default). */
  reloadInterval?: number | string
}

export interface OfflineConfig {
  /** Absolute path of the file. */
  bootstrapFile: string
  clientTokens: string[]
  frontendTokens: string[]
  /** 0: the file is read once, at start. */
  reloadIntervalMs: number
}

const ENV = {
  bootstrapFile: ['BOOTSTRAP_FILE'],
  clientTokens: ['CLIENT_TOKENS'],
  frontendTokens: ['FRONTEND_TOKENS'],
  reloadInterval: ['RELOAD_INTERVAL'],
} as const

type Environment = Record<string, string | undefined>

/** Offline mode's settings; undefined when the proxy is not started offline. */
export function parseOfflineConfig(options: OfflineOptions | undefined, env: Environment): OfflineConfig | undefined {
  if (!options) return undefined
  const read = (names: readonly string[]) => {
    const value = env[names[0]!]
    return value !== undefined && value.trim() !== '' ? value : undefined
  }
  const file = options.bootstrapFile?.trim() || read(ENV.bootstrapFile)?.trim()
  if (!file)
    throw new ConfigError(
      'BOOTSTRAP_FILE',
      'is required in offline mode (the file the flags are read from, --bootstrap-file)',
    )
  // Edge's lists: comma-separated, or the option given several times.
  const tokens = (given: string[] | undefined, names: readonly string[]) =>
    given?.length ? given.flatMap(parseList) : parseList(read(names) ?? '')
  const clientTokens = tokens(options.clientTokens, ENV.clientTokens)
  const frontendTokens = tokens(options.frontendTokens, ENV.frontendTokens)
  if (clientTokens.length + frontendTokens.length === 0) {
    throw new ConfigError(
      'CLIENT_TOKENS',
      'or FRONTEND_TOKENS is required in offline mode (the tokens that may read the flags, --client-tokens, --frontend-tokens)',
    )
  }
  const both = clientTokens.find((token) => frontendTokens.includes(token))
  if (both)
    throw new ConfigError(
      'FRONTEND_TOKENS',
      `must not list a token CLIENT_TOKENS lists too (${both.slice(0, both.indexOf('.') + 1)}…): a token is of one type`,
    )
  const interval = options.reloadInterval !== undefined ? String(options.reloadInterval) : read(ENV.reloadInterval)
  const reloadSeconds =
    interval === undefined ? 0 : parseInteger('RELOAD_INTERVAL', interval, { min: 0, max: 2_147_483 })
  return { bootstrapFile: resolve(file), clientTokens, frontendTokens, reloadIntervalMs: reloadSeconds * 1000 }
}
