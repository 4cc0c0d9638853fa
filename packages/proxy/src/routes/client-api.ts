// The server-SDK API for client tokens (docs/edge-compatibility.md): /api/client/features (the
// token's environment and projects only, segments included, a strong ETag and 304, the `project`
// and `namePrefix` filters), /api/client/features/<name>, and the SDK's metrics (plain and Edge's
// bulk form) and registration, answered 202 as Unleash does. Counts go to the caller's scope,
// whose sync sends them upstream with its own client token.
import type { ServerResponse } from 'node:http'
import type { H3Event } from 'h3'
import type { StoredFeature } from '@vexil/engine'
import { isObject } from '../http/body.js'
import { ProxyError } from '../http/errors.js'
import { matchesIfNoneMatch } from '../http/etag.js'
import { JSON_CONTENT_TYPE, sendBody } from '../http/respond.js'
import type { RouteDeclaration } from '../routing/route-declaration.js'
import { flagNameOf } from '../routing/route-path.js'
import type { FlagSet } from '../scope/flag-set.js'
import { clientFilter, featuresBody, strongEtag, type TaggedBody } from '../answers/client-features.js'
import { bulkRegistrations, bulkRows } from './bulk-metrics.js'
import { postedApp, readJson, validateMetrics, validateRegistration } from './client-metrics.js'

const EXAMPLE_METRICS = JSON.stringify({
  appName: 'example',
  instanceId: 'i',
  bucket: { start: '2026-01-01T00:00:00.000Z', stop: '2026-01-01T00:01:00.000Z', toggles: {} },
})
const EXAMPLE_REGISTRATION = JSON.stringify({
  appName: 'example',
  interval: 15000,
  started: '2026-01-01T00:00:00.000Z',
  strategies: ['default'],
})

export function clientApiRoutes(): RouteDeclaration[] {
  const base = { access: 'client-token', cors: 'none' } as const
  return [
    {
      ...base,
      methods: ['GET', 'HEAD', 'POST'],
      path: '/api/client/features',
      waitsForFlags: true,
      example: { status: 200 },
      handle: handleFeatures,
    },
    {
      ...base,
      methods: ['GET', 'HEAD'],
      path: '/api/client/features',
      prefix: 'below',
      waitsForFlags: true,
      example: { status: 200, path: '/api/client/features/example' },
      handle: handleFeature,
    },
    {
      ...base,
      methods: ['POST'],
      path: '/api/client/metrics',
      waitsForFlags: false,
      example: { status: 202, body: EXAMPLE_METRICS },
      handle: handleMetrics,
    },
    {
      ...base,
      methods: ['POST'],
      path: '/api/client/metrics/bulk',
      waitsForFlags: false,
      example: { status: 202, body: '{"applications":[],"metrics":[]}' },
      handle: handleBulkMetrics,
    },
    {
      ...base,
      methods: ['POST'],
      path: '/api/client/register',
      waitsForFlags: false,
      example: { status: 202, body: EXAMPLE_REGISTRATION },
      handle: handleRegister,
    },
  ]
}

// --- Features ---

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

function sendJson(event: H3Event, body: TaggedBody): void {
  const { req, res } = event.node
  const { method } = event
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

function handleFeatures(event: H3Event): void {
  const { flags, caller, url } = event.context
  sendJson(event, featuresBody(flags!, clientFilter(caller!.token, url!.search)))
}

function handleFeature(event: H3Event): void {
  const name = flagNameOf(event)
  const feature = name === undefined ? undefined : definitionOf(event.context.flags!, name)
  if (!feature) throw new ProxyError('API_NOT_FOUND', `No flag named "${name ?? ''}" for this token`)
  const text = JSON.stringify(feature)
  sendJson(event, { text, etag: strongEtag(text) })
}

// --- Metrics and registration ---

function accepted(res: ServerResponse): void {
  res.statusCode = 202
  res.setHeader('content-length', '0')
  res.end()
}

async function handleMetrics(event: H3Event): Promise<void> {
  const body = await readJson(event)
  const toggles = validateMetrics(body)
  const { view, token } = event.context.caller!
  view.usage.merge(toggles, postedApp(body as Record<string, unknown>, token.environment))
  accepted(event.node.res)
}

/**
 * Edge's bulk form, as a Vexil or an Edge in front of this one forwards it: each row counted under
 * its own app, each registration kept, so the upstream sees the apps behind the whole chain.
 * Other environments' rows are dropped, as Edge does.
 */
async function handleBulkMetrics(event: H3Event): Promise<void> {
  const body = await readJson(event)
  if (!isObject(body) || !Array.isArray(body.metrics))
    throw new ProxyError('API_BAD_REQUEST', 'The body must be { "applications": [...], "metrics": [...] }')
  const { view, token } = event.context.caller!
  for (const [app, toggles] of bulkRows(body.metrics, token.environment)) view.usage.merge(toggles, app)
  if (Array.isArray(body.applications)) {
    for (const registration of bulkRegistrations(body.applications, token.environment))
      view.usage.register(registration)
  }
  accepted(event.node.res)
}

async function handleRegister(event: H3Event): Promise<void> {
  const { view, token } = event.context.caller!
  view.usage.register(validateRegistration(await readJson(event), token.environment))
  accepted(event.node.res)
}
