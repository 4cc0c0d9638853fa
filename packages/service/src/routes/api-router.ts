import { createRouter, type EventHandler, eventHandler, type H3Event } from 'h3'

/**
 * Who may call a route, declared with the route (auth.ts decides what each kind admits):
 * `public` anyone, `client` a client API token, `personal` a user's personal access token (the
 * caller's own tokens), `user` any user's personal token or an admin token, `admin` the ADMIN
 * permission, `signal` a token of the signal endpoint in the path.
 */
export const ACCESS_KINDS = ['public', 'client', 'personal', 'user', 'admin', 'signal'] as const
export type Access = (typeof ACCESS_KINDS)[number]

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
export type Method = (typeof METHODS)[number]

/** One row of the route table: what the authorization matrix test walks. */
export interface RouteSpec {
  method: Method
  path: string
  access: Access
}

type Handler = (event: H3Event) => unknown
type Register = (path: string, access: Access, handler: Handler) => void

/** Registers routes, each with its access; there is no way to add a route without one. */
export interface ApiRouter {
  get: Register
  post: Register
  put: Register
  patch: Register
  delete: Register
  /** Every route registered so far, in registration order. */
  readonly routes: readonly RouteSpec[]
}

/**
 * A router whose every handler first runs `authorize(event, access)` on the route h3 matched,
 * so the decision and the route can never disagree about the path. Throws at registration for
 * a missing or unknown access kind and for a method and path registered twice.
 */
export function createApiRouter(
  authorize: (event: H3Event, access: Access) => Promise<void>,
  /** Told of each route whose handler is about to run, its access check passed (tests, tracing). */
  onHandle?: (route: RouteSpec, event: H3Event) => void,
): { api: ApiRouter; handler: EventHandler } {
  const router = createRouter()
  const routes: RouteSpec[] = []
  const add = (method: Method) => (path: string, access: Access, handler: Handler) => {
    if (!(ACCESS_KINDS as readonly unknown[]).includes(access)) {
      throw new Error(
        `Route ${method} ${path} has no access declaration (one of ${ACCESS_KINDS.join(', ')}), got ${String(access)}`,
      )
    }
    if (typeof handler !== 'function') throw new Error(`Route ${method} ${path} has no handler`)
    if (routes.some((route) => route.method === method && route.path === path))
      throw new Error(`Route ${method} ${path} is registered twice`)
    const route: RouteSpec = { method, path, access }
    routes.push(route)
    router.add(
      path,
      eventHandler(async (event) => {
        await authorize(event, access)
        onHandle?.(route, event)
        return handler(event)
      }),
      method.toLowerCase() as Lowercase<Method>,
    )
  }
  const api: ApiRouter = {
    get: add('GET'),
    post: add('POST'),
    put: add('PUT'),
    patch: add('PATCH'),
    delete: add('DELETE'),
    routes,
  }
  // Every path matches something, so h3 never builds its own 404 for a miss: that error puts the
  // path in a status message and prints a console warning for each path holding characters a
  // status line cannot (a scanner could fill the log). A miss passes on, as before, to the admin
  // UI and then to the service's 404 (app.ts). Not a route: it decides nothing.
  router.use(
    '/**',
    eventHandler(() => undefined),
  )
  return { api, handler: router.handler }
}
