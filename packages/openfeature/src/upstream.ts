// The provider's upstream: @vexil/sync's client API (unleash-client's calls: the client key as
// Authorization, the SDK's identifying headers), over the `fetch` the options give.
import { createUpstreamClient, fetchEventSource, fetchRequest, type UpstreamClient } from '@vexil/sync'
import type { ProviderConfig } from './options.js'

const SDK_NAME = 'vexil-openfeature'
export const SDK_VERSION = '0.1.0'

export function createUpstream(config: ProviderConfig): UpstreamClient {
  return createUpstreamClient({
    apiUrl: config.url,
    token: config.clientKey,
    appName: config.appName,
    instanceId: config.instanceId,
    connectionId: config.connectionId,
    environment: config.environment,
    sdk: `${SDK_NAME}:${SDK_VERSION}`,
    strategies: config.strategies.map((strategy) => strategy.name),
    refreshInterval: config.refreshInterval,
    metricsInterval: config.metricsInterval,
    headers: config.headers,
    timeoutMs: config.timeout,
    send: fetchRequest(config.fetch),
    // The stream's response headers get one request's timeout; then its 60 s read timeout applies.
    openEventSource: fetchEventSource(config.fetch, config.timeout),
  })
}
