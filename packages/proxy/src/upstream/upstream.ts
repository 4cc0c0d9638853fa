// The upstream service's client API as the proxy calls it (docs/old-proxy-compatibility.md
// section 5): @vexil/sync's client (identifying headers and CUSTOM_CLIENT_HEADERS on every call,
// filters as query parameters) through undici by default (dispatcher.ts: forward proxy, CAs,
// client certificate), plus the two calls only the proxy makes.
import { randomUUID } from 'node:crypto'
import {
  createUpstreamClient,
  type HttpResponse,
  identityHeaders,
  observedSend,
  type OpenEventSource,
  type SendRequest,
  type UpstreamCallObserver,
  type UpstreamClient,
  type UpstreamClientOptions,
} from '@vexil/sync'
import type { TraceCarrier, Tracing } from '@vexil/server-kit/tracing'
import type { ProxyConfig } from '../config/types.js'
import { tracedEventSource, tracedSend } from './traced-transport.js'
import { createUpstreamTransport, type UpstreamTransport } from './transport.js'

const SDK_NAME = 'vexil-proxy'
export const SDK_VERSION = '0.1.0'
const TIMEOUT_MS = 10_000

export interface Upstream extends UpstreamClient {
  /**
   * A one-off GET with an Authorization header (expBootstrap, a token's check). `causes`: the
   * spans of the requests it is made for (tracing: its span's parent and links).
   */
  fetchBootstrap(
    url: string,
    authorization: string | undefined,
    causes?: readonly TraceCarrier[],
  ): Promise<HttpResponse>
  /** `POST /edge/validate` (no token: Unleash and Edge answer it without one); `causes` as above. */
  validateTokens(secrets: readonly string[], causes?: readonly TraceCarrier[]): Promise<HttpResponse>
}

/** Which token an upstream client sends, and whether the configured filters apply. */
interface UpstreamIdentity {
  /** Default: SERVICE_API_TOKEN. */
  token?: string
  /** Default true: PROJECT_NAME, NAME_PREFIX and TAGS narrow the fetch (the static scope); a token's scope uses none. */
  filters?: boolean
  /** How calls are sent: by the runtime's transport (transport.ts) unless given (a Worker tracks its calls). */
  send?: SendRequest
  /** How the stream is opened: by the runtime's transport unless given. */
  openEventSource?: OpenEventSource
  /** Told how each call ended (Prometheus's upstream counters). */
  observe?: UpstreamCallObserver
  /** A CLIENT span per call, its traceparent sent upstream (OTEL_*: telemetry/). */
  tracing?: Tracing
}

type Filters = Pick<ProxyConfig, 'projectName' | 'namePrefix' | 'tags'>

/** The filters as the query of `/client/features` and `/client/streaming`. */
function filterQuery(config: Filters): string {
  const query = new URLSearchParams()
  if (config.projectName) query.append('project', config.projectName)
  if (config.namePrefix) query.append('namePrefix', config.namePrefix)
  for (const tag of config.tags) query.append('tag', `${tag.name}:${tag.value}`)
  return query.toString()
}

export function featuresUrl(config: Pick<ProxyConfig, 'serviceUrl'> & Filters, route = 'features'): string {
  const search = filterQuery(config)
  return `${apiBase(config.serviceUrl)}/client/${route}${search ? `?${search}` : ''}`
}

/** The API root without a trailing slash; a trailing `/features` is dropped, as the SDK did. */
function apiBase(serviceUrl: string): string {
  return serviceUrl
    .replace(/\/+$/, '')
    .replace(/\/client\/features$/, '')
    .replace(/\/features$/, '')
}

/** `/edge/validate` sits beside `/api`, not under it (SERVICE_URL names the API root, `.../api`). */
function edgeValidateUrl(serviceUrl: string): string {
  return `${apiBase(serviceUrl).replace(/\/api$/, '')}/edge/validate`
}

export function createHttpUpstream(config: ProxyConfig, identity: UpstreamIdentity = {}): Upstream {
  // Made on first use: a Worker passes its own `send` and never opens a stream.
  let transport: UpstreamTransport | undefined
  const runtime = () => (transport ??= createUpstreamTransport(config.upstreamNetwork, config.rejectUnauthorized))
  const untracedSend: SendRequest = identity.send ?? ((url, request) => runtime().send(url, request))
  const openEventSource: OpenEventSource =
    identity.openEventSource ?? ((url, stream, handlers) => runtime().openEventSource(url, stream, handlers))
  const { tracing } = identity
  const send = tracing ? tracedSend(untracedSend, tracing) : untracedSend
  /** How a call made for the requests whose spans are `causes` (tracing) is sent. */
  const sendFor = (causes: readonly TraceCarrier[] | undefined): SendRequest =>
    tracing && causes?.length ? tracedSend(untracedSend, tracing, causes) : send
  const options: UpstreamClientOptions = {
    apiUrl: apiBase(config.serviceUrl),
    query: identity.filters === false ? '' : filterQuery(config),
    token: identity.token ?? config.serviceApiToken,
    appName: config.serviceAppName,
    instanceId: config.serviceInstanceId,
    connectionId: randomUUID(),
    sdk: `${SDK_NAME}:${SDK_VERSION}`,
    strategies: config.customStrategies.map((strategy) => strategy.name),
    refreshInterval: config.refreshInterval,
    metricsInterval: config.metricsInterval,
    timeoutMs: TIMEOUT_MS,
    rejectUnauthorized: config.rejectUnauthorized,
    send,
    openEventSource: tracing ? tracedEventSource(openEventSource, tracing) : openEventSource,
    headers: config.upstreamNetwork.headers,
    observe: identity.observe,
  }
  /** The SDK's identifying headers without the upstream token, which only goes to the upstream itself. */
  const anonymous = identityHeaders(options, undefined, false)
  const validateSend = (causes: readonly TraceCarrier[] | undefined) =>
    identity.observe ? observedSend(sendFor(causes), 'validation', identity.observe) : sendFor(causes)
  return {
    ...createUpstreamClient(options),
    fetchBootstrap: (bootstrapUrl, authorization, causes) =>
      sendFor(causes)(bootstrapUrl, {
        method: 'GET',
        headers: {
          ...anonymous,
          accept: 'application/json',
          'accept-encoding': 'gzip, deflate, br',
          ...(authorization ? { authorization } : {}),
        },
        timeoutMs: TIMEOUT_MS,
        rejectUnauthorized: config.rejectUnauthorized,
      }),
    validateTokens: (secrets, causes) =>
      validateSend(causes)(edgeValidateUrl(config.serviceUrl), {
        method: 'POST',
        headers: { ...anonymous, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ tokens: secrets }),
        timeoutMs: TIMEOUT_MS,
        rejectUnauthorized: config.rejectUnauthorized,
      }),
  }
}
