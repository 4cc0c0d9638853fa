// The frontend API's evaluation protocol for frontend tokens (docs/edge-compatibility.md):
// GET/HEAD/POST /api/frontend answered as Unleash 8.2 answers its own (enabled toggles in
// definition order, the variant with feature_enabled/featureEnabled, impressionData always,
// Cache-control no-cache, a weak ETag and 304 for GET/HEAD), plus what Edge accepts on top: /all
// (every flag), /features/<name> (one flag). The token decides the environment and projects;
// nothing in the request can widen them.
import type { H3Event } from 'h3'
import type { AnswerDialect, ReadRequest } from '../answers/dialect.js'
import { afterText, requestText } from '../answers/request-text.js'
import type { AnswerHeaders } from '../answers/send-answer.js'
import { parseQuery } from '../evaluation/context.js'
import { seesDisabledFlags, type VisibilityConfig } from '../evaluation/visibility.js'
import { ProxyError } from '../http/errors.js'
import { weakEtag } from '../http/etag.js'
import { JSON_CONTENT_TYPE } from '../http/respond.js'
import { frontendContext, postedContext } from './frontend-context.js'

export type FrontendSelection = 'enabled' | 'all' | 'one'

/** Unleash 8.2's headers, in its order (its RateLimit headers aside: Vexil does not rate-limit). */
const UNLEASH_HEADERS: AnswerHeaders = {
  ok: (cors, etag, length, encoding) => [
    'Vary',
    cors.vary ? `${cors.vary}, Accept-Encoding` : 'Accept-Encoding',
    ...cors.pairs,
    'Cache-control',
    'no-cache',
    'Content-Type',
    JSON_CONTENT_TYPE,
    ...(encoding ? ['Content-Encoding', encoding] : []),
    'Content-Length',
    String(length),
    'ETag',
    etag,
  ],
  notModified: (cors, etag) => [
    ...(cors.vary ? ['Vary', cors.vary] : []),
    ...cors.pairs,
    'Cache-control',
    'no-cache',
    'ETag',
    etag,
  ],
}

interface FrontendRequest extends ReadRequest {
  /** The flag of /features/<name>. */
  name: string | undefined
}

/**
 * `enabled`: /api/frontend as Unleash 8.2 (enabled flags only); `all`: /all as Edge (every flag,
 * SDK semantics); `one`: /features/<name>, the flag named by the router's `name` parameter.
 */
export function frontendDialect(
  config: VisibilityConfig,
  selection: FrontendSelection,
  flagName: (event: H3Event) => string | undefined,
): AnswerDialect<FrontendRequest> {
  return {
    namespace: 'frontend',
    headers: UNLEASH_HEADERS,
    read(event) {
      const name = selection === 'one' ? flagName(event) : undefined
      if (selection === 'one' && name === undefined)
        throw new ProxyError('API_NOT_FOUND', 'No flag of that name: give one flag name after /features/')
      // A flag name comes from the path: only an existing flag's answer is ever kept under it.
      const variant = `${selection}|${event.method === 'POST' ? 'P' : 'G'}|${name === undefined ? '' : `${name.length}:${name}`}`
      return afterText(requestText(event), (raw) => ({ variant, raw, name }))
    },
    context({ raw }, event, clientAddress) {
      const context = frontendContext(event.method === 'POST' ? postedContext(raw) : parseQuery(raw), clientAddress)
      // As Unleash 8.2: without a sessionId, a random one for this request.
      const sessionInjected = !context.sessionId
      if (sessionInjected) context.sessionId = String(Math.random())
      // The frontend API runs no enrichers (Unleash's has none).
      return { context, sessionInjected, enriched: false }
    },
    evaluate(flags, { context }, { name }, trace) {
      let body: string
      if (name !== undefined) {
        const [toggle] = flags.countedVariants.has(name)
          ? flags.engine.evaluateAll(context, { names: [name], trace })
          : []
        // A flag the caller may not see is answered as an unknown one (evaluation/visibility.ts).
        if (!toggle || (!toggle.enabled && !seesDisabledFlags(config, true)))
          throw new ProxyError('API_NOT_FOUND', `No flag named "${name}" for this token`)
        body = flags.serializer.toggle(toggle, 'listed')
      } else {
        const engine = selection === 'all' ? flags.engine : flags.frontendEngine
        body = flags.serializer.body(
          engine.evaluateAll(context, { includeDisabled: selection === 'all', trace }),
          'listed',
        )
      }
      return { body, bytes: Buffer.byteLength(body), etag: weakEtag(body) }
    },
  }
}
