export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

export interface Logger {
  debug(message: string, ...args: unknown[]): void
  info(message: string, ...args: unknown[]): void
  warn(message: string, ...args: unknown[]): void
  error(message: string, ...args: unknown[]): void
}

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 }

/** A console logger that drops messages below `level`. */
export function createConsoleLogger(level: LogLevel = 'info'): Logger {
  const at = (wanted: LogLevel, write: (...args: unknown[]) => void) =>
    ORDER[wanted] >= ORDER[level] ? (message: string, ...args: unknown[]) => write(`[vexil-service] ${message}`, ...args) : () => {}
  return {
    debug: at('debug', console.debug),
    info: at('info', console.info),
    warn: at('warn', console.warn),
    error: at('error', console.error),
  }
}

/** A logger that writes nothing (tests). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} }
