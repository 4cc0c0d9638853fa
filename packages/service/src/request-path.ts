import type { H3Event } from 'h3'
import { badData } from './errors.js'

/**
 * Refuses, with 400, a request path that could be read two ways: one that is not origin-form
 * (`/…`), has a malformed or encoded-control percent escape, a `?`, `#` or backslash once
 * decoded, or a `.`/`..` segment (raw or encoded). Routes see only paths that mean one thing;
 * authorization is still decided on the route the router matched (api-router.ts), not here.
 */
export function assertCanonicalPath(event: H3Event): void {
  const url = event.node.req.originalUrl ?? event.node.req.url ?? '/'
  const queryAt = url.indexOf('?')
  const raw = queryAt === -1 ? url : url.slice(0, queryAt)
  if (!raw.startsWith('/')) throw badPath('must start with "/"')
  let decoded: string
  try {
    decoded = decodeURIComponent(raw)
  } catch {
    throw badPath('has a malformed percent escape')
  }
  if (/[?#\\]/.test(decoded)) throw badPath('contains an encoded "?", "#" or a backslash')
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (/[\u0000-\u001f\u007f]/.test(decoded)) throw badPath('contains a control character')
  if (decoded.split('/').some((segment) => segment === '.' || segment === '..'))
    throw badPath('contains a "." or ".." segment')
}

function badPath(problem: string) {
  return badData(`The request path ${problem}.`)
}
