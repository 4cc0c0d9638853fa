// The upstream service's client API, as the old proxy's SDK called it (docs/old-proxy-compatibility.md
// section 5): identifying headers on every call, filters as query parameters.
import { randomUUID } from 'node:crypto'
import { BUILT_IN_STRATEGY_NAMES } from '@vexil/engine'
import type { MetricsBucket } from '@vexil/sync'
import type { ProxyConfig } from '../config/types.js'
import { type EventSourceHandlers, openEventSource } from './event-source.js'
import { type HttpResponse, type SendRequest, sendRequest as sendNodeRequest } from './http-client.js'

export const SDK_NAME = 'vexil-proxy'
export const SDK_VERSION = '0.1.0'
/** The client-specification version the proxy sends (the old proxy's SDK sent 5.2.0). */
export const CLIENT_SPEC_VERSION = '5.2.0'
const TIMEOUT_MS = 10_000
/** A stream silent this long is dead: the Vexil service sends keep-alives every 15 s, Edge every 30 s. */
const STREAM_READ_TIMEOUT_MS = 60_000

export interface Upstream {
  fetchFeatures(etag: string | undefined): Promise<HttpResponse>
  /**
   * Opens the upstream's `/api/client/streaming` (same token and filters as `fetchFeatures`),
   * resuming after `lastEventId` when given; returns the function that closes it.
   */
  openStream(lastEventId: string | undefined, handlers: EventSourceHandlers): () => void
  register(): Promise<HttpResponse>
  sendMetrics(bucket: MetricsBucket): Promise<HttpResponse>
  /** A one-off GET with an Authorization header (expBootstrap). */
  fetchBootstrap(url: string, authorization: string | undefined): Promise<HttpResponse>
  /** `POST /edge/validate` (no token: Unleash and Edge answer it without one). */
  validateTokens(secrets: readonly string[]): Promise<HttpResponse>
}

/** Which token an upstream client sends, and whether the configured filters apply. */
export interface UpstreamIdentity {
  /** Default: SERVICE_API_TOKEN. */
  token?: string
  /** Default true: PROJECT_NAME, NAME_PREFIX and TAGS narrow the fetch (the static scope); a token's scope uses none. */
  filters?: boolean
  /** How calls are sent: node:http by default; the runtime's fetch in a Worker (fetch-client.ts). */
  send?: SendRequest
}

export function featuresUrl(config: Pick<ProxyConfig, 'serviceUrl' | 'projectName' | 'namePrefix' | 'tags'>, route = 'features'): string {
  const query = new URLSearchParams()
  if (config.projectName) query.append('project', config.projectName)
  if (config.namePrefix) query.append('namePrefix', config.namePrefix)
  for (const tag of config.tags) query.append('tag', `${tag.name}:${tag.value}`)
  const search = query.toString()
  return `${apiBase(config.serviceUrl)}/client/${route}${search ? `?${search}` : ''}`
}

/** The API root without a trailing slash; a trailing `/features` is dropped, as the SDK did. */
function apiBase(serviceUrl: string): string {
  return serviceUrl.replace(/\/+$/, '').replace(/\/client\/features$/, '').replace(/\/features$/, '')
}

/** `/edge/validate` sits beside `/api`, not under it (SERVICE_URL names the API root, `.../api`). */
export function edgeValidateUrl(serviceUrl: string): string {
  return `${apiBase(serviceUrl).replace(/\/api$/, '')}/edge/validate`
}

export function createHttpUpstream(config: ProxyConfig, identityOptions: UpstreamIdentity = {}): Upstream {
  const token = identityOptions.token ?? config.serviceApiToken
  const sendRequest = identityOptions.send ?? sendNodeRequest
  const connectionId = randomUUID()
  const started = new Date().toISOString()
  const base = apiBase(config.serviceUrl)
  /** The SDK's identifying headers; the upstream token only goes to the upstream itself. */
  const identity = (interval: number | undefined, withToken = true): Record<string, string> => ({
    'user-agent': config.serviceAppName,
    'unleash-appname': config.serviceAppName,
    'unleash-instanceid': config.serviceInstanceId,
    'unleash-connection-id': connectionId,
    'unleash-sdk': `${SDK_NAME}:${SDK_VERSION}`,
    'unleash-client-spec': CLIENT_SPEC_VERSION,
    ...(interval !== undefined ? { 'unleash-interval': String(interval) } : {}),
    ...(withToken ? { authorization: token } : {}),
  })
  const platform = { ...runtimePlatform(), yggdrasilVersion: null, specVersion: CLIENT_SPEC_VERSION }
  const post = (path: string, body: unknown, interval: number | undefined) =>
    sendRequest(`${base}${path}`, {
      method: 'POST',
      headers: { ...identity(interval), 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      timeoutMs: TIMEOUT_MS,
      rejectUnauthorized: config.rejectUnauthorized,
    })
  const scope = identityOptions.filters === false ? { serviceUrl: config.serviceUrl, projectName: undefined, namePrefix: undefined, tags: [] } : config
  const url = featuresUrl(scope)
  const streamUrl = featuresUrl(scope, 'streaming')

  return {
    fetchFeatures: (etag) =>
      sendRequest(url, {
        method: 'GET',
        headers: { ...identity(config.refreshInterval), accept: 'application/json', 'accept-encoding': 'gzip, deflate, br', ...(etag ? { 'if-none-match': etag } : {}) },
        timeoutMs: TIMEOUT_MS,
        rejectUnauthorized: config.rejectUnauthorized,
      }),
    openStream: (lastEventId, handlers) =>
      openEventSource(
        streamUrl,
        {
          headers: { ...identity(undefined), ...(lastEventId !== undefined ? { 'last-event-id': lastEventId } : {}) },
          rejectUnauthorized: config.rejectUnauthorized,
          readTimeoutMs: STREAM_READ_TIMEOUT_MS,
        },
        handlers,
      ),
    register: () =>
      post(
        '/client/register',
        {
          appName: config.serviceAppName,
          instanceId: config.serviceInstanceId,
          connectionId,
          sdkVersion: `${SDK_NAME}:${SDK_VERSION}`,
          strategies: [...BUILT_IN_STRATEGY_NAMES, ...config.customStrategies.map((s) => s.name)],
          started,
          interval: config.metricsInterval,
          ...platform,
        },
        undefined,
      ),
    sendMetrics: (bucket) =>
      post('/client/metrics', { appName: config.serviceAppName, instanceId: config.serviceInstanceId, connectionId, bucket, ...platform }, config.metricsInterval),
    fetchBootstrap: (bootstrapUrl, authorization) =>
      sendRequest(bootstrapUrl, {
        method: 'GET',
        headers: { ...identity(undefined, false), accept: 'application/json', 'accept-encoding': 'gzip, deflate, br', ...(authorization ? { authorization } : {}) },
        timeoutMs: TIMEOUT_MS,
        rejectUnauthorized: config.rejectUnauthorized,
      }),
    validateTokens: (secrets) =>
      sendRequest(edgeValidateUrl(config.serviceUrl), {
        method: 'POST',
        headers: { ...identity(undefined, false), 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ tokens: secrets }),
        timeoutMs: TIMEOUT_MS,
        rejectUnauthorized: config.rejectUnauthorized,
      }),
  }
}

/** The runtime the proxy runs on, as it registers upstream (Unleash shows it per SDK instance). */
export function runtimePlatform(): { platformName: string; platformVersion: string } {
  const global = globalThis as { Bun?: { version: string }; Deno?: { version: { deno: string } }; navigator?: { userAgent?: string } }
  if (global.Bun) return { platformName: 'bun', platformVersion: global.Bun.version }
  if (global.Deno) return { platformName: 'deno', platformVersion: global.Deno.version.deno }
  if (global.navigator?.userAgent === 'Cloudflare-Workers') return { platformName: 'workerd', platformVersion: '' }
  return { platformName: 'node', platformVersion: process.versions.node }
}
