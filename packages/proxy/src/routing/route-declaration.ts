// The proxy's routes as data (docs/architecture.md, "Authorization"): each route declares its methods, its
// path, who may call it and whether it waits for flags, next to its handler. Every declaration
// is checked when the app is created (routing/router.ts registers it on h3's router only then),
// so a route without a valid access declaration cannot be registered.
import type { H3Event } from 'h3'
import type { ErrorShape } from '../http/errors.js'
import type {} from '../answers/request-state.js'
import { ACCESS_KINDS, type Access } from './access.js'

export { ACCESS_KINDS } from './access.js'

const ROUTE_METHODS = ['GET', 'HEAD', 'POST'] as const
export type RouteMethod = (typeof ROUTE_METHODS)[number]

/** Whose CORS headers a route's answers, errors and preflights carry: the old proxy's, Unleash 8.2's frontend API's, OFREP's, or none. */
export type CorsPolicy = 'proxy' | 'frontend' | 'ofrep' | 'none'
export type { ErrorShape } from '../http/errors.js'

/**
 * Answers the request itself, or returns a value for h3 to send. What the router decided is on
 * `event.context` (answers/request-state.ts); Node's request and response are `event.node`.
 */
export type RouteHandler = (event: H3Event) => unknown

/** A request that succeeds for a permitted caller: documentation, and the authorization matrix's probe. */
export interface RouteExample {
  /** 2xx or 3xx. */
  status: number
  /** Path (under PROXY_BASE_PATH) and query to call, when not the route's own path. */
  path?: string
  /** JSON body, for POST. */
  body?: string
  /** The status before the proxy has flags, when the route answers without waiting but not as `status` (readiness). */
  statusBeforeReady?: number
}

export interface RouteDeclaration {
  methods: readonly RouteMethod[]
  /** Lower case, under PROXY_BASE_PATH, without a trailing slash: routing folds case and drops one slash. */
  path: string
  /** Also answers every path below `path/` (the docs and their files); `'below'`: only those (`/features/<name>`). */
  prefix?: boolean | 'below'
  access: Access
  /** Answers 503 until the proxy has flags (checked before the key, as the old proxy did). */
  waitsForFlags: boolean
  /** Writes its own CORS headers (the evaluation routes send every header in one writeHead). */
  ownCors?: boolean
  /** Whose CORS headers (default: the old proxy's): the only place a route's CORS is decided. */
  cors?: CorsPolicy
  /** The shape of its error bodies (default `proxy`; http/errors.ts renders each). */
  errors?: ErrorShape
  example: RouteExample
  handle: RouteHandler
}

/** What tests and tools may know of a route: one entry per method. */
export interface RouteDescription {
  method: RouteMethod
  path: string
  prefix: boolean | 'below'
  access: Access
  waitsForFlags: boolean
  example: RouteExample
}

export type RouteInstrument = (route: Omit<RouteDeclaration, 'handle'>, handle: RouteHandler) => RouteHandler

export class RouteDeclarationError extends Error {
  override name = 'RouteDeclarationError'
}

/** Throws `RouteDeclarationError` naming the route when a declaration is incomplete or invalid. */
export function checkDeclaration(route: RouteDeclaration): void {
  const methods: unknown = route.methods
  const name = `${Array.isArray(methods) ? methods.join(',') : '?'} ${String(route.path)}`
  const fail = (problem: string) => {
    throw new RouteDeclarationError(`Route ${name}: ${problem}`)
  }
  if (
    !Array.isArray(methods) ||
    methods.length === 0 ||
    !methods.every((m) => (ROUTE_METHODS as readonly unknown[]).includes(m))
  ) {
    fail(`methods must be a non-empty list of ${ROUTE_METHODS.join(', ')}`)
  }
  // Literal segments only: h3's router would read ":name" and "*" as parameters.
  if (
    typeof route.path !== 'string' ||
    !/^\/[^A-Z:*]*$/.test(route.path) ||
    (route.path.length > 1 && route.path.endsWith('/'))
  ) {
    fail('path must start with "/", be lower case, have no trailing slash and no ":" or "*"')
  }
  if (!(ACCESS_KINDS as readonly unknown[]).includes(route.access)) {
    fail(`access must be one of ${ACCESS_KINDS.join(', ')}, got ${JSON.stringify(route.access)}`)
  }
  if (typeof route.waitsForFlags !== 'boolean') fail('waitsForFlags must be declared (true or false)')
  if (typeof route.handle !== 'function') fail('handle must be a function')
  const example: unknown = route.example
  if (
    typeof example !== 'object' ||
    example === null ||
    !Number.isInteger(route.example.status) ||
    route.example.status < 200 ||
    route.example.status > 399
  ) {
    fail('example must describe a request that succeeds ({ status: 2xx or 3xx, path?, body? })')
  }
}
