// What the sync stack logs through: the proxy's logger fits it as it is, the OpenFeature
// provider adapts OpenFeature's.

export interface SyncLogger {
  info(message: string): void
  warn(message: string, error?: unknown): void
  error(message: string, error?: unknown): void
}
