/**
 * The path the route table is keyed by, as Express matched routes: case-insensitive, one
 * optional trailing slash, under PROXY_BASE_PATH (compared case-insensitively too). Nothing is
 * decoded or normalised (`%70roxy`, `//proxy`, `/./proxy` name no route, as in Express).
 * Undefined when the path is outside the base path. This is the only parse of the URL's path
 * that routing and access decisions use.
 */
export function routePath(rawPath: string, base: string): string | undefined {
  let path = rawPath.toLowerCase()
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1)
  const prefix = base.toLowerCase()
  if (!path.startsWith(prefix)) return undefined
  const route = path.slice(prefix.length)
  return route === '' || route.startsWith('/') ? route : undefined
}
