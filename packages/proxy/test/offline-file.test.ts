// Offline mode's file and settings: Edge's two formats read as Edge reads them (its own
// hotload.rs cases), the simple map converted as Edge converts it, a file that is neither refused
// with the reason, and the offline variables validated by name.
import { describe, expect, it } from 'vitest'
import { createEngine } from '@vexil/engine'
import { parseOfflineConfig } from '../src/config/offline.js'
import { createProxyConfig } from '../src/config/parse.js'
import { OfflineFileError, parseOfflineFlags } from '../src/scope/offline-file.js'

const DEFAULT_STRATEGY = { name: 'default', parameters: {}, constraints: [], variants: [] }

describe("the offline file (Edge's formats)", () => {
  it('converts a simple entry with a variant as Edge does: one default strategy, one fixed variant of weight 1000, project default', () => {
    const { payload, environment } = parseOfflineFlags('{"feature1": {"enabled": true, "variant": "variant1"}}')
    expect(environment).toBeUndefined()
    expect(payload).toEqual({
      version: 2,
      features: [
        {
          name: 'feature1',
          enabled: true,
          project: 'default',
          strategies: [DEFAULT_STRATEGY],
          variants: [{ name: 'variant1', weight: 1000, weightType: 'fix', stickiness: 'default' }],
        },
      ],
    })
  })

  it("needs no variant, ignores keys it does not know, and keeps the file's order", () => {
    const { payload } = parseOfflineFlags(
      '{"b": {"enabled": false, "note": "x"}, "a": {"enabled": true, "variant": null}}',
    )
    expect(payload.features).toEqual([
      { name: 'b', enabled: false, project: 'default', strategies: [DEFAULT_STRATEGY] },
      { name: 'a', enabled: true, project: 'default', strategies: [DEFAULT_STRATEGY] },
    ])
  })

  it('reads an empty object as no flags (a simple map with no entries)', () => {
    expect(parseOfflineFlags('{}').payload).toEqual({ version: 2, features: [] })
  })

  it("falls back to Unleash's client features, with the environment its query names", () => {
    const file = {
      version: 2,
      features: [
        {
          name: 'custom.constraint',
          enabled: true,
          project: 'default',
          strategies: [{ name: 'default', constraints: [], parameters: {} }],
          variants: [],
        },
      ],
      query: { environment: 'development', inlineSegmentConstraints: true },
    }
    const { payload, environment } = parseOfflineFlags(JSON.stringify(file))
    expect(payload).toEqual(file)
    expect(environment).toBe('development')
  })

  it('evaluates a converted entry to its one variant for every context', () => {
    const engine = createEngine()
    engine.load(parseOfflineFlags('{"paint": {"enabled": true, "variant": "blue"}, "off": {"enabled": false}}').payload)
    for (const userId of ['1', '2', 'someone']) expect(engine.getVariant('paint', { userId }).name).toBe('blue')
    expect(engine.isEnabled('paint', {})).toBe(true)
    expect(engine.isEnabled('off', {})).toBe(false)
  })

  it.each([
    ['not JSON', '{"a": ', /^is not JSON: /],
    ['an array', '[1]', /must hold a JSON object.*found an array/],
    ['an entry that is not an object', '{"a": true}', /"a" must be an object/],
    ['an entry whose enabled is not a boolean', '{"a": {"enabled": "yes"}}', /"a".enabled must be true or false/],
    ['a variant that is not a string', '{"a": {"enabled": true, "variant": 3}}', /"a".variant must be a string/],
    ['client features without a features array', '{"version": 2, "features": {}}', /features must be an array/],
    ['client features without a version', '{"features": []}', /version must be a whole number/],
  ])('refuses %s, saying why', (_, text, why) => {
    expect(() => parseOfflineFlags(text)).toThrow(OfflineFileError)
    expect(() => parseOfflineFlags(text)).toThrow(why)
  })
})

describe('offline settings (config/offline.ts)', () => {
  it('is off unless the offline command (or code) asks for it, whatever the environment holds', () => {
    expect(
      parseOfflineConfig(undefined, { BOOTSTRAP_FILE: 'flags.json', CLIENT_TOKENS: '*:development.a' }),
    ).toBeUndefined()
  })

  it("reads Edge's variables: comma-separated tokens, the interval in seconds, the file made absolute", () => {
    const config = parseOfflineConfig(
      {},
      {
        BOOTSTRAP_FILE: 'flags.json',
        CLIENT_TOKENS: ' *:development.a, *:development.b ',
        FRONTEND_TOKENS: '*:development.f',
        RELOAD_INTERVAL: '5',
      },
    )
    expect(config).toEqual({
      bootstrapFile: expect.stringMatching(/^\/.*\/flags\.json$/),
      clientTokens: ['*:development.a', '*:development.b'],
      frontendTokens: ['*:development.f'],
      reloadIntervalMs: 5000,
    })
  })

  it('takes options over variables, a repeated option as a list, and never reloads by default', () => {
    const config = parseOfflineConfig(
      { bootstrapFile: '/flags.json', clientTokens: ['*:development.a,*:development.b', '*:development.c'] },
      { CLIENT_TOKENS: '*:development.x' },
    )
    expect(config).toEqual({
      bootstrapFile: '/flags.json',
      clientTokens: ['*:development.a', '*:development.b', '*:development.c'],
      frontendTokens: [],
      reloadIntervalMs: 0,
    })
  })

  it("needs none of the upstream's settings, and lets those left in the environment be", async () => {
    const config = await createProxyConfig(
      { offline: {} },
      { BOOTSTRAP_FILE: '/flags.json', CLIENT_TOKENS: '*:development.a', SERVICE_API_TOKEN: 'old-proxy-token' },
    )
    expect(config.offline).toMatchObject({ bootstrapFile: '/flags.json', clientTokens: ['*:development.a'] })
    expect(
      (await createProxyConfig({ offline: { bootstrapFile: '/f.json', frontendTokens: ['*:development.f'] } }, {}))
        .serviceUrl,
    ).toBe('')
    expect(
      (
        await createProxyConfig(
          {},
          { SERVICE_URL: 'http://u/api', TOKENS: '*:development.a', BOOTSTRAP_FILE: '/flags.json' },
        )
      ).offline,
    ).toBeUndefined()
  })

  it.each([
    ['no file', {}, /^BOOTSTRAP_FILE is required in offline mode/],
    ['no token', { BOOTSTRAP_FILE: 'f.json' }, /^CLIENT_TOKENS or FRONTEND_TOKENS is required/],
    [
      'a token in both lists',
      { BOOTSTRAP_FILE: 'f.json', CLIENT_TOKENS: '*:development.a', FRONTEND_TOKENS: '*:development.a' },
      /^FRONTEND_TOKENS must not list a token CLIENT_TOKENS lists too \(\*:development\.…\)/,
    ],
    [
      'an interval that is not a whole number',
      { BOOTSTRAP_FILE: 'f.json', CLIENT_TOKENS: '*:development.a', RELOAD_INTERVAL: 'often' },
      /^RELOAD_INTERVAL must be a whole number/,
    ],
  ])('refuses %s, naming the variable', (_, env, why) => {
    expect(() => parseOfflineConfig({}, env)).toThrow(why)
  })
})
