// The one logger of both servers (`vexil start` runs them in one process): levels, text lines or
// one-line JSON, and secrets (tokens, client keys, authorization values, passwords) replaced by
// `***` in every line. Error objects keep their message and stack in JSON.

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'fatal'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export interface Logger {
  debug(message: unknown, ...args: unknown[]): void
  info(message: unknown, ...args: unknown[]): void
  warn(message: unknown, ...args: unknown[]): void
  error(message: unknown, ...args: unknown[]): void
  fatal(message: unknown, ...args: unknown[]): void
}

export interface LoggerOptions {
  /** The lowest level written. */
  level: LogLevel
  /** One JSON object per line (`{ level, time, message, args }`) instead of text. */
  json?: boolean
  /** What starts a text line; default the old proxy's SimpleLogger form, `LEVEL: `. */
  label?: (level: LogLevel) => string
  /** Values that must never appear in a log line. */
  secrets?: readonly string[]
  /** Where lines go (default: stdout for debug/info, stderr from warn up). */
  write?: (line: string, level: LogLevel) => void
}

export function createLogger(options: LoggerOptions): Logger {
  const threshold = LOG_LEVELS.indexOf(options.level)
  const redact = redactor(options.secrets ?? [])
  const write = options.write ?? defaultWrite
  const label = options.label ?? levelLabel
  const log =
    (level: LogLevel) =>
    (message: unknown, ...args: unknown[]) => {
      if (LOG_LEVELS.indexOf(level) < threshold) return
      const line = options.json
        ? jsonLine(level, message, args)
        : `${label(level)}${textOf(message)}${args.length > 0 ? ` ${args.map(textOf).join(' ')}` : ''}`
      write(redact(line), level)
    }
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error'), fatal: log('fatal') }
}

/** Wraps a caller's logger so secrets are redacted from string arguments too. */
export function redactingLogger(logger: Logger, secrets: readonly string[]): Logger {
  if (usable(secrets).length === 0) return logger
  const redact = redactor(secrets)
  const clean = (value: unknown): unknown => (typeof value === 'string' ? redact(value) : value)
  const wrap =
    (fn: Logger[keyof Logger]) =>
    (message: unknown, ...args: unknown[]) =>
      fn(clean(message), ...args.map(clean))
  return {
    debug: wrap(logger.debug.bind(logger)),
    info: wrap(logger.info.bind(logger)),
    warn: wrap(logger.warn.bind(logger)),
    error: wrap(logger.error.bind(logger)),
    fatal: wrap(logger.fatal.bind(logger)),
  }
}

/** A logger that writes nothing (tests, benchmarks). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, fatal() {} }

// --- Internal helpers ---

/** Shorter values would blank out ordinary words. */
const usable = (secrets: readonly string[]) => secrets.filter((secret) => secret.length >= 4)

function redactor(secrets: readonly string[]): (text: string) => string {
  const kept = usable(secrets)
  return (text) => {
    for (const secret of kept) if (text.includes(secret)) text = text.split(secret).join('***')
    return text
  }
}

const levelLabel = (level: LogLevel) => `${level.toUpperCase()}: `

function jsonLine(level: LogLevel, message: unknown, args: unknown[]): string {
  try {
    return JSON.stringify({
      level,
      time: new Date().toISOString(),
      message: serializable(message),
      args: args.map(serializable),
    })
  } catch {
    return JSON.stringify({ level, time: new Date().toISOString(), message: textOf(message), args: args.map(textOf) })
  }
}

/** Error objects as JSON: message, stack and own fields (a plain `JSON.stringify` loses them). */
function serializable(value: unknown): unknown {
  if (value instanceof Error) {
    const own = Object.fromEntries(Object.entries(value))
    return {
      ...own,
      name: value.name,
      message: value.message,
      stack: value.stack,
      ...(value.cause ? { cause: serializable(value.cause) } : {}),
    }
  }
  return value
}

function textOf(value: unknown): string {
  if (value instanceof Error) return value.stack ?? `${value.name}: ${value.message}`
  if (typeof value === 'string') return value
  try {
    return JSON.stringify(value)
  } catch {
    return String(value)
  }
}

function defaultWrite(line: string, level: LogLevel): void {
  if (level === 'debug' || level === 'info') process.stdout.write(`${line}\n`)
  else process.stderr.write(`${line}\n`)
}
