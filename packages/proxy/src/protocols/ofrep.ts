// OpenFeature's Remote Evaluation Protocol 0.3.0 (packages/proxy/README.md, "OpenFeature (OFREP)"):
// the bulk evaluation (every flag of the caller's scope, a strong ETag, 304 for If-None-Match) and
// the single flag, for client keys (the /proxy scope) and frontend tokens (the token's scope, as
// /api/frontend). The engine's `evaluate` decides each value, variant and reason; this dialect
// reads the request and writes the protocol's bytes.
import type { H3Event } from 'h3'
import type { Context, EvaluationDetails } from '@vexil/engine'
import type { ProxyConfig } from '../config/types.js'
import type { AnswerDialect, DialectContext, ReadRequest } from '../answers/dialect.js'
import { requestText } from '../answers/request-text.js'
import type { AnswerHeaders } from '../answers/send-answer.js'
import { enrich } from '../evaluation/context.js'
import { ofrepContext } from '../evaluation/ofrep.js'
import { seesDisabledFlags, type VisibilityConfig } from '../evaluation/visibility.js'
import { isObject } from '../http/body.js'
import { ProxyError } from '../http/errors.js'
import { JSON_CONTENT_TYPE } from '../http/respond.js'
import type { UsageSink } from '../scope/token-scopes.js'
import type { AppIdentity } from '@vexil/sync'
import { ofrepBulk, ofrepItem } from './ofrep-bodies.js'
import { callerApp, countEvaluation, impliedRegistrations, usageOf } from './ofrep-usage.js'

export type OfrepConfig = VisibilityConfig &
  Pick<ProxyConfig, 'enrichers' | 'serviceAppName' | 'environment' | 'metricsInterval'>

/** The context, and the app the caller's context names (ofrep-usage.ts), if any. */
interface OfrepContext extends DialectContext {
  app: AppIdentity | undefined
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
  notModified: (cors, etag) => [
    ...cors.pairs,
    ...(cors.vary ? ['Vary', cors.vary] : []),
    'Cache-Control',
    'no-cache',
    'ETag',
    etag,
  ],
}

/** A single flag's answer: never kept, never compressed, no ETag. */
const SINGLE_HEADERS: AnswerHeaders = {
  compresses: false,
  ok: (cors, _etag, length) => [
    ...cors.pairs,
    ...(cors.vary ? ['Vary', cors.vary] : []),
    'Content-Type',
    JSON_CONTENT_TYPE,
    'Cache-Control',
    'no-store',
    'Content-Length',
    String(length),
  ],
  notModified: () => [],
}

/** `staticUsage`: the usage of client-key callers (the /proxy scope's). */
export function ofrepBulkDialect(
  config: OfrepConfig,
  staticUsage: UsageSink | undefined,
): AnswerDialect<ReadRequest, OfrepContext> {
  const registrationOf = impliedRegistrations('frontend', config.metricsInterval)
  return {
    namespace: 'ofrep',
    headers: BULK_HEADERS,
    async read(event) {
      return { variant: event.context.caller ? 'T' : 'K', raw: await bodyText(event, undefined) }
    },
    async context({ raw }, event, clientAddress) {
      // OFREP makes up no sessionId; the enrichers run for client-key callers only.
      return evaluationContext(config, event, parseRequest(raw, undefined), clientAddress)
    },
    evaluate(flags, { context, app }, _request, trace, event) {
      const evaluated = flags.engine.evaluateAllDetails(context, { trace })
      const answer = ofrepBulk(
        seesDisabledFlags(config, event.context.caller !== undefined)
          ? evaluated
          : evaluated.filter((details) => details.toggle.enabled),
      )
      // The provider evaluates from what it fetched, so nothing is counted; the caller is registered.
      const registration = registrationOf(app)
      return registration ? { ...answer, registration } : answer
    },
    sent(answer, event) {
      if (answer.registration) usageOf(event, staticUsage)?.register(answer.registration, true)
    },
  }
}

interface SingleRequest extends ReadRequest {
  key: string
}

/** `flagKey`: the flag named by the router's `name` parameter. `staticUsage`: where client-key callers' evaluations are counted. */
export function ofrepSingleDialect(
  config: OfrepConfig,
  staticUsage: UsageSink | undefined,
  flagKey: (event: H3Event) => string | undefined,
): AnswerDialect<SingleRequest, OfrepContext> {
  const registrationOf = impliedRegistrations('backend', config.metricsInterval)
  return {
    namespace: undefined,
    headers: SINGLE_HEADERS,
    async read(event, flags) {
      const key = flagKey(event)
      if (key === undefined)
        throw new ProxyError('OFREP_FLAG_NOT_FOUND', 'No flag key after /ofrep/v1/evaluate/flags/', { key: '' })
      const raw = await bodyText(event, key)
      // Only flags of the caller's scope exist for it (a token's projects narrow its flag set).
      if (!flags.countedVariants.has(key)) throw notFound(key)
      return { variant: '', raw, key }
    },
    context({ raw, key }, event, clientAddress) {
      return evaluationContext(config, event, parseRequest(raw, key), clientAddress)
    },
    evaluate(flags, { context, app }, { key }, _trace, event) {
      const details = flags.engine.evaluate(key, context)
      // An evaluation by an app is a use of the flag, counted as the server SDKs count theirs.
      countEvaluation(usageOf(event, staticUsage), flags, details, app, registrationOf(app))
      if (!details.toggle.enabled && !seesDisabledFlags(config, event.context.caller !== undefined)) throw notFound(key)
      const item = ofrepItem(details)
      return { body: item.json, bytes: item.bytes, etag: '', status: statusOf(details) }
    },
  }
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
async function bodyText(event: H3Event, key: string | undefined): Promise<string> {
  try {
    return await requestText(event)
  } catch (error) {
    // A body that does not decompress is unparseable; 413 and 415 keep their status.
    if (error instanceof ProxyError && error.code === 'INVALID_JSON')
      throw new ProxyError('OFREP_PARSE_ERROR', error.message, { key })
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
    throw new ProxyError(
      'OFREP_PARSE_ERROR',
      `The body is not JSON: ${error instanceof Error ? error.message : String(error)}`,
      { key },
    )
  }
  if (!isObject(body))
    throw new ProxyError('OFREP_PARSE_ERROR', 'The body must be a JSON object: {"context": {...}}', { key })
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
 * The caller's app is the one its context names, before those defaults.
 */
async function evaluationContext(
  config: OfrepConfig,
  event: H3Event,
  raw: Record<string, unknown>,
  clientAddress: string | undefined,
): Promise<OfrepContext> {
  let context: Context = ofrepContext(raw, clientAddress)
  const app = callerApp(context.appName, raw, event)
  if (event.context.caller) {
    context.environment ??= 'default'
    context.appName ??= 'frontend-api'
    return { context, sessionInjected: false, enriched: false, app }
  }
  const enriched = config.enrichers.length > 0
  if (enriched) context = await enrich(context, config.enrichers)
  context.appName ??= config.serviceAppName
  context.environment = config.environment ?? context.environment ?? 'default'
  return { context, sessionInjected: false, enriched, app }
}
