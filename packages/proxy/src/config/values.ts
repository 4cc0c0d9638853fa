// Parsers for configuration values. Every one either returns a typed value or throws a
// ConfigError naming the variable: the old proxy silently turned garbage into NaN (and then
// never fetched) or `false`; Vexil refuses to start with a one-line reason instead.
import ipaddr from 'ipaddr.js'

export class ConfigError extends Error {
  override name = 'ConfigError'
  readonly code = 'INVALID_CONFIGURATION'
  constructor(
    /** The environment variable (or option) at fault. */
    readonly variable: string,
    readonly problem: string,
  ) {
    super(`${variable} ${problem}`)
  }
}

/** The old proxy's list format: comma-separated, whitespace around entries trimmed, empties dropped. */
export function parseList(text: string): string[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
}

export function parseInteger(variable: string, text: string, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number {
  const trimmed = text.trim()
  if (!/^-?\d+$/.test(trimmed)) throw new ConfigError(variable, `must be a whole number, got "${text}"`)
  const value = Number(trimmed)
  if (value < min || value > max) throw new ConfigError(variable, `must be between ${min} and ${max}, got ${value}`)
  return value
}

const TRUE = new Set(['true', '1', 't', 'yes', 'y', 'on'])
const FALSE = new Set(['false', '0', 'f', 'no', 'n', 'off'])

export function parseBoolean(variable: string, text: string): boolean {
  const value = text.trim().toLowerCase()
  if (TRUE.has(value)) return true
  if (FALSE.has(value)) return false
  throw new ConfigError(variable, `must be true or false, got "${text}"`)
}

export function parseUrl(variable: string, text: string): string {
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    throw new ConfigError(variable, `must be an http(s) URL, got "${text}"`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(variable, `must be an http(s) URL, got "${text}"`)
  return url.toString()
}

/** Named ranges Express's `trust proxy` understands (kept for drop-in compatibility). */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
}

/** An IP, a CIDR range or a named range (loopback, linklocal, uniquelocal). */
export function parseTrustedAddress(variable: string, entry: string): string[] {
  const named = NAMED_RANGES[entry.toLowerCase()]
  if (named) return named
  try {
    if (entry.includes('/')) ipaddr.parseCIDR(entry)
    else ipaddr.parse(entry)
  } catch {
    throw new ConfigError(
      variable,
      `must be true, false, or a comma-separated list of IP addresses or CIDR ranges; "${entry}" is neither`,
    )
  }
  return [entry]
}
