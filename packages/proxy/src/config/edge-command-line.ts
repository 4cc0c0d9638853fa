// Edge's command line read as Edge reads it (clap): global options before the subcommand, the
// subcommand's own after it, options marked global on either side; every option also read from
// its upper-snake-case variable, the option winning. `vexil edge` then runs the proxy on the
// environment this makes: Edge's names translated to Vexil's (edge-options.ts); `vexil offline`
// reads its own options from the same table.
import type { OfflineOptions } from './offline.js'
import type { Environment } from './parse.js'
import { EDGE_OPTIONS, type EdgeOption, type EdgePlace } from './edge-options.js'
import { ConfigError, parseBoolean } from './values.js'

export const EDGE_COMMANDS = ['edge', 'offline', 'health', 'ready'] as const
export type EdgeCommand = (typeof EDGE_COMMANDS)[number]

/** A command line Edge would refuse (clap exits 2). */
export class EdgeUsageError extends Error {
  override name = 'EdgeUsageError'
}

export interface EdgeCommandLine {
  command: EdgeCommand | undefined
  /** Values given as options, by the option's variable name (a repeated option's values joined by commas). */
  given: Record<string, string>
  help: boolean
}

/**
 * Where each command line takes its options from: before any subcommand Edge's global ones, after
 * one that subcommand's. After `offline` Vexil also takes the global ones (`vexil offline -p 4000`).
 */
const PLACES_AFTER: Record<EdgeCommand | 'none', readonly EdgePlace[]> = {
  none: ['global', 'anywhere'],
  edge: ['edge', 'anywhere'],
  offline: ['offline', 'anywhere', 'global'],
  health: ['probe', 'anywhere'],
  ready: ['probe', 'anywhere'],
}

/** The Edge subcommand an argument list names, if any (`--port 4000 edge -t ...` names `edge`). */
export function edgeCommandIn(argv: readonly string[]): EdgeCommand | undefined {
  return argv.find((arg): arg is EdgeCommand => (EDGE_COMMANDS as readonly string[]).includes(arg))
}

export function parseEdgeCommandLine(argv: readonly string[]): EdgeCommandLine {
  const given: Record<string, string> = {}
  let command: EdgeCommand | undefined
  let help = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '-h' || arg === '--help') {
      help = true
      continue
    }
    if (!arg.startsWith('-') || arg === '-') {
      if (command || !(EDGE_COMMANDS as readonly string[]).includes(arg))
        throw new EdgeUsageError(`unexpected argument "${arg}"`)
      command = arg as EdgeCommand
      continue
    }
    const [name, inline] = splitInline(arg)
    const option = optionNamed(name, command)
    if (!option)
      throw new EdgeUsageError(
        `${name} is not an option ${command ? `of \`${command}\`` : 'before the subcommand'} (vexil edge --help lists them)`,
      )
    let value: string
    if (option.switch) {
      if (inline !== undefined) throw new EdgeUsageError(`${name} takes no value`)
      value = 'true'
    } else if (inline !== undefined) {
      value = inline
    } else {
      const next = argv[i + 1]
      if (next === undefined) throw new EdgeUsageError(`${name} needs a value`)
      value = next
      i++
    }
    given[option.variable] =
      given[option.variable] === undefined || option.switch ? value : `${given[option.variable]},${value}`
  }
  return { command, given, help }
}

/**
 * The environment `vexil edge` (or `vexil offline`) runs the proxy on: `env` with each Edge option
 * of that command or global given (or its variable set) written under the name Vexil reads, and one
 * warning per option Vexil does not implement. Throws ConfigError naming Edge's option for a value
 * Edge would refuse, and for `edge` when the upstream or its tokens are missing.
 */
export function edgeProxyEnvironment(
  given: Record<string, string>,
  env: Environment,
  command: 'edge' | 'offline' = 'edge',
): { env: Environment; warnings: string[] } {
  const value = (option: EdgeOption) => given[option.variable] ?? nonEmpty(env[option.variable])
  const source = (option: EdgeOption) =>
    given[option.variable] !== undefined && option.flag ? option.flag : option.variable
  const translated: Environment = { ...env }
  const warnings: string[] = []
  for (const option of EDGE_OPTIONS) {
    if (option.place !== 'global' && option.place !== 'anywhere' && option.place !== command) continue
    const found = value(option)
    if (found === undefined) continue
    const handling = option.handling
    if (handling.kind === 'warn') {
      if (!handling.when || handling.when(found)) warnings.push(ignoredWarning(option, handling.instead))
    } else if (handling.kind === 'read') {
      const converted = handling.convert ? handling.convert(found, source(option)) : found
      if (converted === undefined)
        warnings.push(
          `Ignoring Edge's ${option.variable}="${found}": it names no level; LOG_LEVEL sets one (debug, info, warn, error, fatal).`,
        )
      else for (const name of handling.to) translated[name] = converted
    }
  }
  const trusted = trustedServers(value)
  if (trusted) translated.TRUST_PROXY = trusted
  const redisUrl = composedRedisUrl(value)
  if (redisUrl) translated.REDIS_URL = redisUrl
  if (command === 'offline') return { env: translated, warnings }
  if (!translated.SERVICE_URL && !translated.UNLEASH_URL) {
    throw new ConfigError(
      'UPSTREAM_URL',
      'is required (--upstream-url: the upstream Unleash, Edge or Vexil, without /api)',
    )
  }
  if (
    !nonEmpty(translated.TOKENS) &&
    !nonEmpty(translated.SERVICE_API_TOKEN) &&
    !nonEmpty(translated.UNLEASH_API_TOKEN)
  ) {
    throw new ConfigError(
      'TOKENS',
      'is required by Vexil, though not by Edge (--tokens: at least one client token of the upstream to sync flags with)',
    )
  }
  return { env: translated, warnings }
}

/** The offline options given on the command line (their variables are read by config/offline.ts). */
export function offlineOptions(given: Record<string, string>): OfflineOptions {
  const list = (variable: string) => (given[variable] !== undefined ? [given[variable]] : undefined)
  return {
    bootstrapFile: given.BOOTSTRAP_FILE,
    clientTokens: list('CLIENT_TOKENS'),
    frontendTokens: list('FRONTEND_TOKENS'),
    reloadInterval: given.RELOAD_INTERVAL,
  }
}

/**
 * Warnings for Edge's variables set in the environment of `vexil proxy`, which reads Vexil's names
 * (and the Edge names the proxy always read): each one is named, with what reads it instead.
 */
export function edgeVariableWarnings(env: Environment, proxyReads: ReadonlySet<string>): string[] {
  const warnings: string[] = []
  for (const option of EDGE_OPTIONS) {
    if (option.place === 'offline' || option.place === 'probe' || proxyReads.has(option.variable)) continue
    const found = nonEmpty(env[option.variable])
    if (found === undefined) continue
    const handling = option.handling
    if (handling.kind === 'warn') {
      if (!handling.when || handling.when(found)) warnings.push(ignoredWarning(option, handling.instead))
    } else if (handling.kind === 'read' && handling.note !== 'never served') {
      const vexilName = handling.to.length > 0 ? `; vexil proxy reads ${handling.to.join(' and ')}` : ''
      warnings.push(`Ignoring Edge's ${option.variable}: \`vexil edge\` reads it${vexilName}.`)
    }
  }
  return warnings
}

// --- Internal helpers ---

function ignoredWarning(option: EdgeOption, instead: string): string {
  return `Ignoring Edge's ${option.variable}${option.flag ? ` (${option.flag})` : ''}: Vexil does not implement it; ${instead}.`
}

function nonEmpty(text: string | undefined): string | undefined {
  return text !== undefined && text.trim() !== '' ? text : undefined
}

function splitInline(arg: string): [string, string | undefined] {
  if (arg.startsWith('--')) {
    const equals = arg.indexOf('=')
    return equals === -1 ? [arg, undefined] : [arg.slice(0, equals), arg.slice(equals + 1)]
  }
  // -p3063 as -p 3063; -p=3063 too, as clap reads it
  return arg.length > 2 ? [arg.slice(0, 2), arg.slice(arg[2] === '=' ? 3 : 2)] : [arg, undefined]
}

function optionNamed(name: string, command: EdgeCommand | undefined): EdgeOption | undefined {
  const places = PLACES_AFTER[command ?? 'none']
  return EDGE_OPTIONS.find(
    (option) =>
      places.includes(option.place) &&
      (name.startsWith('--') ? option.flag === name : option.short !== undefined && `-${option.short}` === name),
  )
}

/** Edge's PROXY_TRUSTED_SERVERS, read when the proxy is trusted: TRUST_PROXY's list of addresses. */
function trustedServers(value: (option: EdgeOption) => string | undefined): string | undefined {
  const trust = value(optionFor('TRUST_PROXY'))
  const servers = value(optionFor('PROXY_TRUSTED_SERVERS'))
  return servers !== undefined && trust !== undefined && parseBoolean('TRUST_PROXY', trust) ? servers : undefined
}

const REDIS_SCHEMES: Record<string, string> = { redis: 'redis', tcp: 'redis', rediss: 'rediss', tls: 'rediss' }

/** REDIS_URL (or REDIS_SCHEME://REDIS_HOST) with Edge's REDIS_USERNAME, REDIS_PASSWORD, REDIS_PORT and REDIS_SECURE applied, as Edge composes it. */
function composedRedisUrl(value: (option: EdgeOption) => string | undefined): string | undefined {
  const part = (variable: string) => value(optionFor(variable))
  const [url, host, scheme, username, password, port, secure] = [
    'REDIS_URL',
    'REDIS_HOST',
    'REDIS_SCHEME',
    'REDIS_USERNAME',
    'REDIS_PASSWORD',
    'REDIS_PORT',
    'REDIS_SECURE',
  ].map(part)
  if (!host && !username && !password && !port && !secure) return undefined
  if (!url && !host)
    throw new ConfigError(
      'REDIS_HOST',
      'is required with REDIS_USERNAME, REDIS_PASSWORD, REDIS_PORT or REDIS_SECURE (or REDIS_URL)',
    )
  const protocol = REDIS_SCHEMES[(scheme ?? 'redis').trim().toLowerCase()]
  if (!protocol)
    throw new ConfigError(
      'REDIS_SCHEME',
      `must be redis, rediss, tcp or tls (Vexil reaches Redis over TCP), got "${scheme}"`,
    )
  let composed: URL
  try {
    composed = new URL(url ?? `${protocol}://${host}`)
  } catch {
    throw new ConfigError(url ? 'REDIS_URL' : 'REDIS_HOST', 'does not make a Redis URL')
  }
  if (username) composed.username = username
  if (password) composed.password = password
  if (port) composed.port = port
  if (secure && parseBoolean('REDIS_SECURE', secure)) composed.protocol = 'rediss:'
  return composed.toString()
}

function optionFor(variable: string): EdgeOption {
  return EDGE_OPTIONS.find((option) => option.variable === variable)!
}
