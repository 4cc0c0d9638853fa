import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { toNodeListener } from 'h3'
import { createServiceAppWithRoutes } from '../../src/app.js'
import type { RouteSpec } from '../../src/routes/api-router.js'
import { parseServiceConfig } from '../../src/config.js'
import type { Clock } from '../../src/service-context.js'
import type { Database } from '../../src/db/database.js'
import { migrate } from '../../src/db/migrate.js'
import { createPgliteDatabase } from '../../src/db/pglite.js'
import { silentLogger } from '../../src/logger.js'
import { type ActionRunner, createActionRunner } from '../../src/actions/runner.js'
import { insertApiToken } from '../../src/store/api-tokens.js'
import { newApiTokenSecret } from '../../src/token-secrets.js'

export interface ApiResponse<T = any> {
  status: number
  body: T
  headers: Headers
}

export interface TestService {
  url: string
  db: Database
  /** An admin API token. */
  admin: string
  /** Every API route with its declared access (the route table). */
  routes: readonly RouteSpec[]
  /** The action runner behind the app (signals → actions), unless the test turned it off. */
  actionRunner: ActionRunner | undefined
  /** Makes a client token for the environment and projects. */
  clientToken(environment?: string, projects?: string[]): Promise<string>
  /** Calls the service; the admin token unless `token` is given (`null` = no header). */
  api<T = any>(
    method: string,
    path: string,
    options?: { body?: unknown; token?: string | null; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>
  close(): Promise<void>
}

export interface TestServiceOptions {
  db?: Database
  clock?: Clock
  userSeenThrottleMs?: number
  /** Environment variables the config is parsed from (limits); default none. */
  env?: NodeJS.ProcessEnv
  /** The action runner's sweep interval, or `false` for no runner. Default: the config's. */
  actionRunner?: false | { sweepIntervalMs?: number }
  /** The built admin UI folder to serve (default: the package's dist/ui). */
  uiDir?: string
  /** Told of each API route whose handler runs (after its access check). */
  onRouteHandled?: (route: RouteSpec) => void
}

/**
 * The service on a real listening server (127.0.0.1, a free port) over a migrated database:
 * an in-memory PGlite unless `db` is given.
 */
export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const db = options.db ?? (await createPgliteDatabase())
  await migrate(db)
  const clock = options.clock ?? (() => new Date())
  const config = parseServiceConfig(options.env ?? {}, {
    port: 0,
    host: '127.0.0.1',
    userSeenThrottleMs: options.userSeenThrottleMs ?? 60_000,
  })
  const actionRunner =
    options.actionRunner === false
      ? undefined
      : createActionRunner({
          db,
          logger: silentLogger,
          clock,
          sweepIntervalMs: options.actionRunner?.sweepIntervalMs ?? config.signals.sweepIntervalMs,
        })
  const { app, routes, streams } = createServiceAppWithRoutes({
    db,
    config,
    logger: silentLogger,
    clock,
    ...(actionRunner ? { actionRunner } : {}),
    ...(options.uiDir ? { uiDir: options.uiDir } : {}),
    ...(options.onRouteHandled ? { onRouteHandled: options.onRouteHandled } : {}),
  })
  const server = createServer(toNodeListener(app))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const admin = newApiTokenSecret('*', '*')
  await insertApiToken(
    db,
    { secret: admin, tokenName: 'test-admin', type: 'admin', environment: '*', projects: ['*'] },
    clock(),
  )

  const api: TestService['api'] = async (method, path, { body, token, headers = {} } = {}) => {
    const auth = token === undefined ? admin : token
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        ...(auth !== null ? { authorization: auth } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    })
    const text = await response.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      // Not JSON: keep the text.
    }
    return { status: response.status, body: parsed as never, headers: response.headers }
  }

  return {
    url,
    db,
    admin,
    routes,
    api,
    actionRunner,
    async clientToken(environment = 'development', projects = ['*']) {
      const secret = newApiTokenSecret(projects.length === 1 ? (projects[0] as string) : '[]', environment)
      await insertApiToken(db, { secret, tokenName: 'test-client', type: 'client', environment, projects }, clock())
      return secret
    },
    async close() {
      await streams.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await actionRunner?.close()
      if (!options.db) await db.close()
    },
  }
}

/** Creates a flag in a project through the admin API and returns its name. */
export async function createFlag(
  service: TestService,
  project: string,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const response = await service.api('POST', `/api/admin/projects/${project}/features`, { body: { name, ...extra } })
  if (response.status !== 201) throw new Error(`creating ${name}: ${response.status} ${JSON.stringify(response.body)}`)
  return name
}
