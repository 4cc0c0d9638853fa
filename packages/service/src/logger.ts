// The service logs through @vexil/server-kit's logger, the one the proxy uses too: text lines
// `[vexil-service] message args`, the service's secrets replaced by `***`.
import { createLogger, type Logger, type LogLevel, redactingLogger } from '@vexil/server-kit'
import type { ServiceConfig } from './config.js'

export { LOG_LEVELS, type Logger, type LogLevel, silentLogger } from '@vexil/server-kit'

/** A logger writing the service's lines from `level` up: debug and info to stdout, the rest to stderr. */
export function createConsoleLogger(level: LogLevel = 'info', secrets: readonly string[] = []): Logger {
  return createLogger({ level, label: () => '[vexil-service] ', secrets })
}

/** The logger a service runs with: the caller's with the secrets redacted, else the service's own lines. */
export function serviceLogger(config: ServiceConfig, given?: Logger): Logger {
  const secrets = serviceSecrets(config)
  return given ? redactingLogger(given, secrets) : createConsoleLogger(config.logLevel, secrets)
}

// --- Internal helpers ---

/** What no log line may show: the INIT_* tokens' secrets and the database password. */
function serviceSecrets(config: ServiceConfig): string[] {
  const tokens = [...config.initAdminTokens, ...config.initClientTokens].map((token) => token.secret)
  return [...tokens, ...databasePassword(config.databaseUrl)]
}

function databasePassword(databaseUrl: string | undefined): string[] {
  if (!databaseUrl) return []
  try {
    const { password } = new URL(databaseUrl)
    return password ? [password, decodeURIComponent(password)] : []
  } catch {
    return []
  }
}
