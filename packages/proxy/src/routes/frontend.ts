// The frontend API for frontend tokens (docs/edge-compatibility.md): GET/HEAD/POST /api/frontend
// answered as Unleash 8.2 answers its own (enabled toggles in definition order, the variant with
// feature_enabled/featureEnabled, impressionData always, Cache-control no-cache, a weak ETag and
// 304 for GET/HEAD, its CORS headers), plus what Edge accepts on top: the /api/proxy alias, a flat
// context in a POST body, /all (unless DISABLE_ALL_ENDPOINT), /features/<name>. The token
// decides the environment and projects; nothing in the request can widen them.
import { type Context, CustomStrategyError, type EvaluationTrace } from '@vexil/engine'
import type { ProxyConfig } from '../config/types.js'
import { normalizeContext, parseQuery } from '../evaluation/context.js'
import { answerKey, type CachedResponse } from '../evaluation/response-cache.js'
import { seesDisabledFlags } from '../evaluation/visibility.js'
import { type AnswerHeaders, sendAnswer } from '../evaluation/send-answer.js'
import { mayShareAnswer } from '../evaluation/shareable.js'
import { assertJsonContentType, hasBody, isDateTime, isObject, parseStrictJson } from '../http/body.js'
import type { ClientAddress } from '../http/client-ip.js'
import { ProxyError } from '../http/errors.js'
import { weakEtag } from '../http/etag.js'
import { readBodyText } from '../http/read-body.js'
import { JSON_CONTENT_TYPE } from '../http/respond.js'
import type { Logger } from '../logger.js'
import type { PrometheusExporter } from '../prometheus.js'
import type { RouteCall, RouteDeclaration } from '../routing/route-declaration.js'
import { flagNameOf } from '../routing/route-path.js'
import type { FlagSet } from '../scope/flag-set.js'
import { handleFrontendMetrics, handleFrontendRegister } from './frontend-metrics.js'

export interface FrontendDependencies {
  config: ProxyConfig
  logger: Logger
  prometheus: PrometheusExporter
  clientAddress: ClientAddress
}

const EXAMPLE = { status: 200, path: '?userId=42', body: '{"context":{"userId":"42"}}' }

/** Every frontend route, under both of Edge's prefixes. */
export function frontendRoutes(deps: FrontendDependencies): RouteDeclaration[] {
  const routes: RouteDeclaration[] = []
  for (const prefix of ['/api/frontend', '/api/proxy']) {
    const evaluate = (path: string, all: boolean): RouteDeclaration => ({
      methods: ['GET', 'HEAD', 'POST'],
      path,
      access: 'frontend-token',
      waitsForFlags: true,
      ownCors: true,
      cors: 'frontend',
      example: { ...EXAMPLE, path: `${path}${EXAMPLE.path}` },
      handle: (call) => handleFrontend(deps, call, all ? 'all' : 'enabled'),
    })
    const posted = (path: string, handle: RouteDeclaration['handle'], body: string): RouteDeclaration => ({
      methods: ['POST'],
      path,
      access: 'frontend-token',
      waitsForFlags: false,
      cors: 'frontend',
      example: { status: 200, body },
      handle,
    })
    routes.push(
      evaluate(prefix, false),
      {
        methods: ['GET', 'HEAD', 'POST'],
        path: `${prefix}/features`,
        prefix: 'below',
        access: 'frontend-token',
        waitsForFlags: true,
        ownCors: true,
        cors: 'frontend',
        example: { status: 200, path: `${prefix}/features/example?userId=42` },
        handle: (call) => handleFrontend(deps, call, 'one'),
      },
      posted(`${prefix}/client/metrics`, (call) => handleFrontendMetrics(call), EXAMPLE_METRICS),
      posted(`${prefix}/client/register`, (call) => handleFrontendRegister(call), EXAMPLE_REGISTRATION),
    )
    if (deps.config.frontendAllEndpoint) {
      routes.push(
        evaluate(`${prefix}/all`, true),
        posted(`${prefix}/all/client/metrics`, (call) => handleFrontendMetrics(call), EXAMPLE_METRICS),
        posted(`${prefix}/all/client/register`, (call) => handleFrontendRegister(call), EXAMPLE_REGISTRATION),
      )
    }
  }
  return routes
}

const EXAMPLE_METRICS = JSON.stringify({ appName: 'example', instanceId: 'i', bucket: { start: '2026-01-01T00:00:00.000Z', stop: '2026-01-01T00:01:00.000Z', toggles: {} } })
const EXAMPLE_REGISTRATION = JSON.stringify({ appName: 'example', instanceId: 'i', sdkVersion: 'unleash-client-js:3.0.0', strategies: [], started: '2026-01-01T00:00:00.000Z', interval: 15000 })

type Selection = 'enabled' | 'all' | 'one'

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
  notModified: (cors, etag) => [...(cors.vary ? ['Vary', cors.vary] : []), ...cors.pairs, 'Cache-control', 'no-cache', 'ETag', etag],
}

async function handleFrontend(deps: FrontendDependencies, call: RouteCall, selection: Selection): Promise<void> {
  const { req, res } = call
  // The route waits for flags: without a set the router answered 503.
  const flags: FlagSet = call.flags!
  const clientAddress = deps.clientAddress(call.event)
  const name = selection === 'one' ? flagNameOf(req.url ?? '/') : undefined
  if (selection === 'one' && name === undefined) throw new ProxyError('API_NOT_FOUND', 'No flag of that name: give one flag name after /features/')
  let raw = call.method === 'POST' ? '' : call.search
  if (call.method === 'POST' && hasBody(call.event)) {
    assertJsonContentType(req)
    raw = await readBodyText(call.event)
  }
  // A flag name comes from the path: only an existing flag's answer is ever kept under it.
  const cacheKey = answerKey(`F${selection}|${call.method === 'POST' ? 'P' : 'G'}|${name === undefined ? '' : `${name.length}:${name}`}|`, clientAddress, raw)
  const hit = flags.responseCache?.get(cacheKey, Date.now)
  if (hit) {
    deps.prometheus.responseCache('hit')
    sendAnswer(req, res, call.method, call.cors, hit, UNLEASH_HEADERS)
    return
  }

  const context = frontendContext(call.method === 'POST' ? postedContext(raw) : parseQuery(call.search), clientAddress)
  // As Unleash 8.2: without a sessionId, a random one for this request.
  const sessionInjected = !context.sessionId
  if (sessionInjected) context.sessionId = String(Math.random())
  const trace: EvaluationTrace = { usedRandom: false, usedClock: false, usedCustomStrategy: false }
  let body: string
  try {
    if (name !== undefined) {
      const [toggle] = flags.countedVariants.has(name) ? flags.engine.evaluateAll(context, { names: [name], trace }) : []
      // A flag the caller may not see is answered as an unknown one (evaluation/visibility.ts).
      if (!toggle || (!toggle.enabled && !seesDisabledFlags(deps.config, true))) throw new ProxyError('API_NOT_FOUND', `No flag named "${name}" for this token`)
      body = flags.serializer.toggle(toggle, 'listed')
    } else {
      // /api/frontend as Unleash 8.2 (enabled flags only); /all as Edge (every flag, SDK semantics).
      const engine = selection === 'all' ? flags.engine : flags.frontendEngine
      body = flags.serializer.body(engine.evaluateAll(context, { includeDisabled: selection === 'all', trace }), 'listed')
    }
  } catch (error) {
    if (error instanceof CustomStrategyError) {
      deps.logger.error(error.message, error.cause)
      throw new ProxyError('INTERNAL', error.message)
    }
    throw error
  }
  const answer: CachedResponse = {
    body,
    bytes: Buffer.byteLength(body),
    etag: weakEtag(body),
    validUntil: trace.usedClock ? flags.engine.nextTimeBoundary(Date.now()) : Number.POSITIVE_INFINITY,
  }
  // The frontend API runs no enrichers (Unleash's has none).
  if (flags.responseCache && mayShareAnswer({ trace, sessionInjected, enriched: false })) flags.responseCache.set(cacheKey, answer)
  deps.prometheus.responseCache('miss')
  sendAnswer(req, res, call.method, call.cors, answer, UNLEASH_HEADERS)
}

/** Unleash reads `{ context }`; Edge also a flat context object. */
function postedContext(raw: string): Record<string, unknown> {
  let body: unknown
  try {
    body = parseStrictJson(raw)
  } catch (error) {
    throw new ProxyError('API_BAD_REQUEST', error instanceof Error ? error.message : 'the body is not JSON')
  }
  if (!isObject(body)) throw badData('/body', 'object', body)
  if (!('context' in body)) return checkContext(body, '/body')
  if (body.context === undefined || body.context === null) return {}
  if (!isObject(body.context)) throw badData('/body/context', 'object', body.context)
  return checkContext(body.context, '/body/context')
}

const isScalar = (value: unknown) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'

/** Unleash 8.2's 400 for a body its context schema refuses (its `id` is a fresh UUID too). */
function badData(path: string, expected: string, sent: unknown, format = false): ProxyError {
  const problem = format ? `must match format "${expected}"` : `must be ${expected}`
  return new ProxyError('API_BAD_DATA', 'Request validation failed: your request body or params contain invalid data. Refer to the `details` list for more information.', [
    { message: `The \`${path}\` property ${problem}. You sent ${describeSent(sent)}.`, path },
  ])
}

/** What was sent, as JSON, cut at 200 characters; a value too deeply nested to print is named so (never a stack overflow). */
function describeSent(sent: unknown): string {
  let text: string
  try {
    text = JSON.stringify(sent)
  } catch {
    return 'a value too deeply nested to show'
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}

/**
 * Unleash 8.2's context schema for a POST: the known fields and every property are strings
 * (numbers and booleans are taken as strings), `currentTime` a date-time, `properties` an object.
 */
function checkContext(context: Record<string, unknown>, path: string): Record<string, unknown> {
  for (const field of ['appName', 'environment', 'userId', 'sessionId', 'remoteAddress']) {
    const value = context[field]
    if (value !== undefined && value !== null && !isScalar(value)) throw badData(`${path}/${field}`, 'string', value)
  }
  const time = context.currentTime
  if (time !== undefined && time !== null && !isDateTime(time)) {
    throw badData(`${path}/currentTime`, 'date-time', time, true)
  }
  const properties = context.properties
  if (properties !== undefined && properties !== null) {
    if (!isObject(properties)) throw badData(`${path}/properties`, 'object', properties)
    for (const [key, value] of Object.entries(properties)) {
      if (value !== null && !isScalar(value)) throw badData(`${path}/properties/${key}`, 'string', value)
    }
  }
  return context
}

/**
 * Unleash 8.2's context: its known fields stay at the top (numbers and booleans as strings, other
 * kinds and falsy values dropped), every other key goes into `properties`, `remoteAddress`
 * defaults to the caller's address, and a missing `appName` is `frontend-api` and a missing
 * `environment` is `default`, as Unleash's frontend API evaluates. (Which flags are evaluated is
 * the token's environment's alone: the context's `environment` is only a value for constraints.)
 */
export function frontendContext(raw: Record<string, unknown>, clientAddress: string | undefined): Context {
  const scalar = stringifyScalars(raw)
  for (const field of ['appName', 'userId', 'sessionId', 'remoteAddress', 'environment']) {
    if (scalar[field] !== undefined && typeof scalar[field] !== 'string') delete scalar[field]
  }
  // Unleash keeps no `currentTime` field: it is a property like any unknown key.
  if ('currentTime' in scalar) {
    scalar.properties = { currentTime: scalar.currentTime, ...(isObject(scalar.properties) ? scalar.properties : {}) }
    delete scalar.currentTime
  }
  if (isObject(scalar.properties)) scalar.properties = stringifyScalars(scalar.properties)
  const context = normalizeContext(scalar, clientAddress)
  context.environment ??= 'default'
  context.appName ??= 'frontend-api'
  return context
}

/** A copy with numbers and booleans as strings (Unleash takes `"userId": 7` as `"7"`). */
function stringifyScalars(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(values)) out[key] = typeof value === 'number' || typeof value === 'boolean' ? String(value) : value
  return out
}
