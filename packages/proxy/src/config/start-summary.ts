// What the proxy's start says: where it listens, the routes it actually serves (without
// SERVICE_API_TOKEN there is no /proxy, so none is named), the app name and where it comes from,
// and where the last good flags are kept.
import type { ProxyConfig } from './types.js'

/**
 * The lines printed once the proxy listens on `port` (`workers`: the cluster's size, when one
 * runs; `httpsPort`: where TLS_ENABLE's HTTPS listener answers).
 */
export function startSummary(config: ProxyConfig, port: number, workers?: number, httpsPort?: number): string[] {
  const hostname = config.host ?? '0.0.0.0'
  const everywhere = hostname === '0.0.0.0' || hostname === '::'
  const shown = everywhere ? '127.0.0.1' : hostname.includes(':') ? `[${hostname}]` : hostname
  const notes = [
    ...(everywhere ? ['every other interface too: HOST sets one'] : []),
    ...(workers ? [`${workers} workers`] : []),
  ]
  return [
    `Vexil proxy listening on http://${shown}:${port}${config.proxyBasePath}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`,
    ...(httpsPort !== undefined
      ? [
          `  HTTPS:    https://${shown}:${httpsPort}${config.proxyBasePath}${config.tls?.redirectHttp ? ' (the HTTP port redirects here)' : ''}`,
        ]
      : []),
    `  Routes:   ${servedRoutes(config)}`,
    `  App name: ${config.serviceAppName} (${config.serviceAppNameFrom})`,
    `  Backups:  ${backups(config)}`,
  ]
}

function servedRoutes(config: ProxyConfig): string {
  const base = config.proxyBasePath
  const routes = [
    ...(config.serviceApiToken ? [`${base}/proxy${config.enableAllEndpoint ? ' (and /all)' : ''}`] : []),
    `${base}/api/frontend${config.frontendAllEndpoint ? ' (and /all)' : ''}`,
    `${base}/api/client${config.streaming ? ' (with /streaming and /delta)' : ''}`,
    `${base}/ofrep/v1`,
    `${base}/edge/validate`,
    `${base}/internal-backstage`,
    ...(config.enableOAS ? [`${base}/docs`] : []),
  ]
  return `${routes.join(', ')}${config.serviceApiToken ? '' : '; no /proxy (it needs SERVICE_API_TOKEN and SERVICE_PROXY_CLIENT_KEYS)'}`
}

function backups(config: ProxyConfig): string {
  switch (config.storage.kind) {
    case 'redis':
      return 'Redis (REDIS_URL)'
    case 'memory':
      return 'in memory only (STORAGE_PROVIDER=memory)'
    case 'custom':
      return 'the storage provider given in code'
    default:
      return `files in ${config.storage.fileDirectory ?? './.vexil/proxy'}`
  }
}
