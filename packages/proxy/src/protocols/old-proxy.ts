// The old proxy's evaluation protocol (docs/old-proxy-compatibility.md 1.2-1.5): GET/POST /proxy
// and /proxy/all for client keys. GET reads the context from the query string; POST from the body
// only, `{ context, toggles? }`; then 415, 400 (parse), 400 (schema), 500 (enricher), 501. (The
// old proxy read and validated the body before the key; see the README's differences.)
import type { Context } from '@vexil/engine'
import type { CachedResponse } from '../cache/response-cache.js'
import type { ProxyConfig } from '../config/types.js'
import type { AnswerDialect, DialectContext, ReadRequest } from '../answers/dialect.js'
import { afterText, requestText } from '../answers/request-text.js'
import type { AnswerHeaders } from '../answers/send-answer.js'
import {
  type EvaluationRequest,
  enrich,
  normalizeContext,
  parseQuery,
  validateBody,
  validateQueryContext,
} from '../evaluation/context.js'
import { parseStrictJson } from '../http/body.js'
import { ProxyError } from '../http/errors.js'
import { CACHE_CONTROL, JSON_CONTENT_TYPE } from '../http/respond.js'
import type { UsageSink } from '../scope/token-scopes.js'

export type OldProxyConfig = Pick<ProxyConfig, 'enrichers' | 'enableAllEndpoint' | 'serviceAppName' | 'environment'>

/** The old proxy's headers, in its order. */
const OLD_PROXY_HEADERS: AnswerHeaders = {
  ok: (cors, etag, length, encoding) => [
    ...cors.pairs,
    'vary',
    cors.vary ? `${cors.vary}, Accept-Encoding` : 'Accept-Encoding',
    'content-type',
    JSON_CONTENT_TYPE,
    'cache-control',
    CACHE_CONTROL,
    'etag',
    etag,
    ...(encoding ? ['content-encoding', encoding] : []),
    'content-length',
    String(length),
  ],
  notModified: (cors, etag) => [
    ...cors.pairs,
    ...(cors.vary ? ['vary', cors.vary] : []),
    'cache-control',
    CACHE_CONTROL,
    'etag',
    etag,
  ],
}

interface OldProxyContext extends DialectContext {
  toggles: EvaluationRequest['toggles']
}

/** `all`: /proxy/all (every flag, disabled ones too), else /proxy. `usage` counts a listed POST's toggles. */
export function oldProxyDialect(
  config: OldProxyConfig,
  usage: UsageSink,
  all: boolean,
): AnswerDialect<ReadRequest, OldProxyContext> {
  const enriched = config.enrichers.length > 0
  return {
    namespace: 'proxy',
    headers: OLD_PROXY_HEADERS,
    read(event) {
      const variant = `${event.method === 'POST' ? 'P' : 'G'}${all ? 'A' : ''}`
      return afterText(requestText(event), (raw) => ({ variant, raw }))
    },
    context({ raw }, event, clientAddress) {
      const request: EvaluationRequest =
        event.method === 'POST'
          ? validateBody(parseStrictJson(raw))
          : { context: validateQueryContext(parseQuery(raw)), toggles: undefined }
      const context = normalizeContext(request.context, clientAddress)
      // The old proxy (PR #155): without a sessionId, one random id per request keeps the enabled
      // state and the variant of default stickiness consistent within the response.
      const sessionInjected = !request.toggles && !context.sessionId
      if (sessionInjected) context.sessionId = String(Math.random())
      // The enrichers run before the 501 of a disabled /all, as in the old proxy.
      const finish = (context: Context): OldProxyContext => {
        if (all && !config.enableAllEndpoint)
          throw new ProxyError('ALL_ENDPOINT_DISABLED', 'the /all endpoint is disabled')
        context.appName ??= config.serviceAppName
        context.environment = config.environment ?? context.environment ?? 'default'
        return { context, sessionInjected, enriched, toggles: request.toggles }
      }
      return enriched ? enrich(context, config.enrichers).then(finish) : finish(context)
    },
    evaluate(flags, { context, toggles: names }, _request, trace) {
      const toggles = flags.engine.evaluateAll(context, { includeDisabled: all, names, trace })
      const { body, bytes, etag } = flags.serializer.answer(toggles, names ? 'listed' : 'default')
      return { body, bytes, etag, counted: names ? toggles.map((t) => [t.name, t.enabled] as const) : undefined }
    },
    sent(answer: CachedResponse) {
      if (answer.counted) for (const [name, enabled] of answer.counted) usage.count(name, enabled)
    },
  }
}
