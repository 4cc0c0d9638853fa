// Spec section 2.5, resolved once at startup: a code option wins over its environment variable
// (the spec's name first, then the old proxy's UNLEASH_* alias), which wins over the default.
// Every value is validated here; the rest of the proxy trusts the typed result.
import { randomUUID } from 'node:crypto'
import { availableParallelism, hostname, userInfo } from 'node:os'
import type { CustomStrategy } from '@vexil/engine'
import { createLogger, LOG_LEVELS, type LogLevel, redactingLogger } from '../logger.js'
import { storageConfigProblems, type StorageProviderName } from '../storage/index.js'
import { DEFAULT_KEEP_ALIVE_MS } from '../http/server-timeouts.js'
import { resolveAppName } from './app-name.js'
import { loadModuleArray } from './load-module.js'
import { NETWORK_ENV, parseNetwork, UNVERIFIED_UPSTREAM } from './network.js'
import { parseOfflineConfig } from './offline.js'
import type { ContextEnricher, ProxyConfig, ProxyOptions, ResolvedCors, TrustProxy } from './types.js'
import { ConfigError, parseBoolean, parseInteger, parseList, parseTrustedAddress, parseUrl } from './values.js'
import { systemTimers } from '@vexil/sync'

export type Environment = Record<string, string | undefined>

/** Reads the first set (non-empty) variable of `names`; returns its name too, for error messages. */
function fromEnv(env: Environment, names: readonly string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]
    if (value !== undefined && value.trim() !== '') return { name, value }
  }
  return undefined
}

const ENV = {
  serviceUrl: ['SERVICE_URL', 'UNLEASH_URL'],
  /** Edge's: the upstream's base URL, without /api. */
  upstreamUrl: ['UPSTREAM_URL'],
  tokens: ['TOKENS'],
  strict: ['STRICT'],
  disableAllEndpoint: ['DISABLE_ALL_ENDPOINT'],
  disableMetricsEndpoint: ['DISABLE_METRICS_ENDPOINT'],
  disableTokensEndpoint: ['DISABLE_TOKENS_ENDPOINT'],
  logRequests: ['LOG_REQUESTS'],
  tokenRevalidate: ['TOKEN_REVALIDATION_INTERVAL_SECONDS'],
  /** Edge's intervals, in seconds (SERVICE_FETCH_INTERVAL and SERVICE_METRICS_INTERVAL, in ms, win). */
  refreshIntervalSeconds: ['FEATURES_REFRESH_INTERVAL_SECONDS'],
  metricsIntervalSeconds: ['METRICS_INTERVAL_SECONDS'],
  serviceApiToken: ['SERVICE_API_TOKEN', 'UNLEASH_API_TOKEN'],
  clientKeys: ['SERVICE_PROXY_CLIENT_KEYS', 'UNLEASH_PROXY_CLIENT_KEYS'],
  proxySecrets: ['SERVICE_PROXY_SECRETS', 'UNLEASH_PROXY_SECRETS'],
  port: ['PORT', 'PROXY_PORT'],
  host: ['HOST'],
  proxyBasePath: ['PROXY_BASE_PATH', 'BASE_PATH'],
  serviceAppName: ['SERVICE_APP_NAME', 'UNLEASH_APP_NAME'],
  serviceInstanceId: ['SERVICE_INSTANCE_ID', 'UNLEASH_INSTANCE_ID'],
  refreshInterval: ['SERVICE_FETCH_INTERVAL', 'UNLEASH_FETCH_INTERVAL'],
  metricsInterval: ['SERVICE_METRICS_INTERVAL', 'UNLEASH_METRICS_INTERVAL'],
  metricsJitter: ['SERVICE_METRICS_JITTER', 'UNLEASH_METRICS_JITTER'],
  environment: ['SERVICE_ENVIRONMENT', 'UNLEASH_ENVIRONMENT'],
  projectName: ['SERVICE_PROJECT_NAME', 'UNLEASH_PROJECT_NAME'],
  useJsonLogger: ['JSON_LOGGER'],
  logLevel: ['LOG_LEVEL'],
  customStrategies: ['SERVICE_CUSTOM_STRATEGIES_FILE', 'UNLEASH_CUSTOM_STRATEGIES_FILE'],
  trustProxy: ['TRUST_PROXY'],
  namePrefix: ['SERVICE_NAME_PREFIX', 'UNLEASH_NAME_PREFIX'],
  tags: ['SERVICE_TAGS', 'UNLEASH_TAGS'],
  clientKeysHeaderName: ['CLIENT_KEY_HEADER_NAME'],
  enableOAS: ['ENABLE_OAS'],
  enableAllEndpoint: ['ENABLE_ALL_ENDPOINT'],
  corsAllowedHeaders: ['CORS_ALLOWED_HEADERS'],
  corsCredentials: ['CORS_CREDENTIALS'],
  corsExposedHeaders: ['CORS_EXPOSED_HEADERS'],
  corsMaxAge: ['CORS_MAX_AGE'],
  corsMethods: ['CORS_METHODS'],
  corsOptionsSuccessStatus: ['CORS_OPTIONS_SUCCESS_STATUS'],
  corsOrigin: ['CORS_ORIGIN'],
  corsPreflightContinue: ['CORS_PREFLIGHT_CONTINUE'],
  rejectUnauthorized: ['HTTP_OPTIONS_REJECT_UNAUTHORIZED'],
  bootstrapUrl: ['EXP_BOOTSTRAP_URL'],
  bootstrapAuthorization: ['EXP_BOOTSTRAP_AUTHORIZATION'],
  serverSideTokens: ['EXP_SERVER_SIDE_SDK_CONFIG_TOKENS'],
  enrichers: ['EXP_CUSTOM_ENRICHERS_FILE'],
  storageProvider: ['STORAGE_PROVIDER'],
  storageFileDirectory: ['STORAGE_FILE_DIRECTORY', 'BACKUP_FOLDER'],
  redisUrl: ['REDIS_URL'],
  redisKeyPrefix: ['REDIS_KEY_PREFIX'],
  responseCacheSize: ['RESPONSE_CACHE_SIZE'],
  responseCacheMaxMb: ['RESPONSE_CACHE_MAX_MB'],
  headersTimeout: ['HTTP_HEADERS_TIMEOUT_MS'],
  requestTimeout: ['HTTP_REQUEST_TIMEOUT_MS'],
  keepAliveTimeout: ['HTTP_KEEP_ALIVE_TIMEOUT_MS'],
  workers: ['WORKERS'],
  streaming: ['STREAMING'],
  streamingKeepAlive: ['STREAMING_KEEPALIVE_MS'],
  streamingMaxConnections: ['STREAMING_MAX_CONNECTIONS'],
} as const

/** Environment variable names the proxy reads, for `--help` and the README. */
export const PROXY_ENVIRONMENT_VARIABLES: Readonly<
  Record<keyof typeof ENV | keyof typeof NETWORK_ENV, readonly string[]>
> = { ...ENV, ...NETWORK_ENV }

/**
 * The system's host name, else $HOSTNAME, else `unknown-host`: Deno without
 * `--allow-sys=hostname` refuses os.hostname(), and the proxy still starts.
 */
function systemHostname(): string {
  try {
    return hostname()
  } catch {
    return process.env.HOSTNAME || 'unknown-host'
  }
}

/** The host name applicationHostname strategies match, as the Node SDK reads it: $HOSTNAME first. */
export function engineHostname(): string {
  return process.env.HOSTNAME || systemHostname()
}

/**
 * `<user>-<host>`, as the old proxy's SDK named it; `generated-<uuid>-<pid>-<host>` when the user
 * cannot be told: Deno without `--allow-sys=userInfo,uid,gid` refuses userInfo(), and Bun answers
 * `unknown` when it cannot tell (a container without $USER), which would give every instance one id.
 */
export function defaultInstanceId(): string {
  let user: string | undefined
  try {
    user = userInfo().username
  } catch {
    user = undefined
  }
  if (!user || user === 'unknown') user = process.env.USER || process.env.LOGNAME || undefined
  const host = systemHostname()
  return user ? `${user}-${host}` : `generated-${randomUUID()}-${process.pid}-${host}`
}

/** `'  base/path/ '` → `/base/path`, as the old proxy sanitises it. */
function sanitizeBasePath(path: string): string {
  let base = path.trim()
  if (base === '' || base === '/') return ''
  if (!base.startsWith('/')) base = `/${base}`
  if (base.endsWith('/')) base = base.slice(0, -1)
  return base
}

/**
 * Keys from code (the environment's lists are trimmed already). HTTP strips whitespace around a
 * header value (RFC 9110 5.5), so a padded key could never match, and an empty one would admit
 * an empty header: both are configuration mistakes, refused at startup.
 */
function checkKeys(variable: string, keys: readonly string[]): void {
  for (const key of keys) {
    if (typeof key !== 'string' || key.trim() === '') throw new ConfigError(variable, 'must not contain an empty key')
    if (key.trim() !== key)
      throw new ConfigError(variable, 'must not contain a key with leading or trailing whitespace')
  }
}

/** WORKERS: a positive whole number, or `auto` for the machine's cores (os.availableParallelism()). */
function parseWorkers(variable: string, value: number | string): number {
  const text = String(value).trim().toLowerCase()
  if (text === 'auto') return availableParallelism()
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw new ConfigError(variable, `must be a positive integer or auto, got "${value}"`)
  }
  return Number(text)
}

function parseTags(variable: string, text: string): Array<{ name: string; value: string }> {
  return parseList(text).map((entry) => {
    const [name, value, ...rest] = entry.split(':')
    if (!name || value === undefined || value === '' || rest.length > 0) {
      throw new ConfigError(variable, `must be tagName:tagValue pairs separated by commas, got "${entry}"`)
    }
    return { name, value }
  })
}

function parseTrustProxy(variable: string, value: boolean | string | string[]): TrustProxy {
  if (typeof value === 'boolean') return value
  const entries = Array.isArray(value) ? value.map((v) => v.trim()).filter(Boolean) : parseList(value)
  if (entries.length === 1) {
    const single = entries[0]!.toLowerCase()
    if (single === 'true') return true
    if (single === 'false') return false
  }
  return entries.flatMap((entry) => parseTrustedAddress(variable, entry))
}

function parseCors(options: ProxyOptions, env: Environment): ResolvedCors {
  // Old proxy: a `cors` object in code replaces every environment-derived value.
  if (options.cors) {
    const cors = options.cors
    return {
      origin:
        cors.origin === undefined || cors.origin === '*'
          ? '*'
          : Array.isArray(cors.origin)
            ? cors.origin
            : [cors.origin],
      methods: cors.methods ?? 'GET, POST',
      allowedHeaders: cors.allowedHeaders,
      exposedHeaders: cors.exposedHeaders ?? 'ETag',
      credentials: cors.credentials ?? false,
      maxAge: cors.maxAge ?? 172800,
      preflightContinue: cors.preflightContinue ?? false,
      optionsSuccessStatus: cors.optionsSuccessStatus ?? 204,
    }
  }
  const read = (names: readonly string[]) => fromEnv(env, names)
  const origin = read(ENV.corsOrigin)
  const originList = origin ? parseList(origin.value) : []
  const int = (names: readonly string[], fallback: number, max?: number) => {
    const found = read(names)
    return found ? parseInteger(found.name, found.value, { max }) : fallback
  }
  const bool = (names: readonly string[], fallback: boolean) => {
    const found = read(names)
    return found ? parseBoolean(found.name, found.value) : fallback
  }
  const successStatus = int(ENV.corsOptionsSuccessStatus, 204, 599)
  if (successStatus < 200 || successStatus > 299)
    throw new ConfigError('CORS_OPTIONS_SUCCESS_STATUS', `must be a 2xx status, got ${successStatus}`)
  return {
    origin: originList.length === 0 || (originList.length === 1 && originList[0] === '*') ? '*' : originList,
    methods: read(ENV.corsMethods)?.value ?? 'GET, POST',
    allowedHeaders: read(ENV.corsAllowedHeaders)?.value,
    exposedHeaders: read(ENV.corsExposedHeaders)?.value ?? 'ETag',
    credentials: bool(ENV.corsCredentials, false),
    maxAge: int(ENV.corsMaxAge, 172800),
    preflightContinue: bool(ENV.corsPreflightContinue, false),
    optionsSuccessStatus: successStatus,
  }
}

function isStrategy(value: unknown): value is CustomStrategy {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as CustomStrategy).name === 'string' &&
    typeof (value as CustomStrategy).isEnabled === 'function'
  )
}

async function loadStrategies(variable: string, entries: Array<CustomStrategy | string>): Promise<CustomStrategy[]> {
  const strategies: CustomStrategy[] = []
  for (const entry of entries) {
    const loaded = typeof entry === 'string' ? await loadModuleArray(variable, entry) : [entry]
    for (const strategy of loaded) {
      if (!isStrategy(strategy))
        throw new ConfigError(
          variable,
          `must export an array of strategies ({ name, isEnabled(parameters, context) }); found ${typeof strategy}`,
        )
      strategies.push(strategy)
    }
  }
  return strategies
}

async function loadEnrichers(variable: string, entries: Array<ContextEnricher | string>): Promise<ContextEnricher[]> {
  const enrichers: ContextEnricher[] = []
  for (const entry of entries) {
    const loaded = typeof entry === 'string' ? await loadModuleArray(variable, entry) : [entry]
    for (const enricher of loaded) {
      if (typeof enricher !== 'function')
        throw new ConfigError(
          variable,
          `must export an array of functions (context => context); found ${typeof enricher}`,
        )
      enrichers.push(enricher as ContextEnricher)
    }
  }
  return enrichers
}

/**
 * Resolves and validates the configuration. Throws `ConfigError` (naming the variable) for a
 * missing required option or a malformed value; loads custom strategy and enricher files.
 */
export async function createProxyConfig(
  options: ProxyOptions = {},
  env: Environment = process.env,
): Promise<ProxyConfig> {
  const read = (names: readonly string[]) => fromEnv(env, names)
  const str = (option: string | undefined, names: readonly string[]) =>
    option !== undefined && option !== '' ? option : read(names)?.value
  const int = (
    option: number | undefined,
    names: readonly string[],
    fallback: number,
    limits?: { min?: number; max?: number },
  ) => {
    if (option !== undefined) {
      if (!Number.isInteger(option)) throw new ConfigError(names[0]!, `must be a whole number, got ${option}`)
      return parseInteger(names[0]!, String(option), limits)
    }
    const found = read(names)
    return found ? parseInteger(found.name, found.value, limits) : fallback
  }
  const bool = (option: boolean | undefined, names: readonly string[], fallback: boolean) => {
    if (option !== undefined) return option
    const found = read(names)
    return found ? parseBoolean(found.name, found.value) : fallback
  }

  const offline = parseOfflineConfig(options.offline, env)
  const urlText = str(options.serviceUrl, ENV.serviceUrl)
  const upstreamFound = urlText ? undefined : read(ENV.upstreamUrl)
  if (!urlText && !upstreamFound && !offline) {
    throw new ConfigError(
      'SERVICE_URL',
      "is required (the API URL of the upstream service, e.g. http://localhost:4242/api; or Edge's UPSTREAM_URL, without /api)",
    )
  }
  const serviceUrl = urlText
    ? parseUrl(options.serviceUrl ? 'serviceUrl' : read(ENV.serviceUrl)!.name, urlText)
    : upstreamFound
      ? `${parseUrl(upstreamFound.name, upstreamFound.value).replace(/\/+$/, '')}/api`
      : ''
  const tokensFound = read(ENV.tokens)
  const tokens = options.tokens ?? parseList(tokensFound?.value ?? '')
  checkKeys(options.tokens ? 'tokens' : 'TOKENS', tokens)
  const serviceApiToken = str(options.serviceApiToken, ENV.serviceApiToken)
  if (!serviceApiToken && tokens.length === 0 && !offline) {
    throw new ConfigError(
      'SERVICE_API_TOKEN',
      'is required (a client API token of the upstream service), unless TOKENS lists client tokens for the Unleash API routes',
    )
  }
  const keyText = read(ENV.clientKeys)?.value ?? read(ENV.proxySecrets)?.value
  const clientKeys = options.clientKeys?.length
    ? options.clientKeys
    : options.proxySecrets?.length
      ? options.proxySecrets
      : keyText
        ? parseList(keyText)
        : []
  // The client keys belong to /proxy, served only with SERVICE_API_TOKEN.
  if (serviceApiToken && clientKeys.length === 0 && !offline)
    throw new ConfigError(
      'SERVICE_PROXY_CLIENT_KEYS',
      'is required (a comma-separated list of client keys the proxy accepts)',
    )
  checkKeys(options.clientKeys?.length ? 'clientKeys' : 'proxySecrets', clientKeys)

  const logLevelText = options.logLevel ?? read(ENV.logLevel)?.value.trim().toLowerCase() ?? 'warn'
  if (!(LOG_LEVELS as readonly string[]).includes(logLevelText))
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevelText}"`)
  const logLevel = logLevelText as LogLevel
  const useJsonLogger = bool(options.useJsonLogger, ENV.useJsonLogger, false)
  const bootstrapAuthorization =
    options.expBootstrap?.urlHeaders?.Authorization ?? read(ENV.bootstrapAuthorization)?.value
  const serverSideTokens = options.expServerSideSdkConfig?.tokens ?? parseList(read(ENV.serverSideTokens)?.value ?? '')
  checkKeys('expServerSideSdkConfig.tokens', serverSideTokens)
  const network = parseNetwork(env)
  const secrets = [
    ...(serviceApiToken ? [serviceApiToken] : []),
    ...tokens,
    ...clientKeys,
    ...serverSideTokens,
    ...(bootstrapAuthorization ? [bootstrapAuthorization] : []),
    ...(offline ? [...offline.clientTokens, ...offline.frontendTokens] : []),
    ...network.secrets,
  ]
  const logger = options.logger
    ? redactingLogger(options.logger, secrets)
    : createLogger({ level: logLevel, json: useJsonLogger, secrets })
  // Edge traces each request at debug (RUST_LOG=debug); LOG_REQUESTS turns the lines on or off at any level.
  const requestLog = bool(options.logRequests, ENV.logRequests, logLevel === 'debug')
    ? options.logger
      ? logger
      : createLogger({ level: 'info', json: useJsonLogger, secrets })
    : undefined
  const rejectUnauthorized =
    bool(options.httpOptions?.rejectUnauthorized, ENV.rejectUnauthorized, true) && !network.upstream.skipVerification
  if (!rejectUnauthorized) logger.warn(UNVERIFIED_UPSTREAM)

  const trustProxyFound = read(ENV.trustProxy)
  const trustProxy =
    options.trustProxy !== undefined
      ? parseTrustProxy('trustProxy', options.trustProxy)
      : trustProxyFound
        ? parseTrustProxy(trustProxyFound.name, trustProxyFound.value)
        : false

  const tagsFound = read(ENV.tags)
  const tags = Array.isArray(options.tags)
    ? options.tags
    : options.tags
      ? parseTags('tags', options.tags)
      : tagsFound
        ? parseTags(tagsFound.name, tagsFound.value)
        : []

  const redisUrl = read(ENV.redisUrl)?.value.trim()
  // Edge: REDIS_URL alone selects Redis.
  const storageKind = (read(ENV.storageProvider)?.value.trim().toLowerCase() ??
    (redisUrl ? 'redis' : 'file')) as StorageProviderName
  if (!options.storageProvider) {
    const [problem] = storageConfigProblems({ provider: storageKind, redisUrl })
    if (problem) {
      const [variable, ...rest] = problem.split(' ')
      throw new ConfigError(variable!, rest.join(' '))
    }
  }

  const bootstrapUrlFound = read(ENV.bootstrapUrl)
  const bootstrapUrl = options.expBootstrap?.url
    ? parseUrl('expBootstrap.url', options.expBootstrap.url)
    : bootstrapUrlFound
      ? parseUrl(bootstrapUrlFound.name, bootstrapUrlFound.value)
      : undefined
  const bootstrapData = options.expBootstrap?.data

  const strategiesFound = read(ENV.customStrategies)
  const customStrategies = await loadStrategies(
    strategiesFound && !options.customStrategies ? strategiesFound.name : 'customStrategies',
    options.customStrategies ?? (strategiesFound ? [strategiesFound.value.trim()] : []),
  )
  const enrichersFound = read(ENV.enrichers)
  const enrichers = await loadEnrichers(
    enrichersFound && !options.expCustomEnrichers ? enrichersFound.name : 'expCustomEnrichers',
    options.expCustomEnrichers ?? (enrichersFound ? [enrichersFound.value.trim()] : []),
  )

  const clientKeysHeaderName = (str(options.clientKeysHeaderName, ENV.clientKeysHeaderName) ?? 'authorization')
    .trim()
    .toLowerCase()
  if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(clientKeysHeaderName)) {
    throw new ConfigError('CLIENT_KEY_HEADER_NAME', `must be a valid HTTP header name, got "${clientKeysHeaderName}"`)
  }

  const refreshInterval = int(
    options.refreshInterval,
    ENV.refreshInterval,
    int(undefined, ENV.refreshIntervalSeconds, 5, { min: 0 }) * 1000,
  )

  // Node's defaults (60 s for headers, checked every 30 s; 300 s per request) let slow clients
  // hold connections for minutes; a proxy request is a few kB and is complete in milliseconds.
  const serverTimeouts = {
    headersMs: int(options.serverTimeouts?.headersMs, ENV.headersTimeout, 10_000, { min: 1 }),
    requestMs: int(options.serverTimeouts?.requestMs, ENV.requestTimeout, 30_000, { min: 1 }),
    keepAliveMs: int(options.serverTimeouts?.keepAliveMs, ENV.keepAliveTimeout, DEFAULT_KEEP_ALIVE_MS, { min: 1 }),
  }
  // Node refuses a request timeout shorter than the headers timeout.
  if (serverTimeouts.requestMs < serverTimeouts.headersMs) {
    throw new ConfigError(
      'HTTP_REQUEST_TIMEOUT_MS',
      `must be at least HTTP_HEADERS_TIMEOUT_MS (${serverTimeouts.headersMs}), got ${serverTimeouts.requestMs}`,
    )
  }

  const mode = options.mode ?? 'proxy'
  const settingsRead = [
    !options.serviceUrl && ENV.serviceUrl,
    !options.serviceApiToken && ENV.serviceApiToken,
    !options.clientKeys?.length && !options.proxySecrets?.length && [...ENV.clientKeys, ...ENV.proxySecrets],
  ]
  const appName = resolveAppName(
    options.serviceAppName ? { name: 'serviceAppName', value: options.serviceAppName } : read(ENV.serviceAppName),
    mode,
    new Set(settingsRead.flatMap((names) => (names ? [read(names)?.name ?? ''] : []))),
  )

  const workersFound = read(ENV.workers)
  const workers =
    options.workers !== undefined
      ? parseWorkers('workers', options.workers)
      : workersFound
        ? parseWorkers(workersFound.name, workersFound.value)
        : 1

  return {
    serviceUrl,
    serviceApiToken,
    clientKeys,
    port: int(options.port, ENV.port, mode === 'edge' ? 3063 : 3000, { max: 65535 }),
    host: str(options.host, ENV.host),
    proxyBasePath: sanitizeBasePath(str(options.proxyBasePath, ENV.proxyBasePath) ?? ''),
    serviceAppName: appName.name,
    serviceAppNameFrom: appName.from,
    serviceInstanceId: str(options.serviceInstanceId, ENV.serviceInstanceId) ?? defaultInstanceId(),
    refreshInterval,
    metricsInterval: int(
      options.metricsInterval,
      ENV.metricsInterval,
      int(undefined, ENV.metricsIntervalSeconds, 30, { min: 0 }) * 1000,
    ),
    metricsJitter: int(options.metricsJitter, ENV.metricsJitter, 0),
    environment: str(options.environment, ENV.environment),
    projectName: str(options.projectName, ENV.projectName),
    logger,
    timers: options.timers ?? systemTimers,
    startWithBackup: options.startWithBackup === true,
    useJsonLogger,
    logLevel,
    customStrategies,
    trustProxy,
    namePrefix: str(options.namePrefix, ENV.namePrefix),
    tags,
    clientKeysHeaderName,
    storage: {
      provider: options.storageProvider,
      kind: options.storageProvider ? 'custom' : storageKind,
      fileDirectory: read(ENV.storageFileDirectory)?.value,
      redisUrl,
      redisKeyPrefix: read(ENV.redisKeyPrefix)?.value,
    },
    enableOAS: bool(options.enableOAS, ENV.enableOAS, false),
    enableAllEndpoint: bool(options.enableAllEndpoint, ENV.enableAllEndpoint, false),
    cors: parseCors(options, env),
    rejectUnauthorized,
    tls: network.tls,
    upstreamNetwork: network.upstream,
    bootstrap:
      bootstrapUrl || bootstrapData
        ? {
            url: bootstrapUrl,
            authorization: bootstrapAuthorization,
            data: bootstrapData,
            segments: options.expBootstrap?.segments,
          }
        : undefined,
    serverSideTokens,
    enrichers,
    responseCacheSize: int(options.responseCacheSize, ENV.responseCacheSize, 10_000, { min: 0 }),
    responseCacheMaxBytes:
      int(options.responseCacheMaxMb, ENV.responseCacheMaxMb, 32, { min: 0, max: 4096 }) * 1024 * 1024,
    serverTimeouts,
    tokens,
    tokenMode: bool(options.strict, ENV.strict, false) ? 'strict' : 'dynamic',
    frontendAllEndpoint: !bool(options.disableAllEndpoint, ENV.disableAllEndpoint, false),
    metricsEndpoint: !bool(options.disableMetricsEndpoint, ENV.disableMetricsEndpoint, false),
    tokensEndpoint: !bool(options.disableTokensEndpoint, ENV.disableTokensEndpoint, false),
    requestLog,
    workers,
    streaming: bool(options.streaming, ENV.streaming, true),
    // SDKs drop a stream silent for 60 s: at most 50 s between keep-alives.
    streamingKeepAliveMs: int(options.streamingKeepAliveMs, ENV.streamingKeepAlive, 15_000, { min: 1, max: 50_000 }),
    streamingMaxConnections: int(options.streamingMaxConnections, ENV.streamingMaxConnections, 10_000, { min: 1 }),
    offline,
    mode,
    tokenRevalidateMs: read(ENV.tokenRevalidate)
      ? int(undefined, ENV.tokenRevalidate, 0, { min: 0 }) * 1000
      : Math.max(refreshInterval, 1_000),
  }
}
