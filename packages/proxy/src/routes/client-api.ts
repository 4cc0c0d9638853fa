// The server-SDK API for client tokens (docs/edge-compatibility.md): /api/client/features (the
// token's environment and projects only, segments included, a strong ETag and 304, the `project`
// and `namePrefix` filters), /api/client/features/<name>, and the SDK's metrics (plain and Edge's
// bulk form) and registration, answered 202 as Unleash does. Counts go to the caller's scope,
// whose sync sends them upstream with its own client token.
import { createHash } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ClientFeaturesPayload, StoredFeature, StoredSegment } from '@vexil/engine'
import { isObject } from '../http/body.js'
import { ProxyError } from '../http/errors.js'
import { matchesIfNoneMatch } from '../http/etag.js'
import { type Body, JSON_CONTENT_TYPE, sendBody } from '../http/respond.js'
import type { RouteCall, RouteDeclaration } from '../routing/route-declaration.js'
import { flagNameOf } from '../routing/route-path.js'
import type { FlagSet } from '../scope/flag-set.js'
import type { KnownToken } from '../tokens/api-token.js'
import { readJson, validateMetrics, validateRegistration } from './client-metrics.js'

const EXAMPLE_METRICS = JSON.stringify({ appName: 'example', instanceId: 'i', bucket: { start: '2026-01-01T00:00:00.000Z', stop: '2026-01-01T00:01:00.000Z', toggles: {} } })
const EXAMPLE_REGISTRATION = JSON.stringify({ appName: 'example', interval: 15000, started: '2026-01-01T00:00:00.000Z', strategies: ['default'] })

export function clientApiRoutes(): RouteDeclaration[] {
  const base = { access: 'client-token', cors: 'none' } as const
  return [
    { ...base, methods: ['GET', 'HEAD', 'POST'], path: '/api/client/features', waitsForFlags: true, example: { status: 200 }, handle: handleFeatures },
    { ...base, methods: ['GET', 'HEAD'], path: '/api/client/features', prefix: 'below', waitsForFlags: true, example: { status: 200, path: '/api/client/features/example' }, handle: handleFeature },
    { ...base, methods: ['POST'], path: '/api/client/metrics', waitsForFlags: false, example: { status: 202, body: EXAMPLE_METRICS }, handle: handleMetrics },
    { ...base, methods: ['POST'], path: '/api/client/metrics/bulk', waitsForFlags: false, example: { status: 202, body: '{"applications":[],"metrics":[]}' }, handle: handleBulkMetrics },
    { ...base, methods: ['POST'], path: '/api/client/register', waitsForFlags: false, example: { status: 202, body: EXAMPLE_REGISTRATION }, handle: handleRegister },
  ]
}

// --- Features ---

/**
 * Bodies already made, per flag set and filter: an unchanged poll costs a lookup. Keyed by what
 * the body depends on (the token's scope, the set of `project`s, `namePrefix`), not by the query
 * string as sent, and bounded by bytes: with 10k flags a body is ~11 MB, and 64 spellings of one
 * query once held 64 copies.
 */
const bodies = new WeakMap<FlagSet, Map<string, Body & { etag: string }>>()
const MAX_BODIES_PER_SET = 64
/** The most body characters kept per flag set; the newest body is kept whatever its size. */
const MAX_BODY_CHARS_PER_SET = 32 * 1024 * 1024

export function featuresBody(flags: FlagSet, token: KnownToken, search: string): Body & { etag: string } {
  const query = new URLSearchParams(search)
  const projects = [...new Set(query.getAll('project').filter((p) => p !== ''))].sort()
  const namePrefix = query.get('namePrefix') ?? undefined
  const key = JSON.stringify([token.environment, token.projects, projects, namePrefix ?? null])
  let forSet = bodies.get(flags)
  if (!forSet) bodies.set(flags, (forSet = new Map()))
  const known = forSet.get(key)
  if (known) return known
  const state = flags.engine.getState() as ClientFeaturesPayload<StoredFeature, StoredSegment>
  const features = state.features.filter(
    (feature) =>
      (projects.length === 0 || (typeof feature.project === 'string' && projects.includes(feature.project))) &&
      (namePrefix === undefined || feature.name.startsWith(namePrefix)),
  )
  const payload = {
    version: state.version ?? 2,
    features,
    segments: state.segments ?? [],
    query: { projects: token.projects, environment: token.environment, inlineSegmentConstraints: false, ...(namePrefix !== undefined ? { namePrefix } : {}) },
  }
  const text = JSON.stringify(payload)
  const made = { text, etag: strongEtag(text) }
  let kept = text.length
  for (const body of forSet.values()) kept += body.text.length
  for (const [oldest, body] of forSet) {
    if (forSet.size < MAX_BODIES_PER_SET && kept <= MAX_BODY_CHARS_PER_SET) break
    forSet.delete(oldest)
    kept -= body.text.length
  }
  forSet.set(key, made)
  return made
}

/** Each flag set's definitions by name, made on the first `/api/client/features/<name>`. */
const definitionsByName = new WeakMap<FlagSet, ReadonlyMap<string, StoredFeature>>()

function definitionOf(flags: FlagSet, name: string): StoredFeature | undefined {
  let byName = definitionsByName.get(flags)
  if (!byName) {
    byName = new Map(flags.engine.getState().features.map((feature) => [feature.name, feature]))
    definitionsByName.set(flags, byName)
  }
  return byName.get(name)
}

/** A strong ETag over a body's text: the client API's ETags are strong, as Unleash's. */
const strongEtag = (text: string) => `"${createHash('sha1').update(text).digest('base64url')}"`

function sendJson(req: IncomingMessage, res: ServerResponse, method: string, body: Body & { etag: string }): void {
  res.setHeader('content-type', JSON_CONTENT_TYPE)
  res.setHeader('cache-control', 'no-cache')
  res.setHeader('etag', body.etag)
  if (method !== 'POST' && matchesIfNoneMatch(req.headers['if-none-match'], body.etag)) {
    res.statusCode = 304
    res.removeHeader('content-type')
    res.end()
    return
  }
  sendBody(res, 200, body, req.headers['accept-encoding'], method === 'HEAD')
}

function handleFeatures({ req, res, method, search, flags, caller }: RouteCall): void {
  sendJson(req, res, method, featuresBody(flags!, caller!.token, search))
}

function handleFeature({ req, res, method, flags }: RouteCall): void {
  const name = flagNameOf(req.url ?? '/')
  const feature = name === undefined ? undefined : definitionOf(flags!, name)
  if (!feature) throw new ProxyError('API_NOT_FOUND', `No flag named "${name ?? ''}" for this token`)
  const text = JSON.stringify(feature)
  sendJson(req, res, method, { text, etag: strongEtag(text) })
}

// --- Metrics and registration ---

function accepted(res: ServerResponse): void {
  res.statusCode = 202
  res.setHeader('content-length', '0')
  res.end()
}

async function handleMetrics(call: RouteCall): Promise<void> {
  const toggles = validateMetrics(await readJson(call.req))
  call.caller!.view.usage.merge(toggles)
  accepted(call.res)
}

/** Edge's bulk form: `{ applications, metrics: [{ featureName, environment, yes, no, variants }] }`; other environments' rows are dropped, as Edge does. */
async function handleBulkMetrics(call: RouteCall): Promise<void> {
  const body = await readJson(call.req)
  if (!isObject(body) || !Array.isArray(body.metrics)) throw new ProxyError('API_BAD_REQUEST', 'The body must be { "applications": [...], "metrics": [...] }')
  const { environment } = call.caller!.token
  const toggles: Record<string, { yes: number; no: number; variants: Record<string, number> }> = Object.create(null)
  for (const row of body.metrics.slice(0, 10_000)) {
    if (!isObject(row) || typeof row.featureName !== 'string') continue
    if (row.environment !== undefined && row.environment !== environment) continue
    const counts = (toggles[row.featureName] ??= { yes: 0, no: 0, variants: Object.create(null) })
    counts.yes += wholeCount(row.yes)
    counts.no += wholeCount(row.no)
    if (isObject(row.variants)) for (const [variant, n] of Object.entries(row.variants)) counts.variants[variant] = (counts.variants[variant] ?? 0) + wholeCount(n)
  }
  call.caller!.view.usage.merge(toggles)
  accepted(call.res)
}

const wholeCount = (value: unknown) => (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0)

async function handleRegister(call: RouteCall): Promise<void> {
  validateRegistration(await readJson(call.req))
  accepted(call.res)
}
