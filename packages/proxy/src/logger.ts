// Loggers: the old proxy's SimpleLogger text lines (`LEVEL: message args`) and one-line JSON.
// Improvements over the old proxy: error objects keep their message and stack in JSON, and
// secrets (the upstream token, client keys) are replaced by `***` in every line.

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
  level: LogLevel
  json: boolean
  /** Values that must never appear in a log line. */
  secrets?: readonly string[]
  /** Where lines go (default: stdout for debug/info, stderr from warn up). */
  write?: (line: string, level: LogLevel) => void
}

/** Error objects as JSON: message, stack and own fields (a plain `JSON.stringify` loses them). */
function serializable(value: unknown): unknown {
  if (value instanceof Error) {
    const own = Object.fromEntries(Object.entries(value))
    return { ...own, name: value.name, message: value.message, stack: value.stack, ...(value.cause ? { cause: serializable(value.cause) } : {}) }
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

const defaultWrite = (line: string, level: LogLevel) => {
  if (level === 'debug' || level === 'info') process.stdout.write(`${line}\n`)
  else process.stderr.write(`${line}\n`)
}

export function createLogger(options: LoggerOptions): Logger {
  const threshold = LOG_LEVELS.indexOf(options.level)
  const secrets = (options.secrets ?? []).filter((secret) => secret.length >= 4)
  const write = options.write ?? defaultWrite
  const redact = (line: string): string => {
    for (const secret of secrets) if (line.includes(secret)) line = line.split(secret).join('***')
    return line
  }
  const log = (level: LogLevel) => (message: unknown, ...args: unknown[]) => {
    if (LOG_LEVELS.indexOf(level) < threshold) return
    let line: string
    if (options.json) {
      let json: string
      try {
        json = JSON.stringify({ level, time: new Date().toISOString(), message: serializable(message), args: args.map(serializable) })
      } catch {
        json = JSON.stringify({ level, time: new Date().toISOString(), message: textOf(message), args: args.map(textOf) })
      }
      line = json
    } else {
      line = `${level.toUpperCase()}: ${textOf(message)}${args.length > 0 ? ` ${args.map(textOf).join(' ')}` : ''}`
    }
    write(redact(line), level)
  }
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error'), fatal: log('fatal') }
}

/** Wraps a custom logger so secrets are redacted from string arguments too. */
export function redactingLogger(logger: Logger, secrets: readonly string[]): Logger {
  const usable = secrets.filter((secret) => secret.length >= 4)
  if (usable.length === 0) return logger
  const clean = (value: unknown): unknown => {
    if (typeof value !== 'string') return value
    let text = value
    for (const secret of usable) if (text.includes(secret)) text = text.split(secret).join('***')
    return text
  }
  const wrap = (fn: Logger[keyof Logger]) => (message: unknown, ...args: unknown[]) => fn(clean(message), ...args.map(clean))
  return {
    debug: wrap(logger.debug.bind(logger)),
    info: wrap(logger.info.bind(logger)),
    warn: wrap(logger.warn.bind(logger)),
    error: wrap(logger.error.bind(logger)),
    fatal: wrap(logger.fatal.bind(logger)),
  }
}
