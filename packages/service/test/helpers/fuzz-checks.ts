// What every answer of the fuzz must satisfy, whatever was asked: no 5xx; no handler run for a
// caller its route does not admit (the route table's access, checked on the route that ran); no
// fixture data to a caller without admin or user access (insights, open to any user, name every
// project); and to a caller without a valid token, nothing but a refusal in the service's error
// shape, unless a public route or the admin UI answered.
import type { RouteSpec } from '../../src/routes/api-router.js'
import type { FuzzRequest, FuzzResponse } from './fuzz-http.js'
import { admits, type FuzzCredential } from './fuzz-world.js'

/** What a caller without a valid token may be answered: refusals only. */
const REFUSALS = [400, 401, 403, 404, 405, 413, 415, 429]

/**
 * The invariants for one answer, given the routes whose handler ran for it and a text only
 * fixtures hold; returns the problems found.
 */
export function checkAnswer(
  request: FuzzRequest,
  response: FuzzResponse,
  handled: RouteSpec[],
  credential: FuzzCredential,
  fixtureText: string,
): string[] {
  const problems: string[] = []
  if (response.status >= 500) problems.push(`${response.status}: ${response.text.slice(0, 300)}`)
  const intruders = handled.filter((route) => !admits(route.access, credential))
  if (intruders.length > 0)
    problems.push(
      `a handler ran for a caller its route does not admit: ${intruders.map((r) => `${r.method} ${r.path}`).join(', ')}`,
    )
  if (
    !credential.grants.includes('admin') &&
    !credential.grants.includes('user') &&
    response.text.includes(fixtureText)
  ) {
    problems.push(
      `answered fixture data (${fixtureText}) to a caller without admin access: ${response.text.slice(0, 300)}`,
    )
  }
  if (credential.anonymous && !handled.some((route) => route.access === 'public') && !isUiRequest(request)) {
    if (!REFUSALS.includes(response.status))
      problems.push(`answered ${response.status} to a caller without a valid token: ${response.text.slice(0, 300)}`)
    if (!isErrorShape(response.text))
      problems.push(
        `answered a caller without a valid token something other than an error: ${response.text.slice(0, 300)}`,
      )
  }
  return problems
}

// --- Internal helpers ---

/**
 * The admin UI answers GET and HEAD to anyone with static files and its page, which hold no data
 * (routes/ui.ts); its rule, on the raw path: anything but `/api`, `/api/…`, `/api;…`, `/health`, `/health/…`.
 */
function isUiRequest(request: FuzzRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false
  const path = (request.path.split('?')[0] as string).toLowerCase()
  return !(path === '/api' || path === '/health' || /^\/(api[/;]|health\/)/.test(path))
}

/** Empty, or exactly the service's error JSON `{ id, name, message, details? }`. */
function isErrorShape(text: string): boolean {
  if (text === '') return true
  try {
    const body = JSON.parse(text) as Record<string, unknown>
    const keys = Object.keys(body).sort().join(',')
    const shaped = keys === 'id,message,name' || (keys === 'details,id,message,name' && Array.isArray(body.details))
    return shaped && typeof body.id === 'string' && typeof body.name === 'string' && typeof body.message === 'string'
  } catch {
    return false
  }
}
