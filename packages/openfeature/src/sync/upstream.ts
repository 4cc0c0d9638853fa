// The upstream's client API, called as unleash-client calls it: the client key as Authorization
// and the SDK's identifying headers on every request, a timeout on each (not on the stream).
import { BUILT_IN_STRATEGY_NAMES } from '@vexil/engine'
import type { ProviderConfig } from '../options.js'
import type { MetricsBucket } from '@vexil/sync'

export const SDK_NAME = 'vexil-openfeature'
export const SDK_VERSION = '0.1.0'
/** The client-specification version sent (as unleash-client's streaming and the Vexil proxy send). */
const CLIENT_SPEC_VERSION = '5.2.0'

export interface Upstream {
  /** `GET {url}/client/features`, conditional on `etag`. */
  fetchFeatures(etag: string | undefined): Promise<Response>
  /** `GET {url}/client/streaming`, resuming after `lastEventId`; no timeout (`signal` closes it). */
  openStream(lastEventId: string | undefined, signal: AbortSignal): Promise<Response>
  register(started: Date): Promise<Response>
  sendMetrics(bucket: MetricsBucket): Promise<Response>
}

export function createUpstream(config: ProviderConfig): Upstream {
  const { url, fetch, timeout } = config
  const platform = { platformName: 'node', platformVersion: process.versions.node, yggdrasilVersion: null, specVersion: CLIENT_SPEC_VERSION }
  const headers = (interval: number | undefined, extra: Record<string, string>): Record<string, string> => ({
    'user-agent': config.appName,
    'unleash-appname': config.appName,
    'unleash-instanceid': config.instanceId,
    'unleash-client-spec': CLIENT_SPEC_VERSION,
    ...config.headers,
    ...extra,
    // As in unleash-client, these are not the caller's to override.
    authorization: config.clientKey,
    'unleash-sdk': `${SDK_NAME}:${SDK_VERSION}`,
    'unleash-connection-id': config.connectionId,
    ...(interval !== undefined ? { 'unleash-interval': String(interval) } : {}),
  })
  const post = (path: string, body: unknown, interval: number) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: headers(interval, { 'content-type': 'application/json', accept: 'application/json' }),
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeout),
    })
  return {
    fetchFeatures: (etag) =>
      fetch(`${url}/client/features`, {
        method: 'GET',
        headers: headers(config.refreshInterval, { accept: 'application/json', ...(etag !== undefined ? { 'if-none-match': etag } : {}) }),
        signal: AbortSignal.timeout(timeout),
      }),
    openStream: (lastEventId, signal) =>
      fetch(`${url}/client/streaming`, {
        method: 'GET',
        headers: headers(undefined, { accept: 'text/event-stream', 'cache-control': 'no-cache', ...(lastEventId !== undefined ? { 'last-event-id': lastEventId } : {}) }),
        signal,
      }),
    register: (started) =>
      post(
        '/client/register',
        {
          appName: config.appName,
          instanceId: config.instanceId,
          connectionId: config.connectionId,
          sdkVersion: `${SDK_NAME}:${SDK_VERSION}`,
          strategies: [...BUILT_IN_STRATEGY_NAMES, ...config.strategies.map((strategy) => strategy.name)],
          started: started.toISOString(),
          interval: config.metricsInterval,
          ...(config.environment !== undefined ? { environment: config.environment } : {}),
          ...platform,
        },
        config.metricsInterval,
      ),
    sendMetrics: (bucket) =>
      post(
        '/client/metrics',
        {
          appName: config.appName,
          instanceId: config.instanceId,
          connectionId: config.connectionId,
          ...(config.environment !== undefined ? { environment: config.environment } : {}),
          bucket,
          ...platform,
        },
        config.metricsInterval,
      ),
  }
}

/** Reads and drops a response's body (so its connection is reused); never throws. */
export async function discard(response: Response): Promise<string> {
  try {
    return await response.text()
  } catch {
    return ''
  }
}
