import { resolve } from 'node:path'
import { LOG_LEVELS, type LogLevel } from './logger.js'
import { parseSignalConfig, type SignalConfig } from './signal-config.js'
import { parseStreamingConfig, type StreamingConfig } from './streaming-config.js'
import { parseTokenSpec, type TokenSpec } from './token-secrets.js'

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
  /**
   * `PUBLIC_URL`: the service's base URL as others reach it (no trailing slash), for the
   * addresses it hands out (a signal endpoint's `url`). Unset: `http://localhost:<port>`.
   */
  publicUrl: string | undefined
  /**
   * The Vexil proxy SDKs use, as the admin UI shows it where SDK setup is explained: `PROXY_URL`
   * (its base URL, e.g. `https://flags-proxy.example.com`), or what `vexil start` tells the
   * running service (RunningService.announceProxy). Unset: the UI says to use the proxy's address.
   */
  proxy: ProxyAddress
  /** Minimum time between two `seen_at` writes for one user (insights: active users). */
  userSeenThrottleMs: number
  /** Signal endpoint and action limits and the action runner's sweep interval (`signals/config.ts`). */
  signals: SignalConfig
  /** Streaming and delta routes for clients (`streaming-config.ts`). */
  streaming: StreamingConfig
}

export interface ProxyAddress {
  /** The proxy's base URL, without `/proxy` or `/api/frontend`. */
  url: string | undefined
  /** The proxy's own client key for `/proxy`, when this service knows it (`vexil start`). */
  clientKey: string | undefined
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid service configuration:\n  - ${problems.join('\n  - ')}`)
    this.name = 'ConfigError'
  }
}

export type ConfigOverrides = Partial<ServiceConfig>

/**
 * The shortest secret part an INIT_* token may have: 32 characters (128 bits as hex, what
 * `openssl rand -hex 16` prints). These tokens are typed by people, so without a floor a
 * guessable admin token is one environment variable away; generated tokens have 56.
 */
const INIT_SECRET_MIN_LENGTH = 32

/**
 * Builds the config from environment variables (`PORT`, `HOST`, `DATABASE_URL`, `DATA_DIR`,
 * `INIT_ADMIN_API_TOKENS`, `INIT_CLIENT_API_TOKENS`, `LOG_LEVEL`, `PUBLIC_URL`, `PROXY_URL`, the signal limits,
 * the streaming settings)
 * and explicit overrides, which win.
 * Throws one `ConfigError` naming every bad variable.
 */
export function parseServiceConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: ConfigOverrides = {},
): ServiceConfig {
  const problems: string[] = []
  const port = overrides.port ?? parsePort(env.PORT, problems)
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push(`port must be an integer 0-65535, got ${port}`)
  const logLevel = overrides.logLevel ?? (env.LOG_LEVEL?.toLowerCase() || 'info')
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel))
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`)
  const config: ServiceConfig = {
    port,
    host: overrides.host ?? (env.HOST || '0.0.0.0'),
    databaseUrl: overrides.databaseUrl ?? (env.DATABASE_URL || undefined),
    dataDir: resolve(overrides.dataDir ?? (env.DATA_DIR || '.vexil/data')),
    initAdminTokens:
      overrides.initAdminTokens ?? parseTokens('INIT_ADMIN_API_TOKENS', env.INIT_ADMIN_API_TOKENS, problems),
    initClientTokens:
      overrides.initClientTokens ?? parseTokens('INIT_CLIENT_API_TOKENS', env.INIT_CLIENT_API_TOKENS, problems),
    logLevel: logLevel as LogLevel,
    publicUrl: overrides.publicUrl ?? parsePublicUrl('PUBLIC_URL', env.PUBLIC_URL, problems),
    proxy: overrides.proxy ?? { url: parsePublicUrl('PROXY_URL', env.PROXY_URL, problems), clientKey: undefined },
    userSeenThrottleMs: overrides.userSeenThrottleMs ?? 60_000,
    signals: overrides.signals ?? parseSignalConfig(env, problems),
    streaming: overrides.streaming ?? parseStreamingConfig(env, problems),
  }
  for (const token of config.initAdminTokens) {
    if (token.project !== '*' || token.environment !== '*')
      problems.push(`INIT_ADMIN_API_TOKENS: an admin token must have the form *:*.<secret>`)
  }
  for (const token of config.initClientTokens) {
    if (token.environment === '*')
      problems.push(`INIT_CLIENT_API_TOKENS: a client token needs one environment, not "*"`)
  }
  checkSecrets('INIT_ADMIN_API_TOKENS', config.initAdminTokens, problems)
  checkSecrets('INIT_CLIENT_API_TOKENS', config.initClientTokens, problems)
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
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .forEach((part, index) => {
      const token = parseTokenSpec(part)
      // Named by position: the text may be a secret with a typo, and this message is logged.
      if (token) tokens.push(token)
      else problems.push(`${name}: token ${index + 1} is not in the form project:environment.secret`)
    })
  return tokens
}

/** An absolute http(s) URL, maybe with a path (behind a reverse proxy's prefix), without query, fragment or credentials. */
function parsePublicUrl(name: string, text: string | undefined, problems: string[]): string | undefined {
  if (!text?.trim()) return undefined
  let url: URL | undefined
  try {
    url = new URL(text.trim())
  } catch {
    url = undefined
  }
  const ok =
    url &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    !url.username &&
    !url.password &&
    !url.search &&
    !url.hash &&
    !/[?#]/.test(text)
  if (!url || !ok) {
    // A URL with credentials is not echoed: this message is logged.
    const shown = url?.username || url?.password ? '(a URL with credentials)' : `"${text}"`
    problems.push(
      `${name} must be an http(s) URL without credentials, query or fragment, e.g. https://flags.example.com, got ${shown}`,
    )
    return undefined
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

/**
 * Names each short or placeholder secret by its position and scope, never printing the secret.
 * A placeholder long enough to pass the floor (the example manifests' old text had 44
 * characters) would otherwise start a deployment with a publicly known token.
 */
function checkSecrets(name: string, tokens: readonly TokenSpec[], problems: string[]): void {
  tokens.forEach((token, index) => {
    const which = `${name}: token ${index + 1} (${token.project}:${token.environment}.…)`
    if (token.secret.length < INIT_SECRET_MIN_LENGTH) {
      problems.push(
        `${which} has a secret of ${token.secret.length} characters; at least ${INIT_SECRET_MIN_LENGTH} are needed (openssl rand -hex 16)`,
      )
      return
    }
    const placeholder = placeholderIn(token.secret)
    if (placeholder)
      problems.push(`${which} has a placeholder secret (${placeholder}); set one of your own (openssl rand -hex 16)`)
  })
}

/**
 * Words that mark text to be replaced, matched without case or separators ("Change_Me",
 * "change-me", "changeme"). Each is 7 letters or more, so a random secret never holds one by
 * chance (hex cannot hold one at all).
 */
const PLACEHOLDER_WORDS = ['replace', 'changeme', 'example', 'placeholder']

/** Why `secret` looks like a placeholder, or undefined. */
function placeholderIn(secret: string): string | undefined {
  const letters = secret.toLowerCase().replace(/[^a-z0-9]/g, '')
  const word = PLACEHOLDER_WORDS.find((w) => letters.includes(w))
  if (word) return `it contains "${word}"`
  if (/^(.)\1*$/s.test(secret)) return 'one character repeated'
  return undefined
}
