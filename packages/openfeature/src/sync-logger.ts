// The sync stack's warnings and errors through OpenFeature's logger, each named as the provider's.
import type { Logger } from '@openfeature/server-sdk'
import { messageOf, type SyncLogger } from '@vexil/sync'

export function providerLogger(logger: Logger): SyncLogger {
  const line = (message: string, error: unknown) =>
    `VexilProvider: ${message}${error === undefined ? '' : ` (${messageOf(error)})`}`
  return {
    // The provider logs errors and warnings only (README, `logger`).
    info: () => undefined,
    warn: (message, error) => logger.warn(line(message, error)),
    error: (message, error) => logger.error(line(message, error)),
  }
}
