// A real Unleash OSS server for comparison tests: the pinned unleash-server 8.2 run by its pinned
// Node 22 (unleash-install.ts) on 127.0.0.1 and a free port (unleash-process.ts), against a
// throwaway PostgreSQL (unleash-postgres.ts), set up through its admin API (unleash-admin.ts).
// Under CI a missing install is a failure, never a skip (`.ci/run` installs it).
import { freePort } from './ports.ts'
import { rawRequest, type RawResponse, type RequestOptions } from './raw-request.ts'
import { createUnleashAdmin, type TokenType, type UnleashAdmin } from './unleash-admin.ts'
import { unleashServerInstall, unleashServerMissing } from './unleash-install.ts'
import { launchUnleash } from './unleash-process.ts'
import { startPostgres } from './unleash-postgres.ts'

export type { RawResponse, RequestOptions } from './raw-request.ts'
export type { StrategyInput, TokenType, UnleashAdmin } from './unleash-admin.ts'
export {
  UNLEASH_SERVER_INSTALL,
  UNLEASH_SERVER_VERSION,
  unleashServerAvailable,
  unleashServerInstall,
  unleashServerMissing,
} from './unleash-install.ts'

/**
 * What a real Unleash 8.2 answers to a CORS preflight of `/api/frontend` from any origin asking to
 * POST with `authorization,content-type`: the fixture's smoke test checks it against the real
 * server, and the proxy's tests hold Vexil to it.
 */
export const UNLEASH_FRONTEND_PREFLIGHT_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  vary: 'Origin, Access-Control-Request-Headers',
  'access-control-allow-origin': '*',
  'access-control-allow-credentials': 'true',
  'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
  'access-control-allow-headers': 'authorization,content-type',
  'access-control-max-age': '86400',
  'access-control-expose-headers': 'ETag',
})

export interface FrontendToggle {
  name: string
  enabled: boolean
  variant: {
    name: string
    enabled: boolean
    payload?: { type: string; value: string }
    feature_enabled?: boolean
    featureEnabled?: boolean
  }
  impressionData: boolean
}

export interface FrontendWaitOptions {
  /** Query string for `GET /api/frontend` (context), without the `?`. */
  query?: string
  timeoutMs?: number
}

export interface UnleashServer {
  /** `http://127.0.0.1:<port>` (the API is under `/api`, Edge routes under `/edge`). */
  url: string
  port: number
  /** The admin token the server was started with (`*:*.<secret>`). */
  adminToken: string
  /** A frontend token for `environment` and `projects` (default `['*']`), created once and reused. */
  frontendToken(environment?: string, projects?: string[]): Promise<string>
  /** A client (backend SDK) token, created once per scope and reused. */
  clientToken(environment?: string, projects?: string[]): Promise<string>
  admin: UnleashAdmin
  /** One HTTP request with exactly the given headers (plus Host and Connection), body bytes kept raw. */
  request(method: string, path: string, options?: RequestOptions): Promise<RawResponse>
  /**
   * Polls `GET /api/frontend` until `predicate` holds for its toggles: the server applies admin
   * changes to its frontend cache when its revision poller (1 s) sees them.
   */
  waitForFrontend(
    token: string,
    predicate: (toggles: FrontendToggle[]) => boolean,
    options?: FrontendWaitOptions,
  ): Promise<void>
  /** The server's log so far (stdout and stderr, last 64 KiB). */
  logs(): string
  stop(): Promise<void>
}

export interface UnleashServerOptions {
  /** Admin token created at startup (`INIT_ADMIN_API_TOKENS`); must be `*:*.<secret>`. */
  adminToken?: string
  /** Client tokens created at startup (`INIT_BACKEND_API_TOKENS`), e.g. `*:development.<secret>`. */
  clientTokens?: string[]
  /** Frontend tokens created at startup (`INIT_FRONTEND_API_TOKENS`). */
  frontendTokens?: string[]
  /** Extra environment for the server (e.g. `UNLEASH_FRONTEND_API_ORIGINS`). */
  env?: Record<string, string>
  /** Unleash log level (default `warn`). */
  logLevel?: 'debug' | 'info' | 'warn' | 'error'
}

/**
 * Starts PostgreSQL and Unleash and resolves once `/health` answers 200. Tokens given in
 * `options` exist from the start; more can be created through `admin.createToken`,
 * `frontendToken` and `clientToken`.
 */
export async function startUnleashServer(options: UnleashServerOptions = {}): Promise<UnleashServer> {
  const install = unleashServerInstall()
  if (!install) throw new Error(unleashServerMissing())
  const adminToken = options.adminToken ?? '*:*.vexil-unleash-admin-token'
  const env: Record<string, string> = {
    // Lets `admin.setVariants` write flag (environment) variants, which 8.2 otherwise refuses
    // for flags that have none yet ("Environment variants deprecated … use strategy variants").
    UNLEASH_EXPERIMENTAL_ENABLE_LEGACY_VARIANTS: 'true',
    INIT_ADMIN_API_TOKENS: adminToken,
    ...(options.clientTokens?.length ? { INIT_BACKEND_API_TOKENS: options.clientTokens.join(',') } : {}),
    ...(options.frontendTokens?.length ? { INIT_FRONTEND_API_TOKENS: options.frontendTokens.join(',') } : {}),
    ...options.env,
  }
  const postgres = await startPostgres()
  try {
    let lastError: unknown
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = await freePort()
      try {
        const server = await launchUnleash(install, { port, postgres, env, logLevel: options.logLevel ?? 'warn' })
        let stopped: Promise<void> | undefined
        return describeServer(
          port,
          adminToken,
          server.logs,
          () => (stopped ??= server.stop().finally(() => postgres.stop())),
        )
      } catch (error) {
        lastError = error
        if (!/EADDRINUSE/.test((error as Error).message)) break
      }
    }
    throw lastError
  } catch (error) {
    await postgres.stop()
    throw error
  }
}

function describeServer(
  port: number,
  adminToken: string,
  logs: () => string,
  stop: () => Promise<void>,
): UnleashServer {
  const url = `http://127.0.0.1:${port}`
  const request = (method: string, path: string, options?: RequestOptions) => rawRequest(url, method, path, options)
  const admin = createUnleashAdmin(request, adminToken)
  const tokens = new Map<string, Promise<string>>()
  const reusable =
    (type: TokenType) =>
    (environment = 'development', projects: string[] = ['*']) => {
      const key = `${type} ${environment} ${[...projects].sort().join(',')}`
      let token = tokens.get(key)
      if (!token) {
        token = admin.createToken(type, environment, projects)
        token.catch(() => tokens.delete(key))
        tokens.set(key, token)
      }
      return token
    }
  return {
    url,
    port,
    adminToken,
    frontendToken: reusable('frontend'),
    clientToken: reusable('client'),
    admin,
    request,
    async waitForFrontend(token, predicate, { query = '', timeoutMs = 10_000 } = {}) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const response = await request('GET', `/api/frontend${query ? `?${query}` : ''}`, {
          headers: { authorization: token },
        })
        const toggles = (response.json as { toggles?: unknown } | undefined)?.toggles
        if (response.status === 200 && Array.isArray(toggles) && predicate(toggles)) return
        if (Date.now() > deadline) {
          throw new Error(
            `Unleash /api/frontend did not reach the expected state within ${timeoutMs} ms; last answer: ${response.status} ${response.text.slice(0, 2000)}`,
          )
        }
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    },
    logs,
    stop,
  }
}
