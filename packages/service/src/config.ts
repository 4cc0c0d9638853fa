import { resolve } from 'node:path'
import type { LogLevel } from './logger.js'
import { parseSignalConfig, type SignalConfig } from './signals/config.js'
import { parseTokenSpec, type TokenSpec } from './tokens.js'

/** Everything the service reads from its environment, parsed and checked once at startup. */
export interface ServiceConfig {
  port: number
  host: string
  /** PostgreSQL server; when unset the embedded PGlite driver uses `dataDir`. */
  databaseUrl: string | undefined
  dataDir: string
  /** `INIT_ADMIN_API_TOKENS`: admin tokens inserted (idempotently) at startup. */
  initAdminTokens: TokenSpec[]
  /** `INIT_CLIENT_API_TOKENS`: client tokens inserted (idempotently) at startup. */
  initClientTokens: TokenSpec[]
  logLevel: LogLevel
  /** Minimum time between two `seen_at` writes for one user (insights: active users). */
  userSeenThrottleMs: number
  /** Signal endpoint and action limits and the action runner's sweep interval (`signals/config.ts`). */
  signals: SignalConfig
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid service configuration:\n  - ${problems.join('\n  - ')}`)
    this.name = 'ConfigError'
  }
}

export type ConfigOverrides = Partial<ServiceConfig>

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error']

/**
 * Builds the config from environment variables (`PORT`, `HOST`, `DATABASE_URL`, `DATA_DIR`,
 * `INIT_ADMIN_API_TOKENS`, `INIT_CLIENT_API_TOKENS`, `LOG_LEVEL`) and explicit overrides, which win.
 * Throws one `ConfigError` naming every bad variable.
 */
export function parseServiceConfig(env: NodeJS.ProcessEnv = process.env, overrides: ConfigOverrides = {}): ServiceConfig {
  const problems: string[] = []
  const port = overrides.port ?? parsePort(env.PORT, problems)
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push(`port must be an integer 0-65535, got ${port}`)
  const logLevel = overrides.logLevel ?? (env.LOG_LEVEL?.toLowerCase() || 'info')
  if (!LOG_LEVELS.includes(logLevel as LogLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`)
  const config: ServiceConfig = {
    port,
    host: overrides.host ?? (env.HOST || '0.0.0.0'),
    databaseUrl: overrides.databaseUrl ?? (env.DATABASE_URL || undefined),
    dataDir: resolve(overrides.dataDir ?? (env.DATA_DIR || '.vexil/data')),
    initAdminTokens: overrides.initAdminTokens ?? parseTokens('INIT_ADMIN_API_TOKENS', env.INIT_ADMIN_API_TOKENS, problems),
    initClientTokens: overrides.initClientTokens ?? parseTokens('INIT_CLIENT_API_TOKENS', env.INIT_CLIENT_API_TOKENS, problems),
    logLevel: logLevel as LogLevel,
    userSeenThrottleMs: overrides.userSeenThrottleMs ?? 60_000,
    signals: overrides.signals ?? parseSignalConfig(env, problems),
  }
  for (const token of config.initAdminTokens) {
    if (token.project !== '*' || token.environment !== '*') problems.push(`INIT_ADMIN_API_TOKENS: an admin token must have the form *:*.<secret>`)
  }
  for (const token of config.initClientTokens) {
    if (token.environment === '*') problems.push(`INIT_CLIENT_API_TOKENS: a client token needs one environment, not "*"`)
  }
  if (problems.length > 0) throw new ConfigError(problems)
  return config
}

// --- Internal helpers ---

function parsePort(text: string | undefined, problems: string[]): number {
  if (text === undefined || text.trim() === '') return 4242
  const port = Number(text)
  if (!/^\d+$/.test(text.trim())) problems.push(`PORT must be a number, got "${text}"`)
  return port
}

function parseTokens(name: string, text: string | undefined, problems: string[]): TokenSpec[] {
  if (!text?.trim()) return []
  const tokens: TokenSpec[] = []
  for (const part of text.split(',').map((item) => item.trim()).filter(Boolean)) {
    const token = parseTokenSpec(part)
    if (token) tokens.push(token)
    else problems.push(`${name}: "${part.slice(0, 12)}…" is not in the form project:environment.secret`)
  }
  return tokens
}
