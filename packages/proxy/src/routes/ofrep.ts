// OpenFeature's Remote Evaluation Protocol 0.3.0 (packages/proxy/README.md, "OpenFeature
// (OFREP)"): POST /ofrep/v1/evaluate/flags (bulk: every flag of the caller's scope, a strong ETag,
// 304 for If-None-Match) and POST /ofrep/v1/evaluate/flags/<key> (one flag), for client keys
// (the /proxy scope) and frontend tokens (the token's scope, as /api/frontend). The router has
// admitted the caller and picked its flag set; the engine's `evaluate` decides each value,
// variant and reason; this file only reads the request and writes the protocol's bytes.
import type { H3Event } from 'h3'
import type { Context, EvaluationDetails, EvaluationTrace } from '@vexil/engine'
import type { ProxyConfig } from '../config/types.js'
import { enrich } from '../evaluation/context.js'
import { ofrepBulk, ofrepContext, ofrepItem } from '../evaluation/ofrep.js'
import { answerKey, type CachedResponse } from '../evaluation/response-cache.js'
import { seesDisabledFlags } from '../evaluation/visibility.js'
import { type AnswerHeaders, sendAnswer } from '../evaluation/send-answer.js'
import { mayShareAnswer } from '../evaluation/shareable.js'
import { assertJsonContentType, hasBody, isObject } from '../http/body.js'
import type { ClientAddress } from '../http/client-ip.js'
import { ProxyError } from '../http/errors.js'
import { readBodyText } from '../http/read-body.js'
import { headerObject, JSON_CONTENT_TYPE } from '../http/respond.js'
import type { PrometheusExporter } from '../prometheus.js'
import type { RouteCall, RouteDeclaration } from '../routing/route-declaration.js'
import { flagNameOf } from '../routing/route-path.js'
import type { FlagSet } from '../scope/flag-set.js'
import type { UsageSink } from '../scope/token-scopes.js'

export const OFREP_BULK_PATH = '/ofrep/v1/evaluate/flags'

export interface OfrepDependencies {
  config: ProxyConfig
  prometheus: PrometheusExporter
  clientAddress: ClientAddress
  /** Where the counts of client-key callers go (the /proxy scope's); token callers count into their scope's. */
  staticUsage: UsageSink | undefined
}

const EXAMPLE_BODY = '{"context":{"targetingKey":"42"}}'

export function ofrepRoutes(deps: OfrepDependencies): RouteDeclaration[] {
  const route = (path: string, prefix: RouteDeclaration['prefix'], handle: RouteDeclaration['handle'], examplePath?: string): RouteDeclaration => ({
    methods: ['POST'],
    path,
    ...(prefix ? { prefix } : {}),
    access: 'client-key-or-frontend-token',
    waitsForFlags: true,
    ownCors: true,
    cors: 'ofrep',
    example: { status: 200, body: EXAMPLE_BODY, ...(examplePath ? { path: examplePath } : {}) },
    handle,
  })
  return [
    route(OFREP_BULK_PATH, false, (call) => handleBulk(deps, call)),
    route(OFREP_BULK_PATH, 'below', (call) => handleSingle(deps, call), `${OFREP_BULK_PATH}/example`),
  ]
}

/** The bulk answer's headers; POST revalidates (the web provider sends If-None-Match on every refresh). */
const BULK_HEADERS: AnswerHeaders = {
  revalidatesPost: true,
  ok: (cors, etag, length, encoding) => [
    ...cors.pairs,
    'Vary',
    cors.vary ? `${cors.vary}, Accept-Encoding` : 'Accept-Encoding',
    'Content-Type',
    JSON_CONTENT_TYPE,
    'Cache-Control',
    'no-cache',
    'ETag',
    etag,
    ...(encoding ? ['Content-Encoding', encoding] : []),
    'Content-Length',
    String(length),
  ],
  notModified: (cors, etag) => [...cors.pairs, ...(cors.vary ? ['Vary', cors.vary] : []), 'Cache-Control', 'no-cache', 'ETag', etag],
}

async function handleBulk(deps: OfrepDependencies, call: RouteCall): Promise<void> {
  const { req, res } = call
  const flags: FlagSet = call.flags!
  const clientAddress = deps.clientAddress(call.event)
  const raw = await readRequestBody(call.event, undefined)
  const cacheKey = answerKey(call.caller ? 'OT|' : 'OK|', clientAddress, raw)
  const hit = flags.responseCache?.get(cacheKey, Date.now)
  if (hit) {
    deps.prometheus.responseCache('hit')
    sendAnswer(req, res, call.method, call.cors, hit, BULK_HEADERS)
    return
  }
  const context = await evaluationContext(deps, call, parseRequest(raw, undefined), clientAddress)
  const trace: EvaluationTrace = { usedRandom: false, usedClock: false, usedCustomStrategy: false }
  const evaluated = flags.engine.evaluateAllDetails(context, { trace })
  const { body, bytes, etag } = ofrepBulk(seesDisabledFlags(deps.config, call.caller !== undefined) ? evaluated : evaluated.filter((details) => details.toggle.enabled))
  const answer: CachedResponse = {
    body,
    bytes,
    etag,
    validUntil: trace.usedClock ? flags.engine.nextTimeBoundary(Date.now()) : Number.POSITIVE_INFINITY,
  }
  // OFREP makes up no sessionId; the enrichers run for client-key callers only (evaluationContext).
  const enriched = call.caller === undefined && deps.config.enrichers.length > 0
  if (flags.responseCache && mayShareAnswer({ trace, sessionInjected: false, enriched })) flags.responseCache.set(cacheKey, answer)
  deps.prometheus.responseCache('miss')
  sendAnswer(req, res, call.method, call.cors, answer, BULK_HEADERS)
}

async function handleSingle(deps: OfrepDependencies, call: RouteCall): Promise<void> {
  const { req, res } = call
  const flags: FlagSet = call.flags!
  const key = flagNameOf(req.url ?? '/')
  if (key === undefined) throw new ProxyError('OFREP_FLAG_NOT_FOUND', 'No flag key after /ofrep/v1/evaluate/flags/', { key: '' })
  const raw = await readRequestBody(call.event, key)
  // Only flags of the caller's scope exist for it (a token's projects narrow its flag set).
  if (!flags.countedVariants.has(key)) throw notFound(key)
  const clientAddress = deps.clientAddress(call.event)
  const context = await evaluationContext(deps, call, parseRequest(raw, key), clientAddress)
  const details = flags.engine.evaluate(key, context)
  // An evaluation by an app is a use of the flag, counted as the server SDKs count theirs.
  const usage = call.caller ? call.caller.view.usage : deps.staticUsage
  usage?.count(key, details.toggle.enabled)
  if (!details.toggle.enabled && !seesDisabledFlags(deps.config, call.caller !== undefined)) throw notFound(key)
  const status = statusOf(details)
  const body = ofrepItem(details)
  res.writeHead(status, headerObject([
    ...call.cors.pairs,
    ...(call.cors.vary ? ['Vary', call.cors.vary] : []),
    'Content-Type',
    JSON_CONTENT_TYPE,
    'Cache-Control',
    'no-store',
    'Content-Length',
    String(body.bytes),
  ]))
  res.end(body.json)
}

/** The same answer for a flag that does not exist and one the caller may not see. */
const notFound = (key: string) => new ProxyError('OFREP_FLAG_NOT_FOUND', `No flag named "${key}" for this key`, { key })

/** 200 for a result; an error result's status as OFREP's single-flag route answers it. */
function statusOf(details: EvaluationDetails): number {
  switch (details.errorCode) {
    case undefined:
      return 200
    case 'FLAG_NOT_FOUND':
      return 404
    case 'PARSE_ERROR':
      return 400
    default:
      return 500
  }
}

/** The body as text: none is `{}` (the JS providers always send one; curl may not). */
async function readRequestBody(event: H3Event, key: string | undefined): Promise<string> {
  if (!hasBody(event)) return ''
  assertJsonContentType(event.node.req)
  try {
    return await readBodyText(event)
  } catch (error) {
    // A body that does not decompress is unparseable; 413 and 415 keep their status.
    if (error instanceof ProxyError && error.code === 'INVALID_JSON') throw new ProxyError('OFREP_PARSE_ERROR', error.message, { key })
    throw error
  }
}

/** `{ context }` (missing or null: empty); PARSE_ERROR for a body that is not a JSON object, INVALID_CONTEXT for a context that is not one. */
function parseRequest(raw: string, key: string | undefined): Record<string, unknown> {
  if (raw.trim() === '') return {}
  let body: unknown
  try {
    body = JSON.parse(raw)
  } catch (error) {
    throw new ProxyError('OFREP_PARSE_ERROR', `The body is not JSON: ${error instanceof Error ? error.message : String(error)}`, { key })
  }
  if (!isObject(body)) throw new ProxyError('OFREP_PARSE_ERROR', 'The body must be a JSON object: {"context": {...}}', { key })
  const context = body.context
  if (context === undefined || context === null) return {}
  if (!isObject(context)) throw new ProxyError('OFREP_INVALID_CONTEXT', '"context" must be an object', { key })
  const targetingKey = context.targetingKey
  if (targetingKey !== undefined && targetingKey !== null && typeof targetingKey !== 'string') {
    throw new ProxyError('OFREP_INVALID_CONTEXT', '"context.targetingKey" must be a string', { key })
  }
  return context
}

/**
 * The Unleash context: mapped from OFREP's (evaluation/ofrep.ts), then the scope's rules: a
 * client key's as on /proxy (the enrichers, SERVICE_APP_NAME, ENVIRONMENT), a frontend token's
 * as on /api/frontend (`default` environment and `frontend-api` app unless the context names them).
 */
async function evaluationContext(deps: OfrepDependencies, call: RouteCall, raw: Record<string, unknown>, clientAddress: string | undefined): Promise<Context> {
  let context = ofrepContext(raw, clientAddress)
  if (call.caller) {
    context.environment ??= 'default'
    context.appName ??= 'frontend-api'
    return context
  }
  const { config } = deps
  if (config.enrichers.length > 0) context = await enrich(context, config.enrichers)
  context.appName ??= config.serviceAppName
  context.environment = config.environment ?? context.environment ?? 'default'
  return context
}
