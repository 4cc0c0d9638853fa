// Edge's command line read as Edge reads it, its names translated to the proxy's, and the
// migration table in docs/edge-compatibility.md naming every option and variable of the one
// table in code.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  edgeProxyEnvironment,
  edgeVariableWarnings,
  EdgeUsageError,
  parseEdgeCommandLine,
} from '../src/config/edge-command-line.js'
import { EDGE_OPTIONS } from '../src/config/edge-options.js'
import { ConfigError } from '../src/config/values.js'

const UPSTREAM = { UPSTREAM_URL: 'http://unleash.unleash:4242', TOKENS: '*:development.t' }

describe("Edge's command line", () => {
  it('reads global options before the subcommand and its own after it: -p is the port before edge, pretrusted tokens after', () => {
    expect(
      parseEdgeCommandLine([
        '-p',
        '4000',
        '--interface=::',
        'edge',
        '-p',
        'secret@development',
        '--tokens',
        'a',
        '-t',
        'b',
      ]),
    ).toEqual({
      command: 'edge',
      given: { PORT: '4000', INTERFACE: '::', PRETRUSTED_TOKENS: 'secret@development', TOKENS: 'a,b' },
      help: false,
    })
  })

  it("takes Edge's global options on either side of the subcommand", () => {
    expect(parseEdgeCommandLine(['edge', '--app-name', 'a', '-l', 'json']).given).toEqual({
      APP_NAME: 'a',
      LOG_FORMAT: 'json',
    })
  })

  it.each([
    [['edge', '--port', '1'], '--port is not an option of `edge` (vexil edge --help lists them)'],
    [
      ['--upstream-url', 'x', 'edge'],
      '--upstream-url is not an option before the subcommand (vexil edge --help lists them)',
    ],
    [['edge', '--tokens'], '--tokens needs a value'],
    [['edge', 'extra'], 'unexpected argument "extra"'],
  ])('refuses %j as Edge does', (argv, message) => {
    expect(() => parseEdgeCommandLine(argv)).toThrow(new EdgeUsageError(message))
  })

  it("translates Edge's names to the proxy's, the option winning over its variable", () => {
    const { env, warnings } = edgeProxyEnvironment(
      { APP_NAME: 'from-flag', BACKUP_FOLDER: '/backups' },
      {
        ...UPSTREAM,
        APP_NAME: 'from-variable',
        INTERFACE: '127.0.0.1',
        LOG_FORMAT: 'json',
        RUST_LOG: 'info,tower=warn',
        EDGE_KEEPALIVE_TIMEOUT: '75',
        SKIP_SSL_VERIFICATION: 'true',
        TRUST_PROXY: 'true',
        PROXY_TRUSTED_SERVERS: '10.0.0.0/8',
        STORAGE_FILE_DIRECTORY: '/data/proxy',
      },
    )
    expect(env).toMatchObject({
      SERVICE_URL: 'http://unleash.unleash:4242/api',
      SERVICE_APP_NAME: 'from-flag',
      HOST: '127.0.0.1',
      JSON_LOGGER: 'true',
      LOG_LEVEL: 'info',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '75000',
      HTTP_OPTIONS_REJECT_UNAUTHORIZED: 'false',
      TRUST_PROXY: '10.0.0.0/8',
      STORAGE_FILE_DIRECTORY: '/backups',
    })
    expect(warnings).toEqual([])
  })

  it("composes REDIS_URL from Edge's parts, as Edge does", () => {
    const { env } = edgeProxyEnvironment(
      {},
      {
        ...UPSTREAM,
        REDIS_HOST: 'redis.internal',
        REDIS_PORT: '6380',
        REDIS_USERNAME: 'edge',
        REDIS_PASSWORD: 'p@ss',
        REDIS_SECURE: 'true',
      },
    )
    expect(env.REDIS_URL).toBe('rediss://edge:p%40ss@redis.internal:6380')
  })

  it.each([
    [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT must be plain, json or pretty, got "xml"'],
    [{ UPSTREAM_URL: 'unleash:4242' }, 'UPSTREAM_URL must be an http(s) URL, got "unleash:4242"'],
    [{ EDGE_REQUEST_TIMEOUT: 'soon' }, 'EDGE_REQUEST_TIMEOUT must be a whole number, got "soon"'],
    [
      { UPSTREAM_URL: '' },
      'UPSTREAM_URL is required (--upstream-url: the upstream Unleash, Edge or Vexil, without /api)',
    ],
  ])("names Edge's variable for a value Edge would refuse: %j", (values, message) => {
    expect(() => edgeProxyEnvironment({}, { ...UPSTREAM, ...values })).toThrow(
      new ConfigError(message.split(' ')[0]!, message.slice(message.indexOf(' ') + 1)),
    )
  })

  it('names each option Vexil does not implement, when set, with what Vexil does instead', () => {
    const { warnings } = edgeProxyEnvironment(
      {},
      {
        ...UPSTREAM,
        PRETRUSTED_TOKENS: 'secret@development',
        REDIS_MODE: 'single',
        SENTRY_DEBUG: 'false',
        RUST_LOG: 'tower=debug',
      },
    )
    expect(warnings).toEqual([
      'Ignoring Edge\'s RUST_LOG="tower=debug": it names no level; LOG_LEVEL sets one (debug, info, warn, error, fatal).',
      "Ignoring Edge's PRETRUSTED_TOKENS (--pretrusted-tokens): Vexil does not implement it; frontend tokens are validated upstream like any other (list a client token of their environment in TOKENS).",
    ])
  })

  it('under vexil proxy, names the Edge variables it does not read and what reads them', () => {
    const warnings = edgeVariableWarnings(
      { APP_NAME: 'a', TOKENS: 't', DISABLE_FEATURES_ENDPOINT: 'true', ALLOW_LIST: '10.0.0.0/8' },
      new Set(['TOKENS']),
    )
    expect(warnings).toEqual([
      "Ignoring Edge's ALLOW_LIST (--allow-list): Vexil does not implement it; every caller address is served: restrict callers with a network policy or the load balancer.",
      "Ignoring Edge's APP_NAME: `vexil edge` reads it; vexil proxy reads SERVICE_APP_NAME.",
    ])
  })
})

describe('docs/edge-compatibility.md', () => {
  const doc = readFileSync(fileURLToPath(new URL('../../../docs/edge-compatibility.md', import.meta.url)), 'utf8')
  const table = doc.slice(doc.indexOf('| Edge option | variable | Vexil |'), doc.indexOf('\n## 1.'))

  it.each(EDGE_OPTIONS.map((option) => [option.variable, option]))(
    'the migration table lists %s with its option',
    (variable, option) => {
      const row = table.split('\n').find((line) => line.startsWith('|') && line.includes(`\`${variable}\``))
      expect(row, `no row names ${variable}`).toBeDefined()
      if (option.flag) expect(row).toContain(`\`${option.flag}\``)
    },
  )
})
