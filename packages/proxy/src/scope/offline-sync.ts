// Offline mode's ProxySync (Edge's `offline` command): the flags come from a file, not an
// upstream, and the routes serve over it unchanged. The file is the upstream: it is the one
// source every listed token's view is backed by, whatever the token's text says
// (docs/edge-compatibility.md, "Offline mode"). Nothing here opens a connection: no sync, no
// token validation, no usage reports (counts posted are kept, bounded by the flags, and dropped
// on stop).
import { readFileSync } from 'node:fs'
import type { Engine } from '@vexil/engine'
import type { ResponseCaches } from '../cache/response-cache.js'
import type { OfflineConfig } from '../config/offline.js'
import type { ProxyConfig } from '../config/types.js'
import { ConfigError } from '../config/values.js'
import type { Logger } from '../logger.js'
import { readTokenSecret, scopeKey, type TokenScope } from '../tokens/api-token.js'
import { createOfflineTokens } from '../tokens/offline-tokens.js'
import { createOfflineFeed } from './offline-feed.js'
import { type OfflineFlags, parseOfflineFlags } from './offline-file.js'
import { createScopeFlags, usageAggregatorFor } from './scope-flags.js'
import { createTokenScopes } from './token-scopes.js'
import type { ProxySync } from './upstream-sync.js'

interface OfflineSyncOptions {
  config: ProxyConfig
  offline: OfflineConfig
  logger: Logger
  newEngine: () => Engine
  responseCaches?: ResponseCaches
}

/** Reads the file now: a file that cannot be read or is not flags throws a ConfigError naming it. */
export function createOfflineSync(options: OfflineSyncOptions): ProxySync & { readonly scope: undefined } {
  const { config, offline, logger, newEngine, responseCaches } = options
  const path = offline.bootstrapFile
  const { text, flags: first } = readAtStart(path)
  // The environment the file says it is of (client features' query), else Unleash's default one.
  const scope: TokenScope = { environment: first.environment ?? 'default', projects: ['*'] }
  const flags = createScopeFlags({
    newEngine,
    responseCaches,
    logger,
    storage: undefined,
    storageKey: '',
    name: `the offline file ${path}`,
  })
  flags.offer({ payload: first.payload, source: 'bootstrap' })
  const usage = usageAggregatorFor(flags)
  const tokens = createOfflineTokens(offline, scope)
  const scopes = createTokenScopes({
    logger,
    newEngine,
    responseCaches,
    known: () => tokens.tokens(),
    createSync: () => {
      throw new Error('offline mode has no upstream to sync with')
    },
  })
  scopes.setStaticSource({ key: scopeKey(scope), scope, flags, usage })
  const feed = createOfflineFeed({
    path,
    flags,
    logger,
    intervalMs: offline.reloadIntervalMs,
    timers: config.timers,
    text,
  })
  warnAboutUnusable(logger, config, offline)

  return {
    scope: undefined,
    tokens,
    scopes,
    get lastFetch() {
      return feed.lastRead
    },
    get ready() {
      return flags.current !== undefined
    },
    staticReady: true,
    async start() {
      feed.start()
    },
    async close() {
      feed.stop()
      await scopes.close()
    },
  }
}

// --- Internal helpers ---

function readAtStart(path: string): { text: string; flags: OfflineFlags } {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new ConfigError('BOOTSTRAP_FILE', `(${path}) could not be read: ${(error as Error).message}`)
  }
  try {
    return { text, flags: parseOfflineFlags(text) }
  } catch (error) {
    throw new ConfigError('BOOTSTRAP_FILE', `(${path}) ${(error as Error).message}`)
  }
}

/** Settings offline mode does not use, and listed tokens no SDK can send, said once at start. */
function warnAboutUnusable(logger: Logger, config: ProxyConfig, offline: OfflineConfig): void {
  const ignored = [
    config.serviceUrl && 'SERVICE_URL/UPSTREAM_URL',
    config.serviceApiToken && 'SERVICE_API_TOKEN',
    config.tokens.length > 0 && 'TOKENS',
  ].filter(Boolean)
  if (ignored.length > 0) logger.warn(`Offline mode has no upstream: ${ignored.join(', ')} ignored`)
  const unreadable = [...offline.clientTokens, ...offline.frontendTokens].filter(
    (token) => readTokenSecret(token) !== token,
  )
  if (unreadable.length > 0) {
    logger.warn(
      `${unreadable.length} listed token(s) are not Unleash API tokens (<project>:<environment>.<secret>) and can never be accepted (Edge cannot read them either)`,
    )
  }
}
