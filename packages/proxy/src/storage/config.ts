import { createFileStorage } from './file.js'
import { createMemoryStorage } from './memory.js'
import { createRedisStorage, redisUrlProblem } from './redis.js'
import { StorageError } from './storage-error.js'
import type { StorageProvider } from './types.js'

const PROVIDERS = ['file', 'memory', 'redis'] as const
export type StorageProviderName = (typeof PROVIDERS)[number]

/**
 * The storage part of the proxy config, one field per environment variable. An empty string
 * means unset, as for any environment variable.
 */
export interface StorageConfig {
  /** `STORAGE_PROVIDER`. @default 'file' (the old proxy's backup file) */
  provider?: StorageProviderName
  /** `STORAGE_FILE_DIRECTORY`, for `file`. @default ./.vexil/proxy (private, 0700) */
  fileDirectory?: string
  /** `REDIS_URL`, required for `redis`. */
  redisUrl?: string
  /** `REDIS_KEY_PREFIX`, for `redis`. @default 'vexil:proxy:backup:' */
  redisKeyPrefix?: string
}

/**
 * Every problem with `config`, each naming its environment variable, for the proxy's startup
 * error; `[]` when valid. Options of the providers not chosen are ignored.
 */
export function storageConfigProblems(config: StorageConfig): string[] {
  const provider = config.provider || 'file'
  if (!PROVIDERS.includes(provider))
    return [`STORAGE_PROVIDER must be one of ${PROVIDERS.join(', ')}, got ${JSON.stringify(provider)}`]
  if (provider !== 'redis') return []
  if (!config.redisUrl) return ['REDIS_URL is required when STORAGE_PROVIDER is redis']
  const problem = redisUrlProblem(config.redisUrl)
  return problem ? [`REDIS_URL ${problem}`] : []
}

/**
 * The provider `config` names. Throws `STORAGE_CONFIG_INVALID` listing every problem; never
 * connects or touches the disk (Redis connects on the first call).
 */
export function createStorageFromConfig(config: StorageConfig): StorageProvider {
  const problems = storageConfigProblems(config)
  if (problems.length > 0)
    throw new StorageError('STORAGE_CONFIG_INVALID', `Invalid storage configuration: ${problems.join('; ')}`)
  switch (config.provider || 'file') {
    case 'memory':
      return createMemoryStorage()
    case 'redis':
      return createRedisStorage({ url: config.redisUrl as string, keyPrefix: config.redisKeyPrefix || undefined })
    case 'file':
      return createFileStorage({ directory: config.fileDirectory || undefined })
  }
}
