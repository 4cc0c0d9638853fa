// Which declared route a routed path names (route-path.ts), matched as h3's router matches (a
// literal path, one trailing slash dropped; a `below` route's one segment as its `name`
// parameter; a prefix route's whole subtree), and what a path no route has answers like: the CORS
// and error shapes its neighbouring routes declare, when they agree (an unknown path under
// /api/frontend speaks the frontend API's, one under /ofrep OFREP's), else the old proxy's.
import type { EventHandler } from 'h3'
import type { CorsPolicy, ErrorShape, RouteDeclaration, RouteMethod } from './route-declaration.js'
import { RouteDeclarationError } from './route-declaration.js'

/** How a request on a path is answered when no handler writes the answer: its CORS and its error bodies. */
export interface RoutePolicy {
  cors: CorsPolicy
  errors: ErrorShape
  /** The methods the route at the path takes (for a 405's `Allow`), when a route is there. */
  methods?: readonly RouteMethod[]
}

export const DEFAULT_POLICY: RoutePolicy = { cors: 'proxy', errors: 'proxy' }

/** `route`: the declared path as a template (`<path>/:name` for a `below` route, `<path>/*` for a prefix route). */
type RouteMatch = { handler: EventHandler; params: Record<string, string>; route: string } | 'no-route' | 'no-method'

interface Entry {
  readonly handlers: Map<string, EventHandler>
  readonly policy: RoutePolicy
  readonly route: string
}

interface RouteTable {
  add(route: RouteDeclaration, handler: EventHandler): void
  /** `rawPath`: the path as sent, whose last segment is a `below` route's `name` (case kept). */
  match(path: string, rawPath: string, method: string): RouteMatch
  policyAt(path: string | undefined): RoutePolicy
}

export function createRouteTable(): RouteTable {
  const exact = new Map<string, Entry>()
  /** Parent path → the route answering `<parent>/<one segment>`. */
  const below = new Map<string, Entry>()
  /** Path → the route answering it and everything below it. */
  const subtrees = new Map<string, Entry>()
  /** Every leading run of segments of a declared path → the policies of the routes under it. */
  const around = new Map<string, Map<string, RoutePolicy>>()

  const entryIn = (map: Map<string, Entry>, route: RouteDeclaration): Entry => {
    const cors = route.cors ?? DEFAULT_POLICY.cors
    const errors = route.errors ?? DEFAULT_POLICY.errors
    const entry = map.get(route.path)
    if (!entry) {
      const template = route.prefix === 'below' ? `${route.path}/:name` : route.prefix ? `${route.path}/*` : route.path
      const made: Entry = {
        handlers: new Map(),
        policy: { cors, errors, methods: [...route.methods] },
        route: template,
      }
      map.set(route.path, made)
      return made
    }
    if (entry.policy.cors !== cors || entry.policy.errors !== errors)
      throw new RouteDeclarationError(`Route ${route.path}: declared twice with different CORS or error shapes`)
    ;(entry.policy.methods as RouteMethod[]).push(...route.methods)
    return entry
  }

  const lookup = (path: string): Entry[] => {
    const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
    const found: Entry[] = []
    const hit = exact.get(trimmed)
    if (hit) found.push(hit)
    const slash = trimmed.lastIndexOf('/')
    if (slash > 0 && slash < trimmed.length - 1) {
      const parent = below.get(trimmed.slice(0, slash))
      if (parent) found.push(parent)
    }
    for (let end = trimmed.length; end > 0; end = trimmed.lastIndexOf('/', end - 1)) {
      const subtree = subtrees.get(trimmed.slice(0, end))
      if (subtree) found.push(subtree)
    }
    return found
  }

  return {
    add(route, handler) {
      const map = route.prefix === 'below' ? below : route.prefix ? subtrees : exact
      const entry = entryIn(map, route)
      for (const method of route.methods) {
        if (entry.handlers.has(method))
          throw new RouteDeclarationError(`Route ${method} ${route.path} is declared twice`)
        entry.handlers.set(method, handler)
      }
      const policy = entry.policy
      const segments = route.path.split('/')
      for (let n = 2; n <= segments.length; n++) {
        const key = segments.slice(0, n).join('/')
        const policies = around.get(key) ?? around.set(key, new Map()).get(key)!
        policies.set(`${policy.cors} ${policy.errors}`, { cors: policy.cors, errors: policy.errors })
      }
    },

    match(path, rawPath, method) {
      const found = lookup(path)
      if (found.length === 0) return 'no-route'
      for (const entry of found) {
        const handler = entry.handlers.get(method)
        if (!handler) continue
        const params: Record<string, string> = entry === below.get(parentOf(path)) ? { name: lastSegment(rawPath) } : {}
        return { handler, params, route: entry.route }
      }
      return 'no-method'
    },

    policyAt(path) {
      if (path === undefined) return DEFAULT_POLICY
      const [entry] = lookup(path)
      if (entry) return entry.policy
      const segments = path.split('/')
      for (let n = segments.length; n >= 2; n--) {
        const policies = around.get(segments.slice(0, n).join('/'))
        if (policies) return policies.size === 1 ? policies.values().next().value! : DEFAULT_POLICY
      }
      return DEFAULT_POLICY
    },
  }
}

const withoutSlash = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path)
const parentOf = (path: string) => {
  const trimmed = withoutSlash(path)
  return trimmed.slice(0, trimmed.lastIndexOf('/'))
}
const lastSegment = (path: string) => {
  const trimmed = withoutSlash(path)
  return trimmed.slice(trimmed.lastIndexOf('/') + 1)
}
