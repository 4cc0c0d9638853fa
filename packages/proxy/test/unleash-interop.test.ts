// Vexil's frontend API against a real Unleash 8.2 (test-fixtures/src/unleash-server.ts): a varied
// flag set made through Unleash's admin API, a Vexil proxy syncing it from that Unleash with one
// client token per environment, and the same requests sent to both with the same frontend token.
// Bodies must be byte-identical and the headers SDKs and browsers read equal: Vexil answers as
// Unleash 8.2 does (docs/edge-compatibility.md §3). Every context names a sessionId, since
// Unleash invents a random one when it is absent. Outside CI a machine without the install
// skips with a message; under CI=true its absence fails.
import { hostname } from 'node:os'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest, type RawResponse, type RequestOptions } from '@vexil/test-fixtures/raw-request.ts'
import {
  type StrategyInput,
  startUnleashServer,
  type UnleashServer,
  unleashServerAvailable,
  unleashServerMissing,
} from '@vexil/test-fixtures/unleash-server.ts'
import { waitFor } from '@vexil/test-fixtures/wait-for.ts'
import { startTestProxy, type TestProxy } from './helpers/proxy.js'

const available = unleashServerAvailable()
if (!available)
  console.warn(
    `[unleash-interop] ${unleashServerMissing()}: the Unleash comparison tests are skipped (they fail under CI=true).`,
  )

const D = 'development'
const P = 'production'
type Env = typeof D | typeof P

interface FlagSpec {
  name: string
  impressionData?: boolean
  /** Strategies per environment; the flag is enabled in each listed environment not in `off`. */
  strategies: Partial<Record<Env, StrategyInput[]>>
  off?: Env[]
  /** Flag-level (legacy) variants per environment. */
  variants?: Partial<Record<Env, unknown[]>>
  dependency?: { feature: string; enabled?: boolean; variants?: string[] }
}

const constraint = (
  contextName: string,
  operator: string,
  values: string[] | string,
  extra: { inverted?: boolean; caseInsensitive?: boolean } = {},
) => ({
  contextName,
  operator,
  ...(Array.isArray(values) ? { values } : { value: values }),
  inverted: false,
  caseInsensitive: false,
  ...extra,
})
const rollout = (percent: number, stickiness: string, groupId: string): StrategyInput => ({
  name: 'flexibleRollout',
  parameters: { rollout: String(percent), stickiness, groupId },
})
const DEFAULT: StrategyInput = { name: 'default' }
// Unleash runs with the HOSTNAME given here (or none: then both use os.hostname()).
const HOST = process.env.HOSTNAME || hostname()

function flagSet(segments: { tenants: number; adults: number }): FlagSpec[] {
  const variant = (
    name: string,
    weight: number,
    stickiness: string,
    payload?: { type: string; value: string },
    weightType = 'variable',
  ) => ({ name, weight, weightType, stickiness, ...(payload ? { payload } : {}) })
  return [
    {
      name: 'default-on',
      impressionData: true,
      strategies: { [D]: [DEFAULT], [P]: [{ ...DEFAULT, constraints: [constraint('userId', 'IN', ['u2'])] }] },
    },
    { name: 'rollout-user-50', strategies: { [D]: [rollout(50, 'userId', 'interop-group')] } },
    { name: 'rollout-default-30', strategies: { [D]: [rollout(30, 'default', 'rollout-default-30')] } },
    { name: 'rollout-session-70', strategies: { [D]: [rollout(70, 'sessionId', 'rollout-session-70')] } },
    { name: 'user-with-id', strategies: { [D]: [{ name: 'userWithId', parameters: { userIds: 'u1, u3,alice' } }] } },
    {
      name: 'remote-address',
      strategies: { [D]: [{ name: 'remoteAddress', parameters: { IPs: '127.0.0.1, 10.1.2.3' } }] },
    },
    {
      name: 'application-hostname',
      strategies: {
        [D]: [{ name: 'applicationHostname', parameters: { hostNames: `elsewhere, ${HOST.toUpperCase()}` } }],
      },
    },
    { name: 'constraint-in', strategies: { [D]: [{ constraints: [constraint('userId', 'IN', ['u1', 'u2', '42'])] }] } },
    { name: 'constraint-not-in', strategies: { [D]: [{ constraints: [constraint('tenant', 'NOT_IN', ['acme'])] }] } },
    {
      name: 'constraint-str-contains',
      strategies: {
        [D]: [{ constraints: [constraint('email', 'STR_CONTAINS', ['@EXAMPLE.com'], { caseInsensitive: true })] }],
      },
    },
    { name: 'constraint-num-gt', strategies: { [D]: [{ constraints: [constraint('age', 'NUM_GT', '18')] }] } },
    {
      name: 'constraint-date-after',
      strategies: { [D]: [{ constraints: [constraint('currentTime', 'DATE_AFTER', '2020-01-01T00:00:00.000Z')] }] },
    },
    {
      name: 'constraint-date-before',
      strategies: { [D]: [{ constraints: [constraint('currentTime', 'DATE_BEFORE', '2021-01-01T00:00:00.000Z')] }] },
    },
    {
      name: 'constraint-semver-gt',
      strategies: { [D]: [{ constraints: [constraint('version', 'SEMVER_GT', '1.2.3')] }] },
    },
    {
      name: 'constraint-inverted',
      strategies: { [D]: [{ constraints: [constraint('userId', 'IN', ['u1'], { inverted: true })] }] },
    },
    {
      name: 'constraint-regex',
      strategies: { [D]: [{ constraints: [constraint('userId', 'REGEX', '^U[0-9]+$', { caseInsensitive: true })] }] },
    },
    {
      name: 'constraints-combined',
      strategies: {
        [D]: [
          {
            constraints: [
              constraint('tenant', 'IN', ['acme', 'globex']),
              constraint('email', 'STR_STARTS_WITH', ['admin']),
              constraint('age', 'NUM_LTE', '40'),
            ],
          },
        ],
      },
    },
    { name: 'segment', strategies: { [D]: [{ segments: [segments.tenants] }] } },
    {
      name: 'segments-and-constraint',
      impressionData: true,
      strategies: {
        [D]: [{ segments: [segments.tenants, segments.adults], constraints: [constraint('userId', 'NOT_IN', ['u1'])] }],
      },
    },
    {
      // At 100 % by userId: with no userId Unleash would pick a variant at random (userId stickiness).
      name: 'strategy-variants',
      strategies: {
        [D]: [
          {
            ...rollout(100, 'userId', 'strategy-variants'),
            variants: [
              variant('str', 334, 'userId', { type: 'string', value: 'hello' }),
              variant('json', 333, 'userId', { type: 'json', value: '{"a":[1,2],"b":"ü"}' }),
              variant('num', 333, 'userId', { type: 'number', value: '42.5' }),
            ],
          },
        ],
      },
    },
    {
      name: 'strategy-variants-tenant',
      strategies: {
        [D]: [
          {
            ...rollout(100, 'tenant', 'svt'),
            variants: [
              variant('fixed', 200, 'tenant', { type: 'string', value: 'fixed' }, 'fix'),
              variant('rest', 800, 'tenant'),
            ],
          },
        ],
      },
    },
    {
      name: 'variants-per-strategy',
      strategies: {
        [D]: [
          {
            constraints: [constraint('tenant', 'IN', ['acme'])],
            variants: [variant('for-acme', 1000, 'default', { type: 'string', value: 'acme' })],
          },
          {
            variants: [
              variant('everyone-else', 500, 'sessionId'),
              variant('others', 500, 'sessionId', { type: 'json', value: '[]' }),
            ],
          },
        ],
      },
    },
    {
      // Unleash's SDK builds a flag-level variant as { name, payload, enabled }: its keys come in that order.
      name: 'flag-variants',
      strategies: { [D]: [DEFAULT] },
      variants: {
        [D]: [
          {
            ...variant('a', 450, 'default', { type: 'string', value: 'A' }),
            overrides: [{ contextName: 'userId', values: ['u2'] }],
          },
          variant('b', 450, 'default', { type: 'json', value: '{"b":true}' }),
          variant('c', 100, 'default', undefined, 'fix'),
        ],
      },
    },
    { name: 'disabled-flag', strategies: { [D]: [DEFAULT], [P]: [DEFAULT] }, off: [D] },
    {
      name: 'disabled-strategy',
      strategies: { [D]: [{ ...DEFAULT, disabled: true }, { constraints: [constraint('userId', 'IN', ['u3'])] }] },
    },
    { name: 'child-of-enabled', strategies: { [D]: [DEFAULT] }, dependency: { feature: 'default-on' } },
    { name: 'child-of-disabled', strategies: { [D]: [DEFAULT] }, dependency: { feature: 'disabled-flag' } },
    // Unleash's frontend API knows only the flags enabled in the token's environment: a parent
    // disabled there is missing, and a dependency on it is never satisfied, `enabled: false` too.
    {
      name: 'child-of-disabled-negated',
      strategies: { [D]: [DEFAULT] },
      dependency: { feature: 'disabled-flag', enabled: false },
    },
    { name: 'child-of-rollout', strategies: { [D]: [DEFAULT] }, dependency: { feature: 'rollout-user-50' } },
    {
      name: 'child-of-variant',
      strategies: { [D]: [DEFAULT] },
      dependency: { feature: 'strategy-variants', variants: ['json'] },
    },
    { name: 'production-only', impressionData: true, strategies: { [P]: [DEFAULT] } },
    {
      name: 'production-variants',
      strategies: { [P]: [{ variants: [variant('prod', 1000, 'default', { type: 'string', value: 'p' })] }] },
    },
  ]
}

/** Unleash 8.2 no longer ships `userWithId`; a strategy definition of that name brings it back (the SDK still implements it). */
async function createFlags(unleash: UnleashServer): Promise<FlagSpec[]> {
  const { admin } = unleash
  await admin.call('POST', '/api/admin/strategies', {
    name: 'userWithId',
    description: 'users by id',
    parameters: [{ name: 'userIds', type: 'list', description: '', required: false }],
  })
  await admin.createContextField('tenant', { stickiness: true })
  const tenants = await admin.createSegment('tenants', [constraint('tenant', 'IN', ['acme', 'globex'])])
  const adults = await admin.createSegment('adults', [constraint('age', 'NUM_GTE', '18')])
  const flags = flagSet({ tenants: tenants.id, adults: adults.id })
  for (const flag of flags) {
    await admin.createFlag(flag.name, { impressionData: flag.impressionData ?? false })
    for (const [environment, strategies] of Object.entries(flag.strategies) as Array<[Env, StrategyInput[]]>) {
      for (const strategy of strategies) await admin.addStrategy(flag.name, environment, strategy)
      const variants = flag.variants?.[environment]
      if (variants) await admin.setVariants(flag.name, environment, variants)
      if (flag.dependency) await admin.addDependency(flag.name, flag.dependency)
      if (!flag.off?.includes(environment)) await admin.enable(flag.name, environment)
    }
  }
  return flags
}

/** A context as GET query and POST body; a nested `properties` object becomes `properties[k]=v`. */
type Context = Record<string, string | Record<string, string>>

const CONTEXTS: Context[] = [
  { userId: 'u1', sessionId: 's1' },
  { userId: 'u2', sessionId: 's1' },
  { userId: 'u3', sessionId: 's2' },
  { userId: 'alice', sessionId: 's3' },
  { userId: '42', sessionId: 's4' },
  { sessionId: 'only-session-1' },
  { sessionId: 'only-session-2' },
  { userId: 'u1', sessionId: 's1', properties: { tenant: 'acme' } },
  { userId: 'u4', sessionId: 's5', tenant: 'globex' },
  { userId: 'u5', sessionId: 's6', properties: { tenant: 'initech' } },
  { userId: 'u6', sessionId: 's7', properties: { email: 'Bob@Example.COM' } },
  { userId: 'u7', sessionId: 's8', email: 'admin@example.com', tenant: 'acme' },
  { userId: 'u8', sessionId: 's9', properties: { age: '18' } },
  { userId: 'u9', sessionId: 's10', properties: { age: '18.5', tenant: 'globex' } },
  { userId: 'u10', sessionId: 's11', age: 'abc' },
  { userId: 'u11', sessionId: 's12', properties: { version: '1.2.4' } },
  { userId: 'u12', sessionId: 's13', properties: { version: '1.2.3' } },
  { userId: 'u13', sessionId: 's14', properties: { version: '2.0.0-beta.1' } },
  { userId: 'u14', sessionId: 's15', version: 'v1.3.0' },
  { userId: 'u15', sessionId: 's16', remoteAddress: '10.1.2.3' },
  { userId: 'u16', sessionId: 's17', remoteAddress: '192.168.0.1' },
  { userId: 'U1', sessionId: 's18' },
  { userId: 'u17', sessionId: 's20', currentTime: '2019-01-01T00:00:00.000Z' },
  {
    userId: 'u18',
    sessionId: 's21',
    properties: { tenant: 'acme', email: 'admin@corp.example.com', age: '30', version: '1.10.0' },
  },
  { userId: 'u19', sessionId: 's22', appName: 'web' },
  { userId: '', sessionId: 's23' },
  { userId: 'u20', sessionId: 's24', properties: { tenant: 'ACME' } },
  { userId: 'a b&c=d', sessionId: 's 25' },
  { userId: 'u2', sessionId: 's26', properties: { tenant: 'globex', email: 'x@EXAMPLE.com' } },
  ...Array.from({ length: 10 }, (_, i) => ({
    userId: `r${i}`,
    sessionId: `rs${i}`,
    tenant: i % 2 ? 'acme' : 'globex',
  })),
]

function toQuery(context: Context): string {
  const pairs: string[] = []
  for (const [key, value] of Object.entries(context)) {
    if (typeof value === 'string') pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    else
      for (const [name, inner] of Object.entries(value))
        pairs.push(`${key}[${encodeURIComponent(name)}]=${encodeURIComponent(inner)}`)
  }
  return pairs.join('&')
}

/** Headers compared by value; the names of all others must match too, except these. */
const COMPARED = [
  'content-type',
  'cache-control',
  'etag',
  'vary',
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-expose-headers',
]
const IGNORED = /^(date|connection|keep-alive|x-powered-by|ratelimit-.*|content-length|transfer-encoding)$/

/** What must be equal: status, the compared headers, the other header names, the body bytes. */
function view(response: RawResponse, extraHeaders: string[] = []) {
  return {
    status: response.status,
    headers: Object.fromEntries([...COMPARED, ...extraHeaders].map((name) => [name, response.headers[name]])),
    otherHeaders: Object.keys(response.headers)
      .filter((name) => !IGNORED.test(name) && !COMPARED.includes(name) && !extraHeaders.includes(name))
      .sort(),
    body: Buffer.from(response.text, 'utf8').equals(response.raw)
      ? response.text
      : `hex:${response.raw.toString('hex')}`,
  }
}

describe.runIf(available)('the frontend API of Vexil and of a real Unleash 8.2', () => {
  let unleash: UnleashServer
  let vexil: TestProxy
  let flags: FlagSpec[]
  let frontend: { [D]: string; [P]: string }
  let client: { [D]: string; [P]: string }

  const both = (method: string, path: string, options?: RequestOptions) =>
    Promise.all([unleash.request(method, path, options), rawRequest(vexil.url, method, path, options)])
  const expectSame = ([fromUnleash, fromVexil]: RawResponse[], extraHeaders: string[] = []) => {
    expect(view(fromVexil!, extraHeaders)).toEqual(view(fromUnleash!, extraHeaders))
    expect(fromVexil!.raw.equals(fromUnleash!.raw)).toBe(true)
  }
  const namesIn = (env: Env) => flags.filter((flag) => flag.strategies[env]).map((flag) => flag.name)

  beforeAll(async () => {
    unleash = await startUnleashServer(process.env.HOSTNAME ? { env: { HOSTNAME: process.env.HOSTNAME } } : {})
    try {
      flags = await createFlags(unleash)
      frontend = { [D]: await unleash.frontendToken(D), [P]: await unleash.frontendToken(P) }
      client = { [D]: await unleash.clientToken(D), [P]: await unleash.clientToken(P) }
      // Unleash's client API and its frontend cache (refreshed on revision events) both show every flag.
      for (const env of [D, P] as const) {
        await waitFor(
          async () => {
            const features = (
              await unleash.request('GET', '/api/client/features', { headers: { authorization: client[env] } })
            ).json as { features?: Array<{ name: string }> }
            return namesIn(env).every((name) => features.features?.some((feature) => feature.name === name))
          },
          `Unleash /api/client/features in ${env}`,
          10_000,
        )
      }
      await unleash.waitForFrontend(
        frontend[D],
        (toggles) => toggles.some((toggle) => toggle.name === 'child-of-variant'),
        { query: 'userId=r1&sessionId=s' },
      )
      await unleash.waitForFrontend(
        frontend[P],
        (toggles) => toggles.some((toggle) => toggle.name === 'production-variants'),
        { query: 'sessionId=s' },
      )
    } catch (error) {
      console.error(unleash?.logs())
      throw error
    }
    vexil = await startTestProxy(`${unleash.url}/api`, {
      serviceApiToken: undefined,
      tokens: [client[D], client[P]],
      refreshInterval: 500,
    })
    expect(vexil.proxy.ready).toBe(true)
  })

  afterAll(async () => {
    await vexil?.close()
    await unleash?.stop()
  })

  describe('evaluation: the same bytes and headers for every context', () => {
    it.each(CONTEXTS.map((context) => [toQuery(context), context]))('GET /api/frontend?%s', async (query) => {
      expectSame(await both('GET', `/api/frontend?${query}`, { headers: { authorization: frontend[D] } }))
    })

    it.each(CONTEXTS.map((context) => [JSON.stringify(context), context]))(
      'POST /api/frontend {"context":%s}',
      async (_, context) => {
        expectSame(await both('POST', '/api/frontend', { headers: { authorization: frontend[D] }, body: { context } }))
      },
    )

    // The one deliberate difference in evaluation: a non-ASCII stickiness value. Unleash's Node SDK
    // hashes the low byte of each UTF-16 unit; Vexil hashes the UTF-8 bytes, as every other SDK
    // does (docs/evaluation.md section 2). ASCII values (all of the above) hash alike.
    it('a non-ASCII userId may land in another bucket than in Unleash (UTF-8 hashing, by design): both answer 200', async () => {
      const [fromUnleash, fromVexil] = await both(
        'GET',
        `/api/frontend?${toQuery({ userId: 'user-ümlaut', sessionId: 's19' })}`,
        { headers: { authorization: frontend[D] } },
      )
      expect([fromUnleash!.status, fromVexil!.status]).toEqual([200, 200])
    })

    it.each(CONTEXTS.slice(0, 6).map((context) => [toQuery(context)]))(
      'GET /api/frontend?%s with the production token: its own environment only',
      async (query) => {
        const answers = await both('GET', `/api/frontend?${query}`, { headers: { authorization: frontend[P] } })
        expectSame(answers)
        const names = (answers[0]!.json as { toggles: Array<{ name: string }> }).toggles.map((toggle) => toggle.name)
        expect(names).toEqual(expect.arrayContaining(['production-only', 'disabled-flag']))
        expect(names).not.toContain('constraint-date-after')
      },
    )

    it.each([
      ['a number userId', { userId: 42, sessionId: 's' }],
      ['a number property', { userId: 'u8', sessionId: 's', properties: { age: 30 } }],
      ['a boolean property', { userId: 'u1', sessionId: 's', properties: { tenant: true } }],
      ['userId 0', { userId: 0, sessionId: 's' }],
      ['a valid currentTime', { userId: 'u1', sessionId: 's', currentTime: '2019-01-01T00:00:00Z' }],
    ])('POST /api/frontend with %s', async (_, context) => {
      expectSame(await both('POST', '/api/frontend', { headers: { authorization: frontend[D] }, body: { context } }))
    })
  })

  describe('HTTP behaviour', () => {
    const QUERY = 'userId=u1&sessionId=s1&tenant=acme'

    it('answers 304 to a GET naming its ETag, 200 to a POST naming it, and HEAD like GET without a body', async () => {
      // Each server is asked with its own ETag: the 304 must not depend on the bodies being equal.
      const [fromUnleash, fromVexil] = await both('GET', `/api/frontend?${QUERY}`, {
        headers: { authorization: frontend[D] },
      })
      const withEtag = (response: RawResponse, extra: RequestOptions = {}) => ({
        ...extra,
        headers: { authorization: frontend[D], 'if-none-match': response.headers.etag as string },
      })
      const revalidate = (method: string, path: string, extra?: RequestOptions) =>
        Promise.all([
          unleash.request(method, path, withEtag(fromUnleash!, extra)),
          rawRequest(vexil.url, method, path, withEtag(fromVexil!, extra)),
        ])
      const notModified = await revalidate('GET', `/api/frontend?${QUERY}`)
      expect(notModified.map((response) => response.status)).toEqual([304, 304])
      expectSame(
        notModified.map((response) => ({ ...response, headers: { ...response.headers, etag: 'compared above' } })),
      )
      expect(notModified.map((response) => response.headers.etag)).toEqual([
        fromUnleash!.headers.etag,
        fromVexil!.headers.etag,
      ])
      const posted = await revalidate('POST', '/api/frontend', {
        body: { context: { userId: 'u1', sessionId: 's1', tenant: 'acme' } },
      })
      expect(posted.map((response) => response.status)).toEqual([200, 200])
      expectSame(posted)
      expectSame(await both('HEAD', `/api/frontend?${QUERY}`, { headers: { authorization: frontend[D] } }))
    })

    it('compresses alike with Accept-Encoding: gzip (the same body once decompressed)', async () => {
      const query = toQuery({
        userId: 'r1',
        sessionId: 'rs1',
        properties: { tenant: 'acme', email: 'admin@example.com', age: '30', version: '1.10.0' },
      })
      const answers = await both('GET', `/api/frontend?${query}`, {
        headers: { authorization: frontend[D], 'accept-encoding': 'gzip' },
      })
      const [fromUnleash, fromVexil] = answers.map((response) => ({
        ...view(response, ['content-encoding']),
        body:
          response.headers['content-encoding'] === 'gzip' ? gunzipSync(response.raw).toString('utf8') : response.text,
      }))
      expect(fromVexil).toEqual(fromUnleash)
    })

    it.each([
      ['an array userId', { userId: ['u1'], sessionId: 's' }],
      ['a currentTime that is not a date-time', { userId: 'u1', sessionId: 's', currentTime: 'yesterday' }],
      ['an object property', { userId: 'u1', sessionId: 's', properties: { tenant: { name: 'acme' } } }],
      ['a context that is not an object', 'u1'],
    ])("refuses a POST body with %s alike (400, the error's random id aside)", async (_, context) => {
      const answers = await both('POST', '/api/frontend', {
        headers: { authorization: frontend[D] },
        body: { context },
      })
      const [fromUnleash, fromVexil] = answers.map((response) => ({
        ...view(response),
        headers: { ...view(response).headers, etag: 'differs with the id' },
        body: { ...(response.json as object), id: typeof (response.json as { id?: unknown })?.id },
      }))
      expect(fromVexil).toEqual(fromUnleash)
    })

    /** Equal but for the error's random id (and the ETag over it): the body compared byte for byte with the id masked. */
    const expectSameError = (answers: RawResponse[]) => {
      const [fromUnleash, fromVexil] = answers.map((response) => ({
        ...view(response),
        headers: { ...view(response).headers, etag: 'differs with the id' },
        body: response.text.replace(/^\{"id":"[0-9a-f-]{36}",/, '{"id":"<random>",'),
      }))
      expect(fromVexil).toEqual(fromUnleash)
    }

    it.each(['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded'])(
      'refuses POST /api/frontend with Content-Type %s alike (415 ContentTypeError)',
      async (contentType) => {
        expectSameError(
          await both('POST', '/api/frontend', {
            headers: { authorization: frontend[D], 'content-type': contentType },
            body: '{"context":{}}',
          }),
        )
      },
    )

    it.each([
      [
        'no appName',
        {
          instanceId: 'i',
          bucket: { start: '2026-01-01T00:00:00.000Z', stop: '2026-01-01T00:01:00.000Z', toggles: {} },
        },
      ],
      ['an empty body', {}],
      [
        'an empty appName',
        {
          appName: '',
          instanceId: 'i',
          bucket: { start: '2026-01-01T00:00:00.000Z', stop: '2026-01-01T00:01:00.000Z', toggles: {} },
        },
      ],
    ])('refuses POST /api/frontend/client/metrics with %s alike (400 BadDataError)', async (_, body) => {
      expectSameError(
        await both('POST', '/api/frontend/client/metrics', { headers: { authorization: frontend[D] }, body }),
      )
    })

    it('refuses POST /api/frontend/client/metrics with Content-Type text/plain alike (415 ContentTypeError)', async () => {
      expectSameError(
        await both('POST', '/api/frontend/client/metrics', {
          headers: { authorization: frontend[D], 'content-type': 'text/plain' },
          body: '{}',
        }),
      )
    })

    it.each([
      ['no token', undefined],
      ['an unknown token', '*:development.not-a-known-secret'],
      ['a malformed token', 'not-a-token'],
      ['a client token', 'client'],
      ['the admin token', 'admin'],
    ])('refuses GET and POST /api/frontend with %s alike', async (_, token) => {
      const authorization = token === 'client' ? client[D] : token === 'admin' ? unleash.adminToken : token
      const headers: Record<string, string> = authorization ? { authorization } : {}
      expectSame(await both('GET', `/api/frontend?${QUERY}`, { headers }))
      expectSame(await both('POST', '/api/frontend', { headers, body: { context: { userId: 'u1', sessionId: 's1' } } }))
    })

    it.each([
      [
        'with requested headers',
        {
          origin: 'https://app.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      ],
      ['without requested headers', { origin: 'https://app.example', 'access-control-request-method': 'GET' }],
    ])('answers a CORS preflight %s alike', async (_, headers) => {
      expectSame(await both('OPTIONS', '/api/frontend', { headers }), [
        'access-control-allow-methods',
        'access-control-allow-headers',
        'access-control-max-age',
      ])
    })

    it('sends CORS headers for a cross-origin GET alike', async () => {
      expectSame(
        await both('GET', `/api/frontend?${QUERY}`, {
          headers: { authorization: frontend[D], origin: 'https://app.example' },
        }),
      )
    })
  })

  // Unleash evaluates with its SDK's static context, { appName: 'frontend-api', environment:
  // 'default' }, under the request's context: a field the request leaves out has that value, and
  // one it gives wins. These flags change every answer, so they are added last.
  describe('appName and environment constraints (flags added after the tests above)', () => {
    const PROBES: Array<[string, ReturnType<typeof constraint>]> = [
      ['probe-app-name', constraint('appName', 'IN', ['frontend-api'])],
      ['probe-environment-default', constraint('environment', 'IN', ['default'])],
      ['probe-environment-development', constraint('environment', 'IN', ['development'])],
      ['probe-environment-production', constraint('environment', 'IN', ['production'])],
    ]
    const CONTEXT = { userId: 'u1', sessionId: 's1' }
    const probesIn = (response: RawResponse) =>
      (response.json as { toggles: Array<{ name: string }> }).toggles
        .map((toggle) => toggle.name)
        .filter((name) => name.startsWith('probe-'))
        .sort()

    beforeAll(async () => {
      for (const [name, probe] of PROBES) {
        await unleash.admin.createFlag(name)
        await unleash.admin.addStrategy(name, D, { constraints: [probe] })
        await unleash.admin.enable(name, D)
      }
      // Unleash's frontend cache can refresh between two probes' creation: wait until it shows
      // each probe, asked with a context that satisfies it (CI once saw the last one missing).
      const satisfying: Record<string, Context> = {
        'probe-app-name': CONTEXT,
        'probe-environment-default': CONTEXT,
        'probe-environment-development': { ...CONTEXT, environment: 'development' },
        'probe-environment-production': { ...CONTEXT, environment: 'production' },
      }
      for (const [name] of PROBES) {
        await unleash.waitForFrontend(frontend[D], (toggles) => toggles.some((toggle) => toggle.name === name), {
          query: toQuery(satisfying[name]!),
        })
      }
      await waitFor(
        async () => {
          const all = await rawRequest(vexil.url, 'GET', `/api/frontend/all?${toQuery(CONTEXT)}`, {
            headers: { authorization: frontend[D] },
          })
          return PROBES.every(([name]) => all.text.includes(`"name":"${name}"`))
        },
        'Vexil to sync the probe flags',
        10_000,
      )
    })

    const probesOf = async (context: Context, prefix: string) => {
      const answers = await both('GET', `/api/frontend?${toQuery(context)}`, {
        headers: { authorization: frontend[D] },
      })
      const [fromUnleash, fromVexil] = answers.map((response) =>
        probesIn(response).filter((name) => name.startsWith(prefix)),
      )
      return { fromUnleash, fromVexil }
    }

    it('evaluates an appName constraint as Unleash does when the context has no appName ("frontend-api")', async () => {
      const { fromUnleash, fromVexil } = await probesOf(CONTEXT, 'probe-app-name')
      expect(fromUnleash).toEqual(['probe-app-name'])
      expect(fromVexil).toEqual(fromUnleash)
    })

    it.each(['frontend-api', 'web'])('evaluates an appName constraint alike for appName=%s', async (appName) => {
      const { fromUnleash, fromVexil } = await probesOf({ ...CONTEXT, appName }, 'probe-app-name')
      expect(fromVexil).toEqual(fromUnleash)
    })

    it('evaluates environment constraints as Unleash does when the context has no environment ("default")', async () => {
      const { fromUnleash, fromVexil } = await probesOf(CONTEXT, 'probe-environment-')
      expect(fromUnleash).toEqual(['probe-environment-default'])
      expect(fromVexil).toEqual(fromUnleash)
    })

    // The flags stay the token's environment's; the context's `environment` is only a value for
    // constraints, in Unleash and in Vexil alike (docs/edge-compatibility.md section 3).
    it('?environment=production on a development token: the same answer (development flags, constraints see production)', async () => {
      const answers = await both('GET', `/api/frontend?${toQuery({ ...CONTEXT, environment: 'production' })}`, {
        headers: { authorization: frontend[D] },
      })
      expect(probesIn(answers[0]!)).toEqual(['probe-app-name', 'probe-environment-production'])
      expectSame(answers)
    })
  })
})
