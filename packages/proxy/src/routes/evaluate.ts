// GET/POST /proxy and /proxy/all (docs/old-proxy-compatibility.md 1.2-1.5), for client keys. The
// router has already answered 503 (no flags yet) and 401 (no valid key), so a body is only
// read for a caller with a key; then 415, 400 (parse), 400 (schema), 500 (enricher), 501, 200.
// (The old proxy read and validated the body before the key; see the README's differences.)
// A repeated identical request is answered from the response cache before any parsing. The
// whole request uses the one flag set it was routed with: its engine, serializer and cache.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { type EvaluationTrace, CustomStrategyError } from '@vexil/engine'
import type { ProxyConfig } from '../config/types.js'
import { type EvaluationRequest, enrich, normalizeContext, parseQuery, validateBody, validateQueryContext } from '../evaluation/context.js'
import { answerKey, type CachedResponse } from '../evaluation/response-cache.js'
import { type AnswerHeaders, sendAnswer } from '../evaluation/send-answer.js'
import { mayShareAnswer } from '../evaluation/shareable.js'
import { assertJsonContentType, hasBody, parseStrictJson } from '../http/body.js'
import { readBodyText } from '../http/read-body.js'
import type { ClientAddress } from '../http/client-ip.js'
import { ProxyError } from '../http/errors.js'
import { CACHE_CONTROL, JSON_CONTENT_TYPE } from '../http/respond.js'
import type { Logger } from '../logger.js'
import type { PrometheusExporter } from '../prometheus.js'
import type { RouteCall, RouteDeclaration } from '../routing/route-declaration.js'
import type { FlagSet } from '../scope/flag-set.js'
import type { UsageAggregator } from '../usage/aggregator.js'

export interface EvaluateDependencies {
  config: ProxyConfig
  logger: Logger
  usage: UsageAggregator
  prometheus: PrometheusExporter
}

export function evaluateRoutes(deps: EvaluateDependencies, clientAddress: ClientAddress): RouteDeclaration[] {
  const route = (path: string, all: boolean): RouteDeclaration => ({
    methods: ['GET', 'HEAD', 'POST'],
    path,
    access: 'client-key',
    waitsForFlags: true,
    ownCors: true,
    example: { status: 200, path: `${path}?userId=42`, body: '{"context":{"userId":"42"}}' },
    handle: (call) => handleEvaluate(deps, call, all, clientAddress(call.event)),
  })
  return [route('/proxy', false), route('/proxy/all', true)]
}

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
  notModified: (cors, etag) => [...cors.pairs, ...(cors.vary ? ['vary', cors.vary] : []), 'cache-control', CACHE_CONTROL, 'etag', etag],
}

/** Counts a listed POST's toggles for usage metrics, then sends the answer (the hot path). */
function respond(usage: UsageAggregator, req: IncomingMessage, res: ServerResponse, call: RouteCall, answer: CachedResponse): void {
  if (answer.counted) for (const [name, enabled] of answer.counted) usage.count(name, enabled)
  sendAnswer(req, res, call.method, call.cors, answer, OLD_PROXY_HEADERS)
}

/** For a ready proxy and a caller with a client key (the router checked both). */
export async function handleEvaluate(deps: EvaluateDependencies, call: RouteCall, all: boolean, clientAddress: string | undefined): Promise<void> {
  const { config, usage, prometheus } = deps
  const { req, res } = call
  // The route waits for flags: without a set the router answered 503.
  const flags: FlagSet = call.flags!
  // GET reads the context from the query string; POST from the body only (the old proxy
  // ignored the query string of a POST, and a POST without a body is an empty context).
  let raw = call.method === 'POST' ? '' : call.search
  if (call.method === 'POST' && hasBody(call.event)) {
    assertJsonContentType(req)
    raw = await readBodyText(call.event)
  }
  const cacheKey = answerKey(call.method === 'POST' ? (all ? 'PA|' : 'P|') : all ? 'GA|' : 'G|', clientAddress, raw)
  if (flags.responseCache) {
    const hit = flags.responseCache.get(cacheKey, Date.now)
    if (hit) {
      prometheus.responseCache('hit')
      respond(usage, req, res, call, hit)
      return
    }
  }

  const request: EvaluationRequest =
    call.method === 'POST' ? validateBody(parseStrictJson(raw)) : { context: validateQueryContext(parseQuery(call.search)), toggles: undefined }

  let context = normalizeContext(request.context, clientAddress)
  // The old proxy (PR #155): without a sessionId, one random id per request keeps the enabled
  // state and the variant of default stickiness consistent within the response.
  const sessionInjected = !request.toggles && !context.sessionId
  if (sessionInjected) context.sessionId = String(Math.random())
  if (config.enrichers.length > 0) context = await enrich(context, config.enrichers)
  if (all && !config.enableAllEndpoint) throw new ProxyError('ALL_ENDPOINT_DISABLED', 'the /all endpoint is disabled')
  context.appName ??= config.serviceAppName
  context.environment = config.environment ?? context.environment ?? 'default'

  const trace: EvaluationTrace = { usedRandom: false, usedClock: false, usedCustomStrategy: false }
  let toggles
  try {
    toggles = flags.engine.evaluateAll(context, { includeDisabled: all, names: request.toggles, trace })
  } catch (error) {
    if (error instanceof CustomStrategyError) {
      deps.logger.error(error.message, error.cause)
      throw new ProxyError('INTERNAL', error.message)
    }
    throw error
  }
  const { body, bytes, etag } = flags.serializer.answer(toggles, request.toggles ? 'listed' : 'default')
  const answer: CachedResponse = {
    body,
    bytes,
    etag,
    validUntil: trace.usedClock ? flags.engine.nextTimeBoundary(Date.now()) : Number.POSITIVE_INFINITY,
    counted: request.toggles ? toggles.map((t) => [t.name, t.enabled] as const) : undefined,
  }
  if (flags.responseCache && mayShareAnswer({ trace, sessionInjected, enriched: config.enrichers.length > 0 })) flags.responseCache.set(cacheKey, answer)
  prometheus.responseCache('miss')
  respond(usage, req, res, call, answer)
}
