// Unleash Edge's command line (its docs/CLI.md), option by option, with what Vexil does for each:
// read under the same name, read under Vexil's name (`vexil edge` translates it), read by another
// `vexil` command, or not implemented and named in a warning at start when set. The migration
// table in docs/edge-compatibility.md lists every entry (a test keeps them together).
import { ConfigError, parseBoolean, parseInteger, parseUrl } from './values.js'

/** Where Edge takes an option: before the subcommand, on either side of it (clap's `global`), or after one subcommand. */
export type EdgePlace = 'global' | 'anywhere' | 'edge' | 'offline' | 'probe'

export type EdgeHandling =
  /** Vexil reads `to` (the variable's own name, or Vexil's; none: composed or nothing to do); `convert` turns Edge's value into Vexil's. */
  | {
      kind: 'read'
      to: readonly string[]
      convert?: (value: string, variable: string) => string | undefined
      note?: string
    }
  /** Read by another `vexil` command. */
  | { kind: 'command'; command: 'offline' | 'health, ready' }
  /** Nothing in Vexil does it: a warning at start (when set; `when`: to a value that matters) says what Vexil does instead. */
  | { kind: 'warn'; instead: string; when?: (value: string) => boolean }

export interface EdgeOption {
  /** The long option, `--upstream-url`; undefined for a variable Edge reads without one (RUST_LOG). */
  flag?: string
  short?: string
  variable: string
  place: EdgePlace
  /** An option without a value (`--tls-enable`): present means true. */
  switch?: boolean
  handling: EdgeHandling
}

const same = (variable: string, note?: string): EdgeHandling => ({ kind: 'read', to: [variable], note })
const renamed = (to: string, note?: string): EdgeHandling => ({ kind: 'read', to: [to], note })
/** Read together with other options (edge-command-line.ts composes them). */
const composed = (note: string): EdgeHandling => ({ kind: 'read', to: [], note })
/** Nothing to do: what the option turns off, Vexil never serves. */
const neverServed: EdgeHandling = { kind: 'read', to: [], note: 'never served' }
const seconds = (...to: string[]): EdgeHandling => ({
  kind: 'read',
  to,
  convert: (value, variable) => String(parseInteger(variable, value, { min: 1 }) * 1000),
  note: 'seconds, as milliseconds',
})
const warn = (instead: string): EdgeHandling => ({ kind: 'warn', instead })
/** A switch or boolean that only matters when on. */
const warnWhenOn = (instead: string): EdgeHandling => ({
  kind: 'warn',
  instead,
  when: (value) => parseBoolean('', value),
})

const OBSERVABILITY = 'errors go to the log; metrics are scraped from /internal-backstage/metrics'
const OTEL_COLLECTOR = "traces go over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT (a collector's port 4318)"
const PROMETHEUS_PUSH = 'nothing is pushed: scrape /internal-backstage/metrics'
const STORAGE = 'keep backups with BACKUP_FOLDER on a volume, or REDIS_URL'
const REDIS_PARTS = 'composed into REDIS_URL, as Edge composes it'

function logFormat(value: string, variable: string): string {
  const format = value.trim().toLowerCase()
  if (format === 'json') return 'true'
  if (format === 'plain' || format === 'pretty') return 'false'
  throw new ConfigError(variable, `must be plain, json or pretty, got "${value}"`)
}

/** RUST_LOG's level (`warn`, or `info,tower=warn`: its bare level); a filter of modules alone is not read. */
function rustLogLevel(value: string): string | undefined {
  const level = value
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .find((part) => part !== '' && !part.includes('='))
  if (level === 'trace') return 'debug'
  if (level === 'off') return 'fatal'
  return level
}

function upstreamApiUrl(value: string, variable: string): string {
  return `${parseUrl(variable, value).replace(/\/+$/, '')}/api`
}

function notWhenFalse(value: string, variable: string): string {
  return String(!parseBoolean(variable, value))
}

export const EDGE_OPTIONS: readonly EdgeOption[] = [
  // Global: before the subcommand
  {
    flag: '--port',
    short: 'p',
    variable: 'PORT',
    place: 'global',
    handling: same('PORT', 'default 3063 with vexil edge'),
  },
  { flag: '--interface', short: 'i', variable: 'INTERFACE', place: 'global', handling: renamed('HOST') },
  { flag: '--base-path', variable: 'BASE_PATH', place: 'anywhere', handling: renamed('PROXY_BASE_PATH') },
  { flag: '--tls-enable', variable: 'TLS_ENABLE', place: 'global', switch: true, handling: same('TLS_ENABLE') },
  { flag: '--tls-server-key', variable: 'TLS_SERVER_KEY', place: 'global', handling: same('TLS_SERVER_KEY') },
  { flag: '--tls-server-cert', variable: 'TLS_SERVER_CERT', place: 'global', handling: same('TLS_SERVER_CERT') },
  {
    flag: '--tls-server-port',
    variable: 'TLS_SERVER_PORT',
    place: 'global',
    handling: same('TLS_SERVER_PORT', 'default 3043'),
  },
  {
    flag: '--redirect-http-to-https',
    variable: 'REDIRECT_HTTP_TO_HTTPS',
    place: 'global',
    switch: true,
    handling: same('REDIRECT_HTTP_TO_HTTPS'),
  },
  { flag: '--cors-origin', variable: 'CORS_ORIGIN', place: 'anywhere', handling: same('CORS_ORIGIN') },
  {
    flag: '--cors-allowed-headers',
    variable: 'CORS_ALLOWED_HEADERS',
    place: 'anywhere',
    handling: same('CORS_ALLOWED_HEADERS'),
  },
  { flag: '--cors-max-age', variable: 'CORS_MAX_AGE', place: 'anywhere', handling: same('CORS_MAX_AGE') },
  {
    flag: '--cors-exposed-headers',
    variable: 'CORS_EXPOSED_HEADERS',
    place: 'anywhere',
    handling: same('CORS_EXPOSED_HEADERS'),
  },
  { flag: '--cors-methods', variable: 'CORS_METHODS', place: 'anywhere', handling: same('CORS_METHODS') },
  {
    flag: '--allow-list',
    variable: 'ALLOW_LIST',
    place: 'anywhere',
    handling: warn('every caller address is served: restrict callers with a network policy or the load balancer'),
  },
  {
    flag: '--deny-list',
    variable: 'DENY_LIST',
    place: 'anywhere',
    handling: warn('every caller address is served: restrict callers with a network policy or the load balancer'),
  },
  {
    flag: '--workers',
    short: 'w',
    variable: 'WORKERS',
    place: 'anywhere',
    handling: same('WORKERS', 'Edge ignores it since 20.0; Vexil runs that many processes behind the port'),
  },
  { flag: '--instance-id', variable: 'INSTANCE_ID', place: 'anywhere', handling: renamed('SERVICE_INSTANCE_ID') },
  {
    flag: '--app-name',
    short: 'a',
    variable: 'APP_NAME',
    place: 'anywhere',
    handling: renamed('SERVICE_APP_NAME', 'default unleash-edge with vexil edge'),
  },
  { flag: '--trust-proxy', variable: 'TRUST_PROXY', place: 'anywhere', switch: true, handling: same('TRUST_PROXY') },
  {
    flag: '--proxy-trusted-servers',
    variable: 'PROXY_TRUSTED_SERVERS',
    place: 'anywhere',
    handling: composed('TRUST_PROXY lists them when the proxy is trusted'),
  },
  {
    flag: '--disable-all-endpoint',
    variable: 'DISABLE_ALL_ENDPOINT',
    place: 'anywhere',
    switch: true,
    handling: same('DISABLE_ALL_ENDPOINT'),
  },
  {
    flag: '--edge-request-timeout',
    variable: 'EDGE_REQUEST_TIMEOUT',
    place: 'global',
    handling: seconds('HTTP_REQUEST_TIMEOUT_MS', 'HTTP_HEADERS_TIMEOUT_MS'),
  },
  {
    flag: '--edge-keepalive-timeout',
    variable: 'EDGE_KEEPALIVE_TIMEOUT',
    place: 'global',
    handling: seconds('HTTP_KEEP_ALIVE_TIMEOUT_MS'),
  },
  {
    flag: '--log-format',
    short: 'l',
    variable: 'LOG_FORMAT',
    place: 'anywhere',
    handling: {
      kind: 'read',
      to: ['JSON_LOGGER'],
      convert: logFormat,
      note: 'json: JSON lines; plain and pretty: text lines',
    },
  },
  {
    variable: 'RUST_LOG',
    place: 'global',
    handling: { kind: 'read', to: ['LOG_LEVEL'], convert: rustLogLevel, note: 'its level; trace is debug' },
  },
  {
    flag: '--edge-auth-header',
    variable: 'EDGE_AUTH_HEADER',
    place: 'anywhere',
    handling: warn('tokens are read from the Authorization header'),
  },
  {
    flag: '--upstream-auth-header',
    variable: 'UPSTREAM_AUTH_HEADER',
    place: 'anywhere',
    handling: warn('tokens are sent upstream in the Authorization header'),
  },
  {
    flag: '--token-header',
    variable: 'TOKEN_HEADER',
    place: 'anywhere',
    handling: warn('tokens are read from, and sent upstream in, the Authorization header'),
  },
  {
    flag: '--disable-metrics-batch-endpoint',
    variable: 'DISABLE_METRICS_BATCH_ENDPOINT',
    place: 'anywhere',
    switch: true,
    handling: neverServed,
  },
  {
    flag: '--disable-metrics-endpoint',
    variable: 'DISABLE_METRICS_ENDPOINT',
    place: 'anywhere',
    switch: true,
    handling: same('DISABLE_METRICS_ENDPOINT', 'both Prometheus routes answer 404'),
  },
  {
    flag: '--disable-features-endpoint',
    variable: 'DISABLE_FEATURES_ENDPOINT',
    place: 'anywhere',
    switch: true,
    handling: neverServed,
  },
  {
    flag: '--disable-tokens-endpoint',
    variable: 'DISABLE_TOKENS_ENDPOINT',
    place: 'anywhere',
    switch: true,
    handling: same('DISABLE_TOKENS_ENDPOINT', '404'),
  },
  {
    flag: '--disable-instance-data-endpoint',
    variable: 'DISABLE_INSTANCE_DATA_ENDPOINT',
    place: 'anywhere',
    switch: true,
    handling: neverServed,
  },
  { flag: '--sentry-dsn', variable: 'SENTRY_DSN', place: 'anywhere', handling: warn(OBSERVABILITY) },
  { flag: '--sentry-tracing-rate', variable: 'SENTRY_TRACING_RATE', place: 'anywhere', handling: warn(OBSERVABILITY) },
  {
    flag: '--sentry-debug',
    variable: 'SENTRY_DEBUG',
    place: 'anywhere',
    switch: true,
    handling: warnWhenOn(OBSERVABILITY),
  },
  {
    flag: '--sentry-enable-logs',
    variable: 'SENTRY_ENABLE_LOGS',
    place: 'anywhere',
    switch: true,
    handling: warnWhenOn(OBSERVABILITY),
  },
  { flag: '--datadog-url', variable: 'DATADOG_URL', place: 'anywhere', handling: warn(OBSERVABILITY) },
  { flag: '--otel-collector-url', variable: 'OTEL_COLLECTOR_URL', place: 'anywhere', handling: warn(OTEL_COLLECTOR) },
  {
    flag: '--otel-exporter-otlp-endpoint',
    variable: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    place: 'anywhere',
    handling: same('OTEL_EXPORTER_OTLP_ENDPOINT', 'traces over OTLP/HTTP'),
  },
  {
    flag: '--otel-exporter-otlp-protocol',
    variable: 'OTEL_EXPORTER_OTLP_PROTOCOL',
    place: 'anywhere',
    handling: same('OTEL_EXPORTER_OTLP_PROTOCOL', 'http/protobuf or http/json; grpc is refused'),
  },

  // After `edge`
  {
    flag: '--upstream-url',
    short: 'u',
    variable: 'UPSTREAM_URL',
    place: 'edge',
    handling: { kind: 'read', to: ['SERVICE_URL'], convert: upstreamApiUrl, note: 'with /api added' },
  },
  {
    flag: '--backup-folder',
    short: 'b',
    variable: 'BACKUP_FOLDER',
    place: 'edge',
    handling: renamed('STORAGE_FILE_DIRECTORY'),
  },
  {
    flag: '--metrics-interval-seconds',
    short: 'm',
    variable: 'METRICS_INTERVAL_SECONDS',
    place: 'edge',
    handling: same('METRICS_INTERVAL_SECONDS', 'default 30; Edge: 60'),
  },
  {
    flag: '--features-refresh-interval-seconds',
    short: 'f',
    variable: 'FEATURES_REFRESH_INTERVAL_SECONDS',
    place: 'edge',
    handling: same('FEATURES_REFRESH_INTERVAL_SECONDS', 'default 5; Edge: 15'),
  },
  {
    flag: '--token-revalidation-interval-seconds',
    variable: 'TOKEN_REVALIDATION_INTERVAL_SECONDS',
    place: 'edge',
    handling: same('TOKEN_REVALIDATION_INTERVAL_SECONDS', 'default the refresh interval; Edge: 3600'),
  },
  { flag: '--tokens', short: 't', variable: 'TOKENS', place: 'edge', handling: same('TOKENS') },
  { flag: '--strict', variable: 'STRICT', place: 'edge', switch: true, handling: same('STRICT', 'Edge before 20.0') },
  {
    flag: '--pretrusted-tokens',
    short: 'p',
    variable: 'PRETRUSTED_TOKENS',
    place: 'edge',
    handling: warn(
      'frontend tokens are validated upstream like any other (list a client token of their environment in TOKENS)',
    ),
  },
  {
    flag: '--custom-client-headers',
    short: 'H',
    variable: 'CUSTOM_CLIENT_HEADERS',
    place: 'edge',
    handling: same('CUSTOM_CLIENT_HEADERS'),
  },
  {
    flag: '--skip-ssl-verification',
    short: 's',
    variable: 'SKIP_SSL_VERIFICATION',
    place: 'edge',
    switch: true,
    handling: { kind: 'read', to: ['HTTP_OPTIONS_REJECT_UNAUTHORIZED'], convert: notWhenFalse, note: 'inverted' },
  },
  {
    flag: '--pkcs8-client-certificate-file',
    variable: 'PKCS8_CLIENT_CERTIFICATE_FILE',
    place: 'edge',
    handling: same('PKCS8_CLIENT_CERTIFICATE_FILE'),
  },
  {
    flag: '--pkcs8-client-key-file',
    variable: 'PKCS8_CLIENT_KEY_FILE',
    place: 'edge',
    handling: same('PKCS8_CLIENT_KEY_FILE'),
  },
  {
    flag: '--pkcs12-identity-file',
    variable: 'PKCS12_IDENTITY_FILE',
    place: 'edge',
    handling: same('PKCS12_IDENTITY_FILE'),
  },
  { flag: '--pkcs12-passphrase', variable: 'PKCS12_PASSPHRASE', place: 'edge', handling: same('PKCS12_PASSPHRASE') },
  {
    flag: '--pem-cert-file',
    variable: 'PEM_CERT_FILE',
    place: 'edge',
    handling: warn('undocumented in Edge: use PKCS8_CLIENT_CERTIFICATE_FILE and PKCS8_CLIENT_KEY_FILE'),
  },
  {
    flag: '--upstream-certificate-file',
    variable: 'UPSTREAM_CERTIFICATE_FILE',
    place: 'edge',
    handling: same('UPSTREAM_CERTIFICATE_FILE'),
  },
  {
    flag: '--upstream-request-timeout',
    variable: 'UPSTREAM_REQUEST_TIMEOUT',
    place: 'edge',
    handling: warn("the upstream client's own timeouts apply"),
  },
  {
    flag: '--upstream-socket-timeout',
    variable: 'UPSTREAM_SOCKET_TIMEOUT',
    place: 'edge',
    handling: warn("the upstream client's own timeouts apply"),
  },
  {
    flag: '--client-keepalive-timeout',
    variable: 'CLIENT_KEEPALIVE_TIMEOUT',
    place: 'edge',
    handling: warn("upstream connections are kept alive with Node's defaults"),
  },
  {
    flag: '--redis-url',
    variable: 'REDIS_URL',
    place: 'edge',
    handling: same('REDIS_URL', 'alone selects Redis, as in Edge'),
  },
  {
    flag: '--redis-mode',
    variable: 'REDIS_MODE',
    place: 'edge',
    handling: {
      kind: 'warn',
      instead: 'Redis is used as a single server',
      when: (value) => value.trim().toLowerCase() !== 'single',
    },
  },
  { flag: '--redis-password', variable: 'REDIS_PASSWORD', place: 'edge', handling: composed(REDIS_PARTS) },
  { flag: '--redis-username', variable: 'REDIS_USERNAME', place: 'edge', handling: composed(REDIS_PARTS) },
  { flag: '--redis-port', variable: 'REDIS_PORT', place: 'edge', handling: composed(REDIS_PARTS) },
  { flag: '--redis-host', variable: 'REDIS_HOST', place: 'edge', handling: composed(REDIS_PARTS) },
  { flag: '--redis-secure', variable: 'REDIS_SECURE', place: 'edge', switch: true, handling: composed(REDIS_PARTS) },
  { flag: '--redis-scheme', variable: 'REDIS_SCHEME', place: 'edge', handling: composed(REDIS_PARTS) },
  {
    flag: '--redis-read-connection-timeout-milliseconds',
    variable: 'REDIS_READ_CONNECTION_TIMEOUT_MILLISECONDS',
    place: 'edge',
    handling: warn("ioredis's connection timeouts apply"),
  },
  {
    flag: '--redis-write-connection-timeout-milliseconds',
    variable: 'REDIS_WRITE_CONNECTION_TIMEOUT_MILLISECONDS',
    place: 'edge',
    handling: warn("ioredis's connection timeouts apply"),
  },
  { flag: '--s3-bucket-name', variable: 'S3_BUCKET_NAME', place: 'edge', handling: warn(STORAGE) },
  {
    flag: '--s3-force-path-style',
    variable: 'S3_FORCE_PATH_STYLE',
    place: 'edge',
    switch: true,
    handling: warnWhenOn(STORAGE),
  },
  {
    flag: '--prometheus-remote-write-url',
    variable: 'PROMETHEUS_REMOTE_WRITE_URL',
    place: 'edge',
    handling: warn(PROMETHEUS_PUSH),
  },
  {
    flag: '--prometheus-push-interval',
    variable: 'PROMETHEUS_PUSH_INTERVAL',
    place: 'edge',
    handling: warn(PROMETHEUS_PUSH),
  },
  { flag: '--prometheus-username', variable: 'PROMETHEUS_USERNAME', place: 'edge', handling: warn(PROMETHEUS_PUSH) },
  { flag: '--prometheus-password', variable: 'PROMETHEUS_PASSWORD', place: 'edge', handling: warn(PROMETHEUS_PUSH) },
  { flag: '--prometheus-user-id', variable: 'PROMETHEUS_USER_ID', place: 'edge', handling: warn(PROMETHEUS_PUSH) },
  {
    flag: '--streaming',
    variable: 'STREAMING',
    place: 'edge',
    switch: true,
    handling: same('STREAMING', 'default true'),
  },
  {
    flag: '--delta',
    variable: 'DELTA',
    place: 'edge',
    switch: true,
    handling: warnWhenOn('the upstream is followed by its stream where it offers one, else polled with ETag'),
  },

  // After `offline`
  {
    flag: '--bootstrap-file',
    short: 'b',
    variable: 'BOOTSTRAP_FILE',
    place: 'offline',
    handling: { kind: 'command', command: 'offline' },
  },
  {
    flag: '--client-tokens',
    short: 'c',
    variable: 'CLIENT_TOKENS',
    place: 'offline',
    handling: { kind: 'command', command: 'offline' },
  },
  {
    flag: '--frontend-tokens',
    short: 'f',
    variable: 'FRONTEND_TOKENS',
    place: 'offline',
    handling: { kind: 'command', command: 'offline' },
  },
  {
    flag: '--reload-interval',
    short: 'r',
    variable: 'RELOAD_INTERVAL',
    place: 'offline',
    handling: { kind: 'command', command: 'offline' },
  },

  // After `health` or `ready`
  {
    flag: '--edge-url',
    short: 'e',
    variable: 'EDGE_URL',
    place: 'probe',
    handling: { kind: 'command', command: 'health, ready' },
  },
  {
    flag: '--ca-certificate-file',
    short: 'c',
    variable: 'CA_CERTIFICATE_FILE',
    place: 'probe',
    handling: { kind: 'command', command: 'health, ready' },
  },
]
