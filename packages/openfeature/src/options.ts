// The provider's options, validated once in the constructor into a typed config (names follow
// unleash-client's where it has one: url, appName, instanceId, environment, refreshInterval,
// metricsInterval, bootstrap, timeout, strategies, customHeaders -> headers).
import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import type { ClientFeaturesPayload, CustomStrategy } from '@vexil/engine'
import { DefaultLogger, type Logger } from '@openfeature/server-sdk'
import type { FetchFunction } from '@vexil/sync'

/** `fetch` as the provider calls it (@vexil/sync's); inject one to route, trace or fake the upstream. */
export type { FetchFunction }

export interface VexilProviderOptions {
  /** The Unleash-compatible API root, as unleash-client takes it: `http://127.0.0.1:3000/api` (proxy, Edge) or `http://127.0.0.1:4242/api` (service, Unleash). */
  url: string
  /** A client (server-side SDK) token, sent as the `Authorization` header. */
  clientKey: string
  /** Sent with every request and as the context's default `appName`. */
  appName: string
  /** Default: `<hostname>-<random>`. */
  instanceId?: string
  /** The context's default `environment` (the token decides which environment's flags are fetched). */
  environment?: string
  /** Poll interval in ms (default 15000); 0 fetches once and then only while retrying a failure. */
  refreshInterval?: number
  /** Usage metrics interval in ms (default 60000); 0 neither counts nor sends. */
  metricsInterval?: number
  /** Use `GET {url}/client/streaming` when the upstream offers it (default true); false: always poll. */
  streaming?: boolean
  /** A client features payload to serve until the first fetch (and after it, if the upstream is down at start and there is no backup). */
  bootstrap?: ClientFeaturesPayload | Record<string, unknown>
  /** A file keeping the last good flags, served at start when the upstream is down. Default: none. */
  backupPath?: string
  /** Custom strategies, passed to the engine. */
  strategies?: CustomStrategy[]
  /** Default: the global `fetch`. */
  fetch?: FetchFunction
  /** Timeout of one request in ms (default 10000). */
  timeout?: number
  /** Extra headers for every request to the upstream. */
  headers?: Record<string, string>
  /** Where sync problems are logged (default: OpenFeature's DefaultLogger: errors and warnings to the console). */
  logger?: Logger
}

export interface ProviderConfig {
  /** The API root without a trailing slash. */
  url: string
  clientKey: string
  appName: string
  instanceId: string
  /** Random per provider: tells the upstream one process's requests apart (unleash-connection-id). */
  connectionId: string
  environment: string | undefined
  refreshInterval: number
  metricsInterval: number
  streaming: boolean
  bootstrap: object | undefined
  backupPath: string | undefined
  strategies: CustomStrategy[]
  fetch: FetchFunction
  timeout: number
  /** Lower-cased names, so they merge with the provider's own headers without duplicates. */
  headers: Record<string, string>
  logger: Logger
}

function fail(message: string): never {
  throw new TypeError(`VexilProvider: ${message}`)
}

function nonEmpty(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') fail(`"${name}" must be a non-empty string`)
  return value
}

function interval(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) fail(`"${name}" must be a number of ms >= 0`)
  return value
}

export function resolveOptions(options: VexilProviderOptions): ProviderConfig {
  if (options === null || typeof options !== 'object') fail('options { url, clientKey, appName } are required')
  const url = nonEmpty(options.url, 'url').replace(/\/+$/, '')
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    fail(`"url" is not a URL: ${options.url}`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') fail(`"url" must be http(s): ${options.url}`)
  const bootstrap = options.bootstrap
  if (
    bootstrap !== undefined &&
    (bootstrap === null ||
      typeof bootstrap !== 'object' ||
      !Array.isArray((bootstrap as { features?: unknown }).features))
  ) {
    fail('"bootstrap" must be a client features payload ({ features: [...] })')
  }
  const fetchFunction = options.fetch ?? (globalThis.fetch as FetchFunction | undefined)
  if (typeof fetchFunction !== 'function') fail('no "fetch" given and no global fetch (Node 18 or later has one)')
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = String(value)
  const timeout = interval(options.timeout, 'timeout', 10_000)
  return {
    url,
    clientKey: nonEmpty(options.clientKey, 'clientKey'),
    appName: nonEmpty(options.appName, 'appName'),
    instanceId: options.instanceId ?? `${safeHostname()}-${randomUUID().slice(0, 8)}`,
    connectionId: randomUUID(),
    environment: options.environment,
    refreshInterval: interval(options.refreshInterval, 'refreshInterval', 15_000),
    metricsInterval: interval(options.metricsInterval, 'metricsInterval', 60_000),
    streaming: options.streaming ?? true,
    bootstrap,
    backupPath: options.backupPath,
    strategies: options.strategies ?? [],
    fetch: fetchFunction,
    timeout: timeout > 0 ? timeout : 10_000,
    headers,
    logger: options.logger ?? new DefaultLogger(),
  }
}

function safeHostname(): string {
  try {
    return hostname()
  } catch {
    return 'vexil'
  }
}
