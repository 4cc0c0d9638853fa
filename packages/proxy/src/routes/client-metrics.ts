// POST /proxy/client/metrics (and /proxy/all/client/metrics) and /proxy/client/register
// (docs/old-proxy-compatibility.md 1.6): for a client key or a server-side token (checked by the
// router before the body is read), no readiness check, bodies validated like the old
// schemas (first error, same shape). Posted counts and registrations are kept under the posting
// SDK's app and forwarded upstream with the proxy's own (@vexil/sync's usage/bulk-body.ts).
import type { H3Event } from 'h3'
import { assertJsonContentType, hasBody, isDateTime, isObject, parseStrictJson } from '../http/body.js'
import { readBodyText } from '../http/read-body.js'
import { validationError } from '../http/errors.js'
import { sendText } from '../http/respond.js'
import type { Logger } from '../logger.js'
import type { RouteDeclaration } from '../routing/route-declaration.js'
import type { AppIdentity, AppRegistration } from '@vexil/sync'
import type { UsageSink } from '../scope/scope-view.js'

function required(schema: string, body: Record<string, unknown>, fields: string[], path = '/body'): void {
  for (const field of fields) {
    if (body[field] === undefined) {
      throw validationError(
        path,
        'required',
        { missingProperty: field },
        `must have required property '${field}'`,
        `#/components/schemas/${schema}/required`,
      )
    }
  }
}

function expectString(schema: string, value: unknown, path: string): void {
  if (typeof value !== 'string')
    throw validationError(
      path,
      'type',
      { type: 'string' },
      'must be string',
      `#/components/schemas/${schema}${path.replace('/body', '/properties')}/type`,
    )
}

/** ajv `coerceTypes` for a non-negative integer: "2" is 2. */
function count(value: unknown, path: string): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  if (typeof number !== 'number' || !Number.isInteger(number))
    throw validationError(
      path,
      'type',
      { type: 'integer' },
      'must be integer',
      '#/components/schemas/registerMetricsSchema/properties/bucket/properties/toggles/additionalProperties/type',
    )
  if (number < 0)
    throw validationError(
      path,
      'minimum',
      { comparison: '>=', limit: 0 },
      'must be >= 0',
      '#/components/schemas/registerMetricsSchema/properties/bucket/properties/toggles/additionalProperties/minimum',
    )
  return number
}

type PostedToggles = Record<string, { yes: number; no: number; variants: Record<string, number> }>

export function validateMetrics(body: unknown): PostedToggles {
  const schema = 'registerMetricsSchema'
  if (!isObject(body))
    throw validationError('/body', 'type', { type: 'object' }, 'must be object', `#/components/schemas/${schema}/type`)
  required(schema, body, ['appName', 'instanceId', 'bucket'])
  expectString(schema, body.appName, '/body/appName')
  expectString(schema, body.instanceId, '/body/instanceId')
  if (body.environment !== undefined) expectString(schema, body.environment, '/body/environment')
  const bucket = body.bucket
  if (!isObject(bucket))
    throw validationError(
      '/body/bucket',
      'type',
      { type: 'object' },
      'must be object',
      `#/components/schemas/${schema}/properties/bucket/type`,
    )
  required(schema, bucket, ['start', 'stop', 'toggles'], '/body/bucket')
  for (const field of ['start', 'stop'] as const) {
    if (!isDateTime(bucket[field]))
      throw validationError(
        `/body/bucket/${field}`,
        'format',
        { format: 'date-time' },
        'must match format "date-time"',
        `#/components/schemas/${schema}/properties/bucket/properties/${field}/format`,
      )
  }
  if (!isObject(bucket.toggles))
    throw validationError(
      '/body/bucket/toggles',
      'type',
      { type: 'object' },
      'must be object',
      `#/components/schemas/${schema}/properties/bucket/properties/toggles/type`,
    )
  const toggles: PostedToggles = Object.create(null) as PostedToggles
  for (const [name, counts] of Object.entries(bucket.toggles)) {
    const path = `/body/bucket/toggles/${name}`
    if (!isObject(counts))
      throw validationError(
        path,
        'type',
        { type: 'object' },
        'must be object',
        `#/components/schemas/${schema}/properties/bucket/properties/toggles/additionalProperties/type`,
      )
    const variants: Record<string, number> = Object.create(null) as Record<string, number>
    if (counts.variants !== undefined) {
      if (!isObject(counts.variants))
        throw validationError(
          `${path}/variants`,
          'type',
          { type: 'object' },
          'must be object',
          `#/components/schemas/${schema}/properties/bucket/properties/toggles/additionalProperties/properties/variants/type`,
        )
      for (const [variant, n] of Object.entries(counts.variants))
        variants[variant] = count(n, `${path}/variants/${variant}`)
    }
    toggles[name] = {
      yes: counts.yes === undefined ? 0 : count(counts.yes, `${path}/yes`),
      no: counts.no === undefined ? 0 : count(counts.no, `${path}/no`),
      variants,
    }
  }
  return toggles
}

/**
 * The SDK that posted metrics or a registration; `environment` is the caller token's, where it
 * has one. An instance id that is not text is `defaultInstanceId`.
 */
export function postedApp(
  body: Record<string, unknown>,
  environment: string | undefined,
  defaultInstanceId = 'default',
): AppIdentity {
  const app: AppIdentity = { appName: textOf(body.appName, ''), instanceId: textOf(body.instanceId, defaultInstanceId) }
  if (environment !== undefined) app.environment = environment
  return app
}

/**
 * A posted name as text: a string as sent, a number or boolean as written; anything else (an
 * object, an array, null) is `fallback`, never String()'s guess at it (or its TypeError, for an
 * object whose toString is not a function).
 */
function textOf(value: unknown, fallback: string): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return fallback
}

export function validateRegistration(body: unknown, environment?: string): AppRegistration {
  const schema = 'registerClientSchema'
  if (!isObject(body))
    throw validationError('/body', 'type', { type: 'object' }, 'must be object', `#/components/schemas/${schema}/type`)
  required(schema, body, ['appName', 'interval', 'started', 'strategies'])
  expectString(schema, body.appName, '/body/appName')
  if (
    typeof body.interval !== 'number' &&
    !(typeof body.interval === 'string' && body.interval.trim() !== '' && !Number.isNaN(Number(body.interval)))
  ) {
    throw validationError(
      '/body/interval',
      'type',
      { type: 'number' },
      'must be number',
      `#/components/schemas/${schema}/properties/interval/type`,
    )
  }
  if (!isDateTime(body.started) && typeof body.started !== 'number') {
    throw validationError(
      '/body/started',
      'anyOf',
      {},
      'must match a schema in anyOf',
      `#/components/schemas/${schema}/properties/started/anyOf`,
    )
  }
  if (!Array.isArray(body.strategies) || body.strategies.some((s) => typeof s !== 'string')) {
    throw validationError(
      '/body/strategies',
      'type',
      { type: 'array' },
      'must be array',
      `#/components/schemas/${schema}/properties/strategies/type`,
    )
  }
  for (const field of ['instanceId', 'sdkVersion', 'environment'])
    if (body[field] !== undefined) expectString(schema, body[field], `/body/${field}`)
  const registration: AppRegistration = {
    ...postedApp(body, environment),
    sdkType: 'backend',
    strategies: body.strategies as string[],
    interval: Number(body.interval),
    started: typeof body.started === 'number' ? new Date(body.started).toISOString() : (body.started as string),
  }
  if (typeof body.sdkVersion === 'string') registration.sdkVersion = body.sdkVersion
  return registration
}

export async function readJson(event: H3Event): Promise<unknown> {
  if (!hasBody(event)) return {}
  assertJsonContentType(event.node.req)
  return parseStrictJson(await readBodyText(event))
}

const EXAMPLE_METRICS = JSON.stringify({
  appName: 'example',
  instanceId: 'example',
  bucket: { start: '2024-01-01T00:00:00.000Z', stop: '2024-01-01T00:00:10.000Z', toggles: {} },
})
const EXAMPLE_REGISTRATION = JSON.stringify({
  appName: 'example',
  interval: 10000,
  started: '2024-01-01T00:00:00.000Z',
  strategies: ['default'],
})

interface ClientMetricsDependencies {
  usage: UsageSink
  logger: Logger
}

export function clientMetricsRoutes(deps: ClientMetricsDependencies): RouteDeclaration[] {
  const metrics = (path: string): RouteDeclaration => ({
    methods: ['POST'],
    path,
    access: 'client-key-or-server-token',
    // Counts are buffered even before the first payload, as the old proxy did.
    waitsForFlags: false,
    example: { status: 200, body: EXAMPLE_METRICS },
    handle: (event) => handleClientMetrics(deps, event),
  })
  return [
    metrics('/proxy/client/metrics'),
    metrics('/proxy/all/client/metrics'),
    {
      methods: ['POST'],
      path: '/proxy/client/register',
      access: 'client-key-or-server-token',
      waitsForFlags: false,
      example: { status: 200, body: EXAMPLE_REGISTRATION },
      handle: (event) => handleRegister(deps, event),
    },
  ]
}

async function handleClientMetrics(deps: ClientMetricsDependencies, event: H3Event): Promise<void> {
  const body = await readJson(event)
  const toggles = validateMetrics(body)
  deps.usage.merge(toggles, postedApp(body as Record<string, unknown>, undefined))
  sendText(event.node.res, 200, 'text/plain; charset=utf-8', 'OK')
}

async function handleRegister(deps: ClientMetricsDependencies, event: H3Event): Promise<void> {
  deps.usage.register(validateRegistration(await readJson(event)))
  sendText(event.node.res, 200, 'text/plain; charset=utf-8', 'OK')
}
