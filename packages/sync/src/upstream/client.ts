// The upstream's client API, called as the Unleash SDKs call it (the proxy's old SDK, unleash-
// client): the token as Authorization and the SDK's identifying headers on every call, a timeout
// on each (not on the stream, which has a read timeout), filters as query parameters.
import { BUILT_IN_STRATEGY_NAMES } from '@vexil/engine'
import type { MetricsBucket } from '../usage/metrics-bucket.js'
import { bulkBody } from '../usage/bulk-body.js'
import {
  type EventSourceHandlers,
  type HttpResponse,
  observedEventSource,
  observedSend,
  type OpenEventSource,
  type SendRequest,
  type UpstreamCallObserver,
} from './http.js'

/** The client-specification version sent (the old proxy's SDK and unleash-client's streaming send 5.2.0). */
const CLIENT_SPEC_VERSION = '5.2.0'
/** A stream silent this long is dead: the Vexil service sends keep-alives every 15 s, Edge every 30 s. */
const STREAM_READ_TIMEOUT_MS = 60_000

export interface UpstreamClient {
  /** `GET {api}/client/features`, conditional on `etag`. */
  fetchFeatures(etag: string | undefined): Promise<HttpResponse>
  /** Opens `GET {api}/client/streaming` (same token and filters), resuming after `lastEventId`; returns the function that closes it. */
  openStream(lastEventId: string | undefined, handlers: EventSourceHandlers): () => void
  register(): Promise<HttpResponse>
  sendMetrics(bucket: MetricsBucket): Promise<HttpResponse>
  /** `POST {api}/client/metrics/bulk`: every app's counts and registrations under their own names. */
  sendBulk?(bucket: MetricsBucket): Promise<HttpResponse>
}

export interface UpstreamClientOptions {
  /** The API root without a trailing slash: `http://127.0.0.1:4242/api`. */
  apiUrl: string
  /** Added to the features and streaming URLs (`project=...&tag=...`); none by default. */
  query?: string
  /** Sent as Authorization (none when unset). */
  token: string | undefined
  appName: string
  instanceId: string
  /** Random per client: tells the upstream one process's requests apart. */
  connectionId: string
  /** Sent with the registration and the metrics when set. */
  environment?: string | undefined
  /** `name:version`, the `unleash-sdk` header and the registration's `sdkVersion`. */
  sdk: string
  /** Custom strategy names, registered after the built-in ones. */
  strategies: readonly string[]
  refreshInterval: number
  metricsInterval: number
  /** Extra headers for every call; they cannot replace Authorization, `unleash-sdk` or `unleash-connection-id`. */
  headers?: Record<string, string>
  /** When the client started, for the registration. Default: now. */
  started?: Date
  timeoutMs: number
  /** The proxy transport's TLS check (default true); `fetch` always verifies. */
  rejectUnauthorized?: boolean
  send: SendRequest
  openEventSource: OpenEventSource
  /** Told how each call ended, by kind (the proxy's Prometheus counters); none by default. */
  observe?: UpstreamCallObserver
}

/** The identifying headers of every call; the token only with `withToken` (a bootstrap URL or `/edge/validate` get none). */
export function identityHeaders(
  options: UpstreamClientOptions,
  interval: number | undefined,
  withToken = true,
): Record<string, string> {
  return {
    'user-agent': options.appName,
    'unleash-appname': options.appName,
    'unleash-instanceid': options.instanceId,
    'unleash-client-spec': CLIENT_SPEC_VERSION,
    ...options.headers,
    // As in unleash-client, these are not the caller's to override.
    ...(withToken && options.token !== undefined ? { authorization: options.token } : {}),
    'unleash-sdk': options.sdk,
    'unleash-connection-id': options.connectionId,
    ...(interval !== undefined ? { 'unleash-interval': String(interval) } : {}),
  }
}

export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const { apiUrl, timeoutMs, observe } = options
  const sendAs = (kind: 'features' | 'metrics' | 'register'): SendRequest =>
    observe ? observedSend(options.send, kind, observe) : options.send
  const fetchSend = sendAs('features')
  const metricsSend = sendAs('metrics')
  const registerSend = sendAs('register')
  const openEventSource = observe ? observedEventSource(options.openEventSource, observe) : options.openEventSource
  const rejectUnauthorized = options.rejectUnauthorized ?? true
  const started = (options.started ?? new Date()).toISOString()
  const search = options.query ? `?${options.query}` : ''
  const platform = { ...runtimePlatform(), yggdrasilVersion: null, specVersion: CLIENT_SPEC_VERSION }
  const environment = options.environment !== undefined ? { environment: options.environment } : {}
  const reporter = {
    appName: options.appName,
    instanceId: options.instanceId,
    environment: options.environment ?? tokenEnvironment(options.token) ?? 'default',
  }
  const post = (send: SendRequest, path: string, body: unknown, interval: number | undefined) =>
    send(`${apiUrl}${path}`, {
      method: 'POST',
      headers: {
        ...identityHeaders(options, interval),
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify(body),
      timeoutMs,
      rejectUnauthorized,
    })
  return {
    fetchFeatures: (etag) =>
      fetchSend(`${apiUrl}/client/features${search}`, {
        method: 'GET',
        headers: {
          ...identityHeaders(options, options.refreshInterval),
          accept: 'application/json',
          'accept-encoding': 'gzip, deflate, br',
          ...(etag ? { 'if-none-match': etag } : {}),
        },
        timeoutMs,
        rejectUnauthorized,
      }),
    openStream: (lastEventId, handlers) =>
      openEventSource(
        `${apiUrl}/client/streaming${search}`,
        {
          headers: {
            ...identityHeaders(options, undefined),
            ...(lastEventId !== undefined ? { 'last-event-id': lastEventId } : {}),
          },
          rejectUnauthorized,
          readTimeoutMs: STREAM_READ_TIMEOUT_MS,
        },
        handlers,
      ),
    register: () =>
      post(
        registerSend,
        '/client/register',
        {
          appName: options.appName,
          instanceId: options.instanceId,
          connectionId: options.connectionId,
          sdkVersion: options.sdk,
          strategies: [...BUILT_IN_STRATEGY_NAMES, ...options.strategies],
          started,
          interval: options.metricsInterval,
          ...environment,
          ...platform,
        },
        undefined,
      ),
    sendMetrics: (bucket) =>
      post(
        metricsSend,
        '/client/metrics',
        {
          appName: options.appName,
          instanceId: options.instanceId,
          connectionId: options.connectionId,
          ...environment,
          bucket,
          ...platform,
        },
        options.metricsInterval,
      ),
    sendBulk: (bucket) =>
      post(metricsSend, '/client/metrics/bulk', bulkBody(bucket, reporter), options.metricsInterval),
  }
}

// --- Internal helpers ---

/** An Unleash token's environment (`project:environment.secret`): Unleash keeps only bulk rows of it. */
function tokenEnvironment(token: string | undefined): string | undefined {
  return token === undefined ? undefined : /^[^:.]+:([^.]+)\./.exec(token)?.[1]
}

/** The runtime the client runs on, as it registers upstream (Unleash shows it per SDK instance). */
function runtimePlatform(): { platformName: string; platformVersion: string } {
  const global = globalThis as {
    Bun?: { version: string }
    Deno?: { version: { deno: string } }
    navigator?: { userAgent?: string }
    process?: { versions?: { node?: string } }
  }
  if (global.Bun) return { platformName: 'bun', platformVersion: global.Bun.version }
  if (global.Deno) return { platformName: 'deno', platformVersion: global.Deno.version.deno }
  if (global.navigator?.userAgent === 'Cloudflare-Workers') return { platformName: 'workerd', platformVersion: '' }
  return { platformName: 'node', platformVersion: global.process?.versions?.node ?? '' }
}
