// Which token callers SERVICE_API_TOKEN's flags (the static scope) may also serve: the scope the
// upstream gives that token in its answer to POST /edge/validate, never the token's text
// (environment names may contain dots, so `*:production.eu.<secret>` names production.eu, and
// `[]` tokens name no project at all). Asked at start and every TOKEN_REVALIDATION_INTERVAL;
// until the upstream has answered, or when it does not list the token as a client token (an
// upstream without /edge/validate, a revoked token), the static scope serves /proxy only and
// token callers are served from their own syncs. A failed call changes nothing: a scope once
// validated stays until the upstream says otherwise or refuses the static scope's fetch.
import type { ProxyConfig } from '../config/types.js'
import type { Logger } from '../logger.js'
import type { Upstream } from '../upstream/upstream.js'
import { type KnownToken, normalizeProjects, readTokenSecret, scopeKey, type TokenScope } from '../tokens/api-token.js'
import { readValidatedTokens } from '../tokens/validate-upstream.js'
import type { TimerHandle } from '@vexil/sync'

interface StaticScopeSourceOptions {
  config: ProxyConfig
  logger: Logger
  /** Sends POST /edge/validate. */
  upstream: Upstream
  /** The scope changed: now `scope`, or (undefined) none. */
  onChange: (scope: TokenScope | undefined) => void
}

interface StaticScopeSource {
  /** The validated scope; undefined while unknown or refused. */
  readonly scope: TokenScope | undefined
  /** Asks the upstream once, then every revalidation interval; resolves after the first answer or failure. */
  start(): Promise<void>
  /** The upstream refused the static scope's fetch (401/403): no token caller is served from it until validated again. */
  refused(): void
  stop(): void
}

export function createStaticScopeSource(options: StaticScopeSourceOptions): StaticScopeSource {
  const { config, logger, upstream } = options
  const secret = readTokenSecret(config.serviceApiToken)
  // A filtered fetch (PROJECT_NAME, NAME_PREFIX, TAGS, ENVIRONMENT) is narrower than the token's scope.
  const narrowed = Boolean(config.projectName || config.namePrefix || config.tags.length > 0 || config.environment)
  let scope: TokenScope | undefined
  let timer: TimerHandle | undefined
  let stopped = false

  function set(next: TokenScope | undefined, why: string): void {
    if ((next && scopeKey(next)) === (scope && scopeKey(scope))) return
    const had = scope
    scope = next
    if (next)
      logger.info(
        `SERVICE_API_TOKEN is a client token of environment "${next.environment}" (projects ${next.projects.join(', ')}): its flags also serve that scope's tokens`,
      )
    else if (had)
      logger.warn(
        `SERVICE_API_TOKEN's flags no longer serve the tokens of environment "${had.environment}" (${why}); they keep serving /proxy`,
      )
    options.onChange(next)
  }

  async function check(): Promise<void> {
    if (!secret) return
    let listed: KnownToken | undefined
    try {
      listed = readValidatedTokens(await upstream.validateTokens([secret])).find((token) => token.secret === secret)
    } catch (error) {
      logger.debug(
        `SERVICE_API_TOKEN's scope could not be checked with the upstream: ${error instanceof Error ? error.message : String(error)}`,
      )
      return
    }
    if (listed?.type === 'client')
      return set({ environment: listed.environment, projects: normalizeProjects(listed.projects) }, '')
    if (!scope)
      logger.info('The upstream does not list SERVICE_API_TOKEN as a client token: its flags serve /proxy only')
    set(undefined, 'the upstream no longer lists SERVICE_API_TOKEN as a client token')
  }

  function schedule(): void {
    if (stopped || config.tokenRevalidateMs <= 0) return
    timer = config.timers.set(() => check().finally(schedule), config.tokenRevalidateMs, false)
  }

  return {
    get scope() {
      return scope
    },
    async start() {
      if (!secret || narrowed) return
      await check()
      schedule()
    },
    refused() {
      set(undefined, 'the upstream refused its fetch')
    },
    stop() {
      stopped = true
      if (timer) config.timers.clear(timer)
    },
  }
}
