// Unleash API tokens as SDKs send them: `<project>:<environment>.<secret>`, with `*` for every
// project and `[]` for a token of several projects (the upstream knows which). The text says
// what a token claims; only the upstream's answer to /edge/validate says what it is.

/** What a token is allowed to do here: fetch flag definitions, or evaluate them in the proxy. */
export type TokenType = 'client' | 'frontend'

/**
 * A token the upstream knows: a client or frontend token, or an admin token, which no route
 * admits (it is known only so it is refused as the wrong type, 403, as Unleash 8.2 does).
 */
export type KnownTokenType = TokenType | 'admin'

/** An environment and the projects a token sees (`['*']`: all). */
export interface TokenScope {
  environment: string
  /** Sorted, without duplicates; `['*']` for every project. */
  projects: readonly string[]
}

/** A token the upstream said is valid. */
export interface KnownToken extends TokenScope {
  secret: string
  type: KnownTokenType
}

/** The longest secret read from a header; longer ones are refused without asking anyone. */
const MAX_TOKEN_LENGTH = 1_024

/** A trimmed `Authorization` value without its `Bearer ` scheme, if it has one. */
export function withoutBearer(value: string): string {
  return /^bearer\s/i.test(value) ? value.slice(7).trim() : value
}

/**
 * The secret in an `Authorization` header value: trimmed, a `Bearer ` prefix removed (Unleash
 * 8.2 accepts it). Undefined when it cannot be an Unleash token (no `:` before a `.`), so a
 * guessed string never reaches the upstream.
 */
export function readTokenSecret(header: string | undefined): string | undefined {
  if (header === undefined) return undefined
  const secret = withoutBearer(header.trim())
  if (secret.length === 0 || secret.length > MAX_TOKEN_LENGTH) return undefined
  const colon = secret.indexOf(':')
  return colon > 0 && secret.indexOf('.', colon) > colon + 1 ? secret : undefined
}

/** The scope's key: the same for every token that sees the same environment and projects. */
export function scopeKey(scope: TokenScope): string {
  return `${scope.environment}|${scope.projects.join(',')}`
}

/** Projects as a scope keeps them: sorted, unique, and `['*']` when `*` is among them. */
export function normalizeProjects(projects: readonly string[]): string[] {
  if (projects.includes('*')) return ['*']
  return [...new Set(projects)].sort()
}

/** Whether `outer` sees every flag `inner` sees (same environment, a superset of projects). */
export function covers(outer: TokenScope, inner: TokenScope): boolean {
  if (outer.environment !== inner.environment) return false
  if (outer.projects[0] === '*') return true
  if (inner.projects[0] === '*') return false
  return inner.projects.every((project) => outer.projects.includes(project))
}
