// Reads the upstream's answer to POST /edge/validate (Unleash 8.2, Edge, a Vexil service or
// another Vexil proxy): `{ tokens: [{ token, type, projects, environment }] }`. Edge's `backend`
// is a client token; an admin token is kept as such (every route refuses it, 403); other types
// are dropped. Anything but a 200 with that shape is a failure (the tokens asked about stay
// undecided). Admin tokens have environment `*`.
import type { HttpResponse } from '@vexil/sync'
import type { KnownToken } from './api-token.js'

export function readValidatedTokens(res: HttpResponse): KnownToken[] {
  if (res.status !== 200) throw new Error(`the upstream answered ${res.status} to POST /edge/validate`)
  let body: unknown
  try {
    body = JSON.parse(res.body)
  } catch {
    throw new Error('the upstream answered POST /edge/validate with a body that is not JSON')
  }
  const list = (body as { tokens?: unknown } | null)?.tokens
  if (!Array.isArray(list)) throw new Error('the upstream answered POST /edge/validate without a tokens list')
  const tokens: KnownToken[] = []
  for (const entry of list) {
    if (entry === null || typeof entry !== 'object') continue
    const { token, type, projects, environment } = entry as Record<string, unknown>
    const kind =
      type === 'client' || type === 'backend'
        ? 'client'
        : type === 'frontend'
          ? 'frontend'
          : type === 'admin'
            ? 'admin'
            : undefined
    if (
      typeof token !== 'string' ||
      !kind ||
      typeof environment !== 'string' ||
      environment === '' ||
      (environment === '*' && kind !== 'admin')
    )
      continue
    const projectList = Array.isArray(projects) ? projects.filter((p): p is string => typeof p === 'string') : []
    if (projectList.length === 0) continue
    tokens.push({ secret: token, type: kind, environment, projects: projectList })
  }
  return tokens
}
