import type { CustomStrategy } from '@vexil/engine'
import type { StorageProvider } from '../storage/types.js'
import type { Logger, LogLevel } from '../logger.js'
import type { Timers } from '@vexil/sync'
import type { ResolvedCors } from '../http/cors.js'
import type { TrustProxy } from '../http/client-ip.js'
import type { ServerTimeouts } from '../http/server-timeouts.js'
import type { ServerTls, UpstreamNetwork } from './network.js'
import type { OfflineConfig, OfflineOptions } from './offline.js'

export type { ResolvedCors, ServerTimeouts, TrustProxy }

/** A custom context enricher (experimental): receives the context, returns the enriched one. */
export type ContextEnricher = (
  context: Record<string, unknown>,
) => Record<string, unknown> | Promise<Record<string, unknown>>

export interface CorsOptions {
  /** `*`, one origin, or a list of exact origins (a request from another origin gets no CORS headers). */
  origin?: string | string[]
  methods?: string
  /** Unset: the request's `Access-Control-Request-Headers` are reflected. */
  allowedHeaders?: string
  exposedHeaders?: string
  credentials?: boolean
  /** Seconds. */
  maxAge?: number
  preflightContinue?: boolean
  optionsSuccessStatus?: number
}

/** The options of spec section 2.5, as code passes them (`createProxyApp`, `startProxy`). */
export interface ProxyOptions {
  serviceUrl?: string
  serviceApiToken?: string
  clientKeys?: string[]
  /** Deprecated alias of `clientKeys`. */
  proxySecrets?: string[]
  port?: number
  /** Interface to listen on (default all interfaces). */
  host?: string
  proxyBasePath?: string
  serviceAppName?: string
  serviceInstanceId?: string
  refreshInterval?: number
  metricsInterval?: number
  metricsJitter?: number
  environment?: string
  projectName?: string
  logger?: Logger
  /** What the sync's polls, metrics reports and token revalidation wait with (default: the runtime's setTimeout; the Worker's due-task list). */
  timers?: Timers
  /**
   * Ready as soon as the stored backup or the first fetch gives flags, whichever comes first (the
   * first fetch still replaces a backup's flags when it lands). Default false: ready after the
   * first fetch, or when it failed, after the backup. The Worker sets it: a new isolate's first
   * request then answers from the KV copy instead of waiting for the upstream.
   */
  startWithBackup?: boolean
  useJsonLogger?: boolean
  logLevel?: LogLevel
  /** Instantiated strategies, or paths of JavaScript files exporting arrays of them. */
  customStrategies?: Array<CustomStrategy | string>
  trustProxy?: boolean | string | string[]
  namePrefix?: string
  /** `name:value` pairs. */
  tags?: Array<{ name: string; value: string }> | string
  clientKeysHeaderName?: string
  storageProvider?: StorageProvider
  enableOAS?: boolean
  /** Follow the upstream's stream of changes when it offers one, and stream to server SDKs (default true); false: poll, and 404 on /api/client/streaming and /delta. */
  streaming?: boolean
  /** The longest silence on a stream to an SDK, ms (default 15000, at most 50000). */
  streamingKeepAliveMs?: number
  /** Open SDK streams per process (default 10000); past it an SDK gets 429 and polls. */
  streamingMaxConnections?: number
  enableAllEndpoint?: boolean
  cors?: CorsOptions
  httpOptions?: { rejectUnauthorized?: boolean }
  expBootstrap?: { url?: string; urlHeaders?: { Authorization?: string }; data?: unknown[]; segments?: unknown[] }
  expServerSideSdkConfig?: { tokens?: string[] }
  /** Enricher functions, or paths of JavaScript files exporting arrays of them. */
  expCustomEnrichers?: Array<ContextEnricher | string>
  /** Vexil: responses kept for repeated identical requests, every scope together (0 turns the cache off). */
  responseCacheSize?: number
  /** Vexil: the most memory the response cache holds, every scope together, in MiB (keys, answers, compressed forms); 0 turns it off. */
  responseCacheMaxMb?: number
  /** Client tokens of the upstream to sync flags with for the Unleash API routes (Edge's TOKENS). */
  tokens?: string[]
  /** Accept only `tokens` on the Unleash API routes; default false: learn any token the upstream says is valid. */
  strict?: boolean
  /** Turns off /api/frontend/all and /api/proxy/all (Edge's --disable-all-endpoint). */
  disableAllEndpoint?: boolean
  /** Turns off both Prometheus routes, /internal-backstage/metrics and /proxy/internal-backstage/prometheus (Edge's --disable-metrics-endpoint). */
  disableMetricsEndpoint?: boolean
  /** Turns off /internal-backstage/tokens (Edge's --disable-tokens-endpoint). */
  disableTokensEndpoint?: boolean
  /** Vexil: one log line per request (default: on at LOG_LEVEL=debug, which RUST_LOG=debug and trace give, as Edge's request tracing). */
  logRequests?: boolean
  /** Vexil: how long the listening server waits for slow clients (startProxy; ms). */
  serverTimeouts?: Partial<ServerTimeouts>
  /**
   * Vexil: worker processes behind one port, `auto` for one per core (default 1: one process,
   * no cluster). Only the `vexil proxy` command starts workers; startProxy runs one process.
   */
  workers?: number | 'auto'
  /** Edge's offline mode: flags from a file, the listed tokens only, no upstream (`vexil offline`). */
  offline?: OfflineOptions
  /** Whose defaults: `edge` takes Unleash Edge's (port 3063, app name `unleash-edge`), as `vexil edge` does. Default `proxy`. */
  mode?: 'proxy' | 'edge'
}

/** Configuration after parsing and validation: every field typed and present. */
export interface ProxyConfig {
  /** Empty in offline mode without one (then unused). */
  serviceUrl: string
  /** The old proxy's upstream token: the static scope behind /proxy; undefined when only TOKENS is set. */
  serviceApiToken: string | undefined
  clientKeys: string[]
  port: number
  host: string | undefined
  proxyBasePath: string
  serviceAppName: string
  /** Where the app name comes from, for the start log (`SERVICE_APP_NAME`, or which default and why). */
  serviceAppNameFrom: string
  serviceInstanceId: string
  refreshInterval: number
  metricsInterval: number
  metricsJitter: number
  environment: string | undefined
  projectName: string | undefined
  logger: Logger
  timers: Timers
  startWithBackup: boolean
  useJsonLogger: boolean
  logLevel: LogLevel
  /** Loaded strategies (files already imported). */
  customStrategies: CustomStrategy[]
  trustProxy: TrustProxy
  namePrefix: string | undefined
  tags: Array<{ name: string; value: string }>
  clientKeysHeaderName: string
  storage: {
    provider: StorageProvider | undefined
    kind: 'custom' | 'file' | 'memory' | 'redis'
    fileDirectory?: string
    redisUrl?: string
    redisKeyPrefix?: string
  }
  enableOAS: boolean
  enableAllEndpoint: boolean
  cors: ResolvedCors
  /** Verify the upstream's TLS certificate: HTTP_OPTIONS_REJECT_UNAUTHORIZED, and not SKIP_SSL_VERIFICATION. */
  rejectUnauthorized: boolean
  /** TLS_ENABLE: the HTTPS listener (server.ts). */
  tls: ServerTls | undefined
  /** How every upstream call connects: forward proxy, CAs, client certificate, extra headers (config/network.ts). */
  upstreamNetwork: UpstreamNetwork
  bootstrap: { url?: string; authorization?: string; data?: unknown[]; segments?: unknown[] } | undefined
  serverSideTokens: string[]
  enrichers: ContextEnricher[]
  responseCacheSize: number
  /** RESPONSE_CACHE_MAX_MB in bytes. */
  responseCacheMaxBytes: number
  serverTimeouts: ServerTimeouts
  /** Client tokens to sync with at start (TOKENS). */
  tokens: string[]
  /** `strict`: only `tokens` are accepted on the Unleash API routes; `dynamic`: any token the upstream validates. */
  tokenMode: 'dynamic' | 'strict'
  /** /api/frontend/all and /api/proxy/all are served. */
  frontendAllEndpoint: boolean
  /** The Prometheus routes are served (DISABLE_METRICS_ENDPOINT unset). */
  metricsEndpoint: boolean
  /** /internal-backstage/tokens is served (DISABLE_TOKENS_ENDPOINT unset). */
  tokensEndpoint: boolean
  /** LOG_REQUESTS: one log line per request (request-log.ts), written at info level whatever LOG_LEVEL says. */
  requestLog: Logger | undefined
  /** How often known tokens are validated again (ms); a revoked token is refused within this time. */
  tokenRevalidateMs: number
  /** Worker processes `vexil proxy` runs behind its port (1: a single process, no cluster). */
  workers: number
  /** STREAMING: follow the upstream's stream of changes when it offers one, else poll (@vexil/sync's feed); serve /api/client/streaming and /delta (routes/client-streaming.ts). */
  streaming: boolean
  /** STREAMING_KEEPALIVE_MS: the longest silence on a stream to an SDK. */
  streamingKeepAliveMs: number
  /** STREAMING_MAX_CONNECTIONS: open SDK streams per process. */
  streamingMaxConnections: number
  /** Offline mode (config/offline.ts); undefined: the flags come from the upstream. */
  offline: OfflineConfig | undefined
  /** Whose defaults were taken (ProxyOptions.mode). */
  mode: 'proxy' | 'edge'
}
