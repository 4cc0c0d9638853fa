import { getRouterParam, type H3Event } from 'h3'

/**
 * The path h3's router matches, for routing as Express did: case-insensitive (folded here),
 * under PROXY_BASE_PATH (compared case-insensitively too), one optional trailing slash (h3's
 * router drops one itself). Nothing is decoded or normalised (`%70roxy`, `//proxy`, `/./proxy`
 * name no route, as in Express). Undefined when the path is outside the base path. This is the
 * only parse of the URL's path that routing and access decisions use.
 */
export function routePath(rawPath: string, base: string): string | undefined {
  const path = rawPath.toLowerCase()
  const prefix = base.toLowerCase()
  if (!path.startsWith(prefix)) return undefined
  const route = path.slice(prefix.length)
  return route === '' || route.startsWith('/') ? route : undefined
}

/**
 * The flag name a `below` route (`/features/<name>`) was called with: the router's `name`
 * parameter (the path's last segment as sent, case kept, one trailing slash dropped),
 * percent-decoded as Express decodes a parameter; undefined when it does not decode or is empty.
 */
export function flagNameOf(event: H3Event): string | undefined {
  const name = getRouterParam(event, 'name')
  if (name === undefined) return undefined
  try {
    return decodeURIComponent(name) || undefined
  } catch {
    return undefined
  }
}
