// The proxy's routes as data (DESIGN.md, "Authorization"): each route declares its methods, its
// path, who may call it and whether it waits for flags, next to its handler. The table checks
// every declaration when the app is created, so a route without a valid access declaration
// cannot be registered; the dispatcher then checks access on the route the table matched,
// before its handler runs.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { H3Event } from 'h3'
import type { CorsHeaders } from '../http/cors.js'
import type { FlagSet } from '../scope/flag-set.js'
import { ACCESS_KINDS, type Access } from './access.js'

export { ACCESS_KINDS, type Access } from './access.js'

export const ROUTE_METHODS = ['GET', 'HEAD', 'POST'] as const
export type RouteMethod = (typeof ROUTE_METHODS)[number]

/** One request, as the dispatcher hands it to the handler of the route it matched. */
export interface RouteCall {
  event: H3Event
  req: IncomingMessage
  res: ServerResponse
  method: RouteMethod
  /** The raw query string (without `?`). */
  search: string
  cors: CorsHeaders
  /** The current flag set, read once as the request was routed: the whole request answers from it. Defined for every route that waits for flags. */
  flags: FlagSet | undefined
}

/** Answers the request itself, or returns a value for h3 to send. */
export type RouteHandler = (call: RouteCall) => unknown

/** A request that succeeds for a permitted caller: documentation, and the authorization matrix's probe. */
export interface RouteExample {
  /** 2xx or 3xx. */
  status: number
  /** Path (under PROXY_BASE_PATH) and query to call, when not the route's own path. */
  path?: string
  /** JSON body, for POST. */
  body?: string
}

export interface RouteDeclaration {
  methods: readonly RouteMethod[]
  /** Lower case, under PROXY_BASE_PATH, without a trailing slash: routing folds case and drops one slash. */
  path: string
  /** Also answers every path below `path/` (the docs and their files). */
  prefix?: boolean
  access: Access
  /** Answers 503 until the proxy has flags (checked before the key, as the old proxy did). */
  waitsForFlags: boolean
  /** Writes its own CORS headers (the evaluation routes send every header in one writeHead). */
  ownCors?: boolean
  example: RouteExample
  handle: RouteHandler
}

/** What tests and tools may know of a route: one entry per method. */
export interface RouteDescription {
  method: RouteMethod
  path: string
  prefix: boolean
  access: Access
  waitsForFlags: boolean
  example: RouteExample
}

export type RouteInstrument = (route: Omit<RouteDeclaration, 'handle'>, handle: RouteHandler) => RouteHandler

export interface RouteTable {
  /** The route for a routed path (see routePath), or undefined. Exact paths are one Map lookup. */
  match(method: string, path: string): RouteDeclaration | undefined
  readonly routes: readonly RouteDescription[]
}

export class RouteDeclarationError extends Error {
  override name = 'RouteDeclarationError'
}

/**
 * Checks every declaration (throwing `RouteDeclarationError` naming the route) and indexes them:
 * a Map from path to a Map from method to route, and a short list of prefix routes consulted
 * only when no exact path matches. `instrument` wraps each handler once (tests spy with it).
 */
export function createRouteTable(declarations: readonly RouteDeclaration[], instrument?: RouteInstrument): RouteTable {
  const exact = new Map<string, Map<string, RouteDeclaration>>()
  const prefixes: Array<{ route: RouteDeclaration; below: string; byMethod: Map<string, RouteDeclaration> }> = []
  const routes: RouteDescription[] = []
  for (const declared of declarations) {
    checkDeclaration(declared)
    const route: RouteDeclaration = instrument ? { ...declared, handle: instrument(withoutHandle(declared), declared.handle) } : declared
    let byMethod = route.prefix ? prefixes.find((p) => p.route.path === route.path)?.byMethod : exact.get(route.path)
    if (!byMethod) {
      byMethod = new Map()
      if (route.prefix) prefixes.push({ route, below: `${route.path}/`, byMethod })
      else exact.set(route.path, byMethod)
    }
    for (const method of route.methods) {
      if (byMethod.has(method)) throw new RouteDeclarationError(`Route ${method} ${route.path} is declared twice`)
      byMethod.set(method, route)
      routes.push({ method, path: route.path, prefix: route.prefix === true, access: route.access, waitsForFlags: route.waitsForFlags, example: route.example })
    }
  }
  return {
    match(method, path) {
      const byMethod = exact.get(path)
      if (byMethod) return byMethod.get(method)
      for (const prefix of prefixes) if (path === prefix.route.path || path.startsWith(prefix.below)) return prefix.byMethod.get(method)
      return undefined
    },
    routes,
  }
}

// --- Internal helpers ---

function withoutHandle(route: RouteDeclaration): Omit<RouteDeclaration, 'handle'> {
  const { handle: _handle, ...rest } = route
  return rest
}

/** Declarations come from code, but a cast or plain JavaScript can still leave a field out. */
function checkDeclaration(route: RouteDeclaration): void {
  const methods: unknown = route.methods
  const name = `${Array.isArray(methods) ? methods.join(',') : '?'} ${String(route.path)}`
  const fail = (problem: string) => {
    throw new RouteDeclarationError(`Route ${name}: ${problem}`)
  }
  if (!Array.isArray(methods) || methods.length === 0 || !methods.every((m) => (ROUTE_METHODS as readonly unknown[]).includes(m))) {
    fail(`methods must be a non-empty list of ${ROUTE_METHODS.join(', ')}`)
  }
  if (typeof route.path !== 'string' || !/^\/[^A-Z]*$/.test(route.path) || (route.path.length > 1 && route.path.endsWith('/'))) {
    fail('path must start with "/", be lower case and have no trailing slash')
  }
  if (!(ACCESS_KINDS as readonly unknown[]).includes(route.access)) {
    fail(`access must be one of ${ACCESS_KINDS.join(', ')}, got ${JSON.stringify(route.access)}`)
  }
  if (typeof route.waitsForFlags !== 'boolean') fail('waitsForFlags must be declared (true or false)')
  if (typeof route.handle !== 'function') fail('handle must be a function')
  const example: unknown = route.example
  if (typeof example !== 'object' || example === null || !Number.isInteger(route.example.status) || route.example.status < 200 || route.example.status > 399) {
    fail('example must describe a request that succeeds ({ status: 2xx or 3xx, path?, body? })')
  }
}
