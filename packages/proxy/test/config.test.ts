// Configuration (spec section 2.5): every option by code and by environment variable, the
// spec's names first and the old proxy's UNLEASH_* names as aliases, validated at startup.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, createProxyConfig } from '@vexil/proxy'

const REQUIRED = {
  SERVICE_URL: 'http://localhost:4242/api',
  SERVICE_API_TOKEN: 'token',
  SERVICE_PROXY_CLIENT_KEYS: 'k1, k2',
}
const fromEnv = (env: Record<string, string>) => createProxyConfig({}, { ...REQUIRED, ...env })

describe('required options', () => {
  it.each([
    ['SERVICE_URL', /^SERVICE_URL is required/],
    ['SERVICE_API_TOKEN', /^SERVICE_API_TOKEN is required/],
    ['SERVICE_PROXY_CLIENT_KEYS', /^SERVICE_PROXY_CLIENT_KEYS is required/],
  ])('a missing %s is a ConfigError naming it', async (name, message) => {
    const env: Record<string, string> = { ...REQUIRED }
    delete env[name]
    const error = await createProxyConfig({}, env).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).variable).toBe(name)
    expect((error as Error).message).toMatch(message)
  })

  it('the old UNLEASH_* names are aliases; the spec names win', async () => {
    const old = await createProxyConfig(
      {},
      { UNLEASH_URL: 'http://old/api', UNLEASH_API_TOKEN: 't', UNLEASH_PROXY_CLIENT_KEYS: 'a,b' },
    )
    expect(old.serviceUrl).toBe('http://old/api')
    expect(old.clientKeys).toEqual(['a', 'b'])
    const both = await createProxyConfig(
      {},
      {
        SERVICE_URL: 'http://new/api',
        UNLEASH_URL: 'http://old/api',
        SERVICE_API_TOKEN: 't',
        UNLEASH_PROXY_SECRETS: 's1, s2',
      },
    )
    expect(both.serviceUrl).toBe('http://new/api')
    expect(both.clientKeys).toEqual(['s1', 's2']) // deprecated proxySecrets alias
  })

  // A key that is empty, or that starts or ends with whitespace, can never be sent as such:
  // HTTP strips whitespace around a header value (RFC 9110 5.5), and an empty key would let an
  // empty header in. Refused at startup rather than silently never (or always) matching.
  it.each([
    [{ clientKeys: ['good', ''] }, 'clientKeys'],
    [{ clientKeys: [' padded'] }, 'clientKeys'],
    [{ clientKeys: ['tab\t'] }, 'clientKeys'],
    [{ expServerSideSdkConfig: { tokens: ['  '] } }, 'expServerSideSdkConfig.tokens'],
    [{ expServerSideSdkConfig: { tokens: ['ok', 'trailing '] } }, 'expServerSideSdkConfig.tokens'],
  ])('refuses a key or token that is empty or padded with whitespace: %j', async (options, variable) => {
    const error = await createProxyConfig(options, REQUIRED).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).variable).toBe(variable)
    expect((error as Error).message).toMatch(/empty|whitespace/)
  })

  it('code options win over the environment', async () => {
    const config = await createProxyConfig(
      { serviceUrl: 'http://code/api', clientKeys: ['c'], refreshInterval: 1234 },
      { ...REQUIRED, SERVICE_FETCH_INTERVAL: '99' },
    )
    expect(config.serviceUrl).toBe('http://code/api')
    expect(config.clientKeys).toEqual(['c'])
    expect(config.refreshInterval).toBe(1234)
  })
})

describe('defaults', () => {
  it('match spec section 2.5', async () => {
    const config = await fromEnv({})
    expect(config).toMatchObject({
      port: 3000,
      proxyBasePath: '',
      serviceAppName: 'service-proxy',
      refreshInterval: 5000,
      metricsInterval: 30000,
      metricsJitter: 0,
      environment: undefined,
      projectName: undefined,
      useJsonLogger: false,
      logLevel: 'warn',
      customStrategies: [],
      trustProxy: false,
      namePrefix: undefined,
      tags: [],
      clientKeysHeaderName: 'authorization',
      enableOAS: false,
      enableAllEndpoint: false,
      streaming: true,
      rejectUnauthorized: true,
      serverSideTokens: [],
      enrichers: [],
      cors: {
        origin: '*',
        methods: 'GET, POST',
        allowedHeaders: undefined,
        exposedHeaders: 'ETag',
        credentials: false,
        maxAge: 172800,
        preflightContinue: false,
        optionsSuccessStatus: 204,
      },
    })
    expect(config.serviceInstanceId).toMatch(/.+/)
  })
})

describe('parsing', () => {
  it('reads every variable', async () => {
    const config = await fromEnv({
      PROXY_PORT: '4000',
      PROXY_BASE_PATH: '  base/path/ ',
      SERVICE_APP_NAME: 'app',
      SERVICE_INSTANCE_ID: 'inst',
      SERVICE_FETCH_INTERVAL: '1000',
      SERVICE_METRICS_INTERVAL: '0',
      SERVICE_METRICS_JITTER: '500',
      SERVICE_ENVIRONMENT: 'production',
      SERVICE_PROJECT_NAME: 'web',
      JSON_LOGGER: 'true',
      LOG_LEVEL: 'DEBUG',
      TRUST_PROXY: 'loopback, 10.0.0.0/8',
      SERVICE_NAME_PREFIX: 'ui.',
      SERVICE_TAGS: 'simple:proxy, demo:test',
      CLIENT_KEY_HEADER_NAME: 'X-Client-Key',
      ENABLE_OAS: 'true',
      ENABLE_ALL_ENDPOINT: '1',
      CORS_ORIGIN: 'https://a.example, https://b.example',
      CORS_METHODS: 'GET',
      CORS_ALLOWED_HEADERS: 'authorization',
      CORS_EXPOSED_HEADERS: 'ETag, X-Other',
      CORS_CREDENTIALS: 'true',
      CORS_MAX_AGE: '60',
      CORS_PREFLIGHT_CONTINUE: 'false',
      CORS_OPTIONS_SUCCESS_STATUS: '200',
      HTTP_OPTIONS_REJECT_UNAUTHORIZED: 'false',
      EXP_BOOTSTRAP_URL: 'https://bootstrap.example/features',
      EXP_BOOTSTRAP_AUTHORIZATION: 'boot',
      EXP_SERVER_SIDE_SDK_CONFIG_TOKENS: 'st1,st2',
      RESPONSE_CACHE_SIZE: '0',
      STREAMING: 'false',
    })
    expect(config).toMatchObject({
      port: 4000,
      proxyBasePath: '/base/path',
      serviceAppName: 'app',
      serviceInstanceId: 'inst',
      refreshInterval: 1000,
      metricsInterval: 0,
      metricsJitter: 500,
      environment: 'production',
      projectName: 'web',
      useJsonLogger: true,
      logLevel: 'debug',
      trustProxy: ['127.0.0.1/8', '::1/128', '10.0.0.0/8'],
      namePrefix: 'ui.',
      tags: [
        { name: 'simple', value: 'proxy' },
        { name: 'demo', value: 'test' },
      ],
      clientKeysHeaderName: 'x-client-key',
      enableOAS: true,
      enableAllEndpoint: true,
      cors: {
        origin: ['https://a.example', 'https://b.example'],
        methods: 'GET',
        allowedHeaders: 'authorization',
        exposedHeaders: 'ETag, X-Other',
        credentials: true,
        maxAge: 60,
        preflightContinue: false,
        optionsSuccessStatus: 200,
      },
      rejectUnauthorized: false,
      bootstrap: { url: 'https://bootstrap.example/features', authorization: 'boot' },
      serverSideTokens: ['st1', 'st2'],
      responseCacheSize: 0,
      streaming: false,
    })
  })

  it('JSON_LOGGER=false turns JSON logging off (the old proxy turned it on)', async () => {
    expect((await fromEnv({ JSON_LOGGER: 'false' })).useJsonLogger).toBe(false)
  })

  it.each([
    ['SERVICE_FETCH_INTERVAL', 'abc', /SERVICE_FETCH_INTERVAL must be a whole number, got "abc"/],
    ['UNLEASH_FETCH_INTERVAL', '5s', /UNLEASH_FETCH_INTERVAL must be a whole number/],
    ['SERVICE_METRICS_INTERVAL', '-1', /SERVICE_METRICS_INTERVAL must be between 0/],
    ['PORT', '70000', /PORT must be between 0 and 65535/],
    ['ENABLE_ALL_ENDPOINT', 'yes please', /ENABLE_ALL_ENDPOINT must be true or false/],
    ['JSON_LOGGER', 'maybe', /JSON_LOGGER must be true or false/],
    ['STREAMING', 'sometimes', /STREAMING must be true or false/],
    ['SERVICE_URL', 'not a url', /SERVICE_URL must be an http\(s\) URL/],
    ['SERVICE_URL', 'ftp://host/api', /SERVICE_URL must be an http\(s\) URL/],
    ['TRUST_PROXY', '10.0.0.0/99', /TRUST_PROXY must be true, false, or a comma-separated list/],
    ['TRUST_PROXY', 'somewhere', /TRUST_PROXY must be true, false/],
    ['SERVICE_TAGS', 'novalue', /SERVICE_TAGS must be tagName:tagValue pairs/],
    ['LOG_LEVEL', 'verbose', /LOG_LEVEL must be one of debug, info, warn, error, fatal/],
    ['CORS_MAX_AGE', 'forever', /CORS_MAX_AGE must be a whole number/],
    ['CORS_OPTIONS_SUCCESS_STATUS', '404', /CORS_OPTIONS_SUCCESS_STATUS must be a 2xx status/],
    ['STORAGE_PROVIDER', 'disk', /STORAGE_PROVIDER must be one of file, memory, redis/],
    ['EXP_BOOTSTRAP_URL', 'nope', /EXP_BOOTSTRAP_URL must be an http\(s\) URL/],
    ['CLIENT_KEY_HEADER_NAME', 'bad header', /CLIENT_KEY_HEADER_NAME must be a valid HTTP header name/],
    ['WORKERS', '0', /^WORKERS must be a positive integer or auto, got "0"$/],
    ['WORKERS', 'many', /^WORKERS must be a positive integer or auto, got "many"$/],
    ['WORKERS', '1.5', /^WORKERS must be a positive integer or auto/],
    ['WORKERS', '-2', /^WORKERS must be a positive integer or auto/],
  ])('%s=%j is refused with a message naming it', async (name, value, message) => {
    const error = await fromEnv({ [name]: value }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).variable).toBe(name)
    expect((error as Error).message).toMatch(message)
    expect((error as Error).message).not.toContain('\n')
  })

  it('WORKERS: unset or 1 is one process, N is N workers, auto is one per core', async () => {
    expect((await fromEnv({})).workers).toBe(1)
    expect((await fromEnv({ WORKERS: '1' })).workers).toBe(1)
    expect((await fromEnv({ WORKERS: ' 3 ' })).workers).toBe(3)
    expect((await fromEnv({ WORKERS: 'auto' })).workers).toBe(availableParallelism())
    expect((await fromEnv({ WORKERS: 'AUTO' })).workers).toBe(availableParallelism())
    expect((await createProxyConfig({ workers: 2 }, { ...REQUIRED, WORKERS: '4' })).workers).toBe(2)
  })

  it('STORAGE_PROVIDER=redis requires REDIS_URL', async () => {
    await expect(fromEnv({ STORAGE_PROVIDER: 'redis' })).rejects.toThrow(/REDIS_URL is required/)
  })
})

describe('custom strategies and enrichers from files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vexil-config-'))
  const esm = join(dir, 'strategies.mjs')
  const cjs = join(dir, 'strategies.cjs')
  const enrichers = join(dir, 'enrichers.mjs')
  writeFileSync(esm, 'export default [{ name: "fromEsm", isEnabled: () => true }]\n')
  writeFileSync(cjs, 'module.exports = [{ name: "fromCjs", isEnabled: () => true }]\n')
  writeFileSync(
    enrichers,
    'export default [(context) => ({ ...context, properties: { ...context.properties, enriched: "yes" } })]\n',
  )

  it('loads an ESM file and a CommonJS file', async () => {
    expect((await fromEnv({ SERVICE_CUSTOM_STRATEGIES_FILE: esm })).customStrategies.map((s) => s.name)).toEqual([
      'fromEsm',
    ])
    expect((await fromEnv({ UNLEASH_CUSTOM_STRATEGIES_FILE: cjs })).customStrategies.map((s) => s.name)).toEqual([
      'fromCjs',
    ])
    expect(
      (await createProxyConfig({ customStrategies: [esm, cjs] }, REQUIRED)).customStrategies.map((s) => s.name),
    ).toEqual(['fromEsm', 'fromCjs'])
    expect((await fromEnv({ EXP_CUSTOM_ENRICHERS_FILE: enrichers })).enrichers).toHaveLength(1)
  })

  it('refuses a missing file or one that does not export strategies', async () => {
    await expect(fromEnv({ SERVICE_CUSTOM_STRATEGIES_FILE: join(dir, 'missing.js') })).rejects.toThrow(
      /SERVICE_CUSTOM_STRATEGIES_FILE points at a file that does not exist/,
    )
    await expect(fromEnv({ SERVICE_CUSTOM_STRATEGIES_FILE: enrichers })).rejects.toThrow(
      /must export an array of strategies/,
    )
  })
})

describe("Edge's configuration (issue 16)", () => {
  const EDGE = { UPSTREAM_URL: 'http://unleash:4242/', TOKENS: '*:development.a, *:production.b' }

  it('an Edge deployment environment works unchanged: UPSTREAM_URL (without /api) and TOKENS, no SERVICE_API_TOKEN or client keys', async () => {
    const config = await createProxyConfig({}, EDGE)
    expect(config.serviceUrl).toBe('http://unleash:4242/api')
    expect(config.tokens).toEqual(['*:development.a', '*:production.b'])
    expect(config.serviceApiToken).toBeUndefined()
    expect(config.clientKeys).toEqual([])
    expect(config.tokenMode).toBe('dynamic')
    expect(config.frontendAllEndpoint).toBe(true)
  })

  it('neither SERVICE_API_TOKEN nor TOKENS: a ConfigError naming both', async () => {
    const error = await createProxyConfig({}, { SERVICE_URL: 'http://u/api' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toMatch(/^SERVICE_API_TOKEN is required .*TOKENS/)
  })

  it('STRICT, DISABLE_ALL_ENDPOINT, BASE_PATH, BACKUP_FOLDER and the intervals in seconds', async () => {
    const config = await createProxyConfig(
      {},
      {
        ...EDGE,
        STRICT: 'true',
        DISABLE_ALL_ENDPOINT: 'true',
        BASE_PATH: '/edge',
        BACKUP_FOLDER: '/var/edge',
        FEATURES_REFRESH_INTERVAL_SECONDS: '15',
        METRICS_INTERVAL_SECONDS: '60',
        TOKEN_REVALIDATION_INTERVAL_SECONDS: '120',
      },
    )
    expect(config.tokenMode).toBe('strict')
    expect(config.frontendAllEndpoint).toBe(false)
    expect(config.proxyBasePath).toBe('/edge')
    expect(config.storage.fileDirectory).toBe('/var/edge')
    expect(config.refreshInterval).toBe(15_000)
    expect(config.metricsInterval).toBe(60_000)
    expect(config.tokenRevalidateMs).toBe(120_000)
  })

  it('the millisecond variables win over the seconds ones; tokens are revalidated every refresh interval by default', async () => {
    const config = await createProxyConfig(
      {},
      { ...EDGE, SERVICE_FETCH_INTERVAL: '2000', FEATURES_REFRESH_INTERVAL_SECONDS: '15' },
    )
    expect(config.refreshInterval).toBe(2_000)
    expect(config.tokenRevalidateMs).toBe(2_000)
  })

  it('malformed values are refused by name', async () => {
    await expect(createProxyConfig({}, { ...EDGE, STRICT: 'maybe' })).rejects.toThrow(/^STRICT /)
    await expect(createProxyConfig({}, { ...EDGE, FEATURES_REFRESH_INTERVAL_SECONDS: '1.5' })).rejects.toThrow(
      /^FEATURES_REFRESH_INTERVAL_SECONDS /,
    )
    await expect(createProxyConfig({}, { ...EDGE, UPSTREAM_URL: 'not a url' })).rejects.toThrow(/^UPSTREAM_URL /)
  })
})
