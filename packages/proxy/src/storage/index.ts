// Where the proxy keeps its last good configuration: three providers behind one interface
// (STYLE 8), the factory the proxy config calls, and a reader that never throws.
export type { StorageProvider } from './types.js'
export { isStorageError, StorageError, type StorageErrorCode } from './storage-error.js'

export { createMemoryStorage } from './memory.js'
export { createFileStorage, type FileStorage, type FileStorageOptions } from './file.js'
export { backupFileName } from './file-name.js'
export { createRedisStorage, DEFAULT_REDIS_KEY_PREFIX, type RedisStorageOptions } from './redis.js'

export {
  createStorageFromConfig,
  type StorageConfig,
  storageConfigProblems,
  type StorageProviderName,
} from './config.js'
export { type BackupRead, readBackup } from './read-backup.js'
