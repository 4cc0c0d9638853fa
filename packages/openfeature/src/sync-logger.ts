// The sync stack's log lines through OpenFeature's logger, each named as the provider's.
import type { Logger } from '@openfeature/server-sdk'
import type { SyncLogger } from '@vexil/sync'
import { messageOf } from './sync/sync-target.js'

export function providerLogger(logger: Logger): SyncLogger {
  const line = (message: string, error: unknown) => `VexilProvider: ${message}${error === undefined ? '' : ` (${messageOf(error)})`}`
  return {
    info: (message) => logger.info(`VexilProvider: ${message}`),
    warn: (message, error) => logger.warn(line(message, error)),
    error: (message, error) => logger.error(line(message, error)),
  }
}
