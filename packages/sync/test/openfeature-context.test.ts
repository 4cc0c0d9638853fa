// The context mapping, for both its users: the OpenFeature provider maps every evaluation context
// with it, the proxy's OFREP routes every request's `context` (a JSON object, mapped by the copying
// form). The table as the copying form shows it; then the invariant that lets the provider skip
// the copy: the engine reads a context the same whether its properties are copied or not.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createEngine } from '@vexil/engine'
import { type EvaluationContextLike as EvaluationContext, toUnleashContext } from '../src/index.js'

const copied = (context: EvaluationContext) => toUnleashContext(context, 'app', 'production', true)
const TOP = {
  userId: undefined,
  sessionId: undefined,
  remoteAddress: undefined,
  environment: 'production',
  appName: 'app',
  currentTime: undefined,
}
const when = new Date('2026-03-01T12:00:00.000Z')

describe('the OpenFeature-to-Unleash context mapping table', () => {
  it.each<[string, EvaluationContext, Record<string, unknown>]>([
    [
      'targetingKey is userId, and a property',
      { targetingKey: 'u1' },
      { userId: 'u1', properties: { targetingKey: 'u1' } },
    ],
    [
      'an explicit userId wins over targetingKey, in either order',
      { userId: 'explicit', targetingKey: 'u1' },
      { userId: 'explicit', properties: { targetingKey: 'u1' } },
    ],
    [
      '... either order',
      { targetingKey: 'u1', userId: 'explicit' },
      { userId: 'explicit', properties: { targetingKey: 'u1' } },
    ],
    [
      'a null userId is no explicit userId',
      { targetingKey: 'u1', userId: null },
      { userId: 'u1', properties: { targetingKey: 'u1' } },
    ],
    [
      'the Unleash fields stay top-level, stringified',
      { sessionId: 42, remoteAddress: '10.0.0.1', userId: true },
      { userId: 'true', sessionId: '42', remoteAddress: '10.0.0.1', properties: {} },
    ],
    [
      'environment and appName override the defaults',
      { environment: 'staging', appName: 'web' },
      { environment: 'staging', appName: 'web', properties: {} },
    ],
    ['... and null keeps the defaults', { environment: null, appName: null }, { properties: {} }],
    ['currentTime as a Date stays a Date', { currentTime: when }, { currentTime: when, properties: {} }],
    [
      'currentTime as an ISO string stays a string',
      { currentTime: '2026-03-01T12:00:00Z' },
      { currentTime: '2026-03-01T12:00:00Z', properties: {} },
    ],
    ['currentTime as epoch ms becomes a Date', { currentTime: when.getTime() }, { currentTime: when, properties: {} }],
    ['an invalid currentTime is dropped', { currentTime: 'yesterday' }, { properties: {} }],
    ['an invalid Date currentTime is dropped', { currentTime: new Date('nope') }, { properties: {} }],
    ['other keys: strings as they are', { tenant: 'acme' }, { properties: { tenant: 'acme' } }],
    ['numbers and booleans stringified', { score: 7.5, beta: false }, { properties: { score: '7.5', beta: 'false' } }],
    ['a Date as ISO', { since: when }, { properties: { since: '2026-03-01T12:00:00.000Z' } }],
    [
      'objects and arrays as JSON',
      { plan: { tier: 'pro' }, tags: ['a', 'b'] },
      { properties: { plan: '{"tier":"pro"}', tags: '["a","b"]' } },
    ],
    [
      'null and undefined dropped',
      { gone: null, missing: undefined } as unknown as EvaluationContext,
      { properties: {} },
    ],
    [
      'a properties object merged',
      { properties: { tenant: 'acme', score: 3 } },
      { properties: { tenant: 'acme', score: '3' } },
    ],
    [
      "properties' entries win over the context's own keys (as on /proxy and OFREP)",
      { properties: { tenant: 'from-properties' }, tenant: 'own' },
      { properties: { tenant: 'from-properties' } },
    ],
    [
      '... in either order',
      { tenant: 'own', properties: { tenant: 'from-properties', region: 'eu' } },
      { properties: { tenant: 'from-properties', region: 'eu' } },
    ],
    [
      'a properties value that is not an object is a property',
      { properties: 'flat' },
      { properties: { properties: 'flat' } },
    ],
    // What an OFREP body can hold besides: JSON objects and arrays where a string is expected.
    [
      'an Unleash field that is an object or array is dropped',
      { sessionId: { id: 1 }, remoteAddress: ['10.0.0.1'], appName: {} },
      { properties: {} },
    ],
    [
      'an object userId is no explicit userId: targetingKey stands',
      { userId: { id: 1 }, targetingKey: 'u1' },
      { userId: 'u1', properties: { targetingKey: 'u1' } },
    ],
    [
      'an object targetingKey is no userId, and a property as JSON',
      { targetingKey: { id: 1 } },
      { properties: { targetingKey: '{"id":1}' } },
    ],
    [
      'a numeric targetingKey is userId, stringified',
      { targetingKey: 42 },
      { userId: '42', properties: { targetingKey: '42' } },
    ],
    [
      'an empty userId is explicit',
      { userId: '', targetingKey: 'u1' },
      { userId: '', properties: { targetingKey: 'u1' } },
    ],
    [
      'nested properties: only strings come out',
      { properties: { plan: { tier: 'pro' }, n: 1, gone: null } },
      { properties: { plan: '{"tier":"pro"}', n: '1' } },
    ],
  ])('%s', (_, context, expected) => {
    expect(copied(context)).toEqual({ ...TOP, ...expected })
  })

  it('no context: the defaults only', () => {
    expect(toUnleashContext(undefined, 'app', undefined)).toEqual({
      ...TOP,
      environment: undefined,
      properties: undefined,
    })
  })

  it('a context of strings, numbers, booleans and dates is not copied: it serves as the properties', () => {
    const context = { targetingKey: 'u1', tenant: 'acme', score: 3, beta: true, since: when }
    const mapped = toUnleashContext(context, 'app', 'production')
    expect(mapped.properties).toBe(context)
    expect(mapped).toMatchObject({ userId: 'u1', appName: 'app', environment: 'production' })
  })

  it.each<[string, EvaluationContext]>([
    ['an object', { plan: { tier: 'pro' } }],
    ['an array', { tags: ['a'] }],
    ['an invalid date', { since: new Date('nope') }],
    ['an invalid currentTime', { currentTime: 'yesterday' }],
    ['a properties object', { properties: { tenant: 'acme' } }],
  ])('a context with %s is copied', (_, context) => {
    expect(toUnleashContext(context, 'app', undefined).properties).not.toBe(context)
  })
})

// --- The engine reads both forms alike ---

const KEYS = [
  'targetingKey',
  'userId',
  'sessionId',
  'remoteAddress',
  'environment',
  'appName',
  'currentTime',
  'tenant',
  'score',
  'beta',
  'since',
  'properties',
] as const
const valueArb = fc.oneof(
  fc.constantFrom('acme', 'u1', '7', 'true', '10.0.0.1', '2026-03-01T12:00:00.000Z', ''),
  fc.constantFrom(7, 7.5, 0, true, false, null, undefined),
  fc.constantFrom(when, new Date('nope'), ['a'], { tier: 'pro' }),
)
const contextArb = fc.dictionary(
  fc.constantFrom(...KEYS),
  fc.oneof(valueArb, fc.dictionary(fc.constantFrom('tenant', 'score', 'userId'), valueArb)),
  { maxKeys: 8 },
)
/** Every string a mapped value can read as, and a few it cannot. */
const READINGS = [
  'acme',
  'u1',
  '7',
  '7.5',
  '0',
  'true',
  'false',
  '10.0.0.1',
  '2026-03-01T12:00:00.000Z',
  '',
  '["a"]',
  '{"tier":"pro"}',
  'null',
  'undefined',
  'Invalid Date',
  '[object Object]',
  'a',
]

describe('toUnleashContext: copying the properties or not', () => {
  // One flag per field and reading: on when the engine reads exactly that string for the field
  // (not for a field named `properties`, which is the engine's properties object itself).
  const engine = createEngine()
  const probes = KEYS.filter((key) => key !== 'properties').flatMap((field) =>
    READINGS.map((reading) => `${field}=${reading}`),
  )
  engine.load({
    version: 2,
    features: [
      ...probes.map((name) => {
        const [field, reading] = [name.slice(0, name.indexOf('=')), name.slice(name.indexOf('=') + 1)]
        return {
          name,
          enabled: true,
          strategies: [
            {
              name: 'default',
              parameters: {},
              constraints: [{ contextName: field, operator: 'IN', values: [reading] }],
            },
          ],
        }
      }),
      {
        name: 'after-2026',
        enabled: true,
        strategies: [
          {
            name: 'default',
            parameters: {},
            constraints: [{ contextName: 'currentTime', operator: 'DATE_AFTER', value: '2026-01-01T00:00:00.000Z' }],
          },
        ],
      },
    ],
  })

  it('the engine answers every flag alike for the context as properties and for its converted copy', () => {
    fc.assert(
      fc.property(contextArb, (context) => {
        const direct = toUnleashContext(context as EvaluationContext, 'app', 'production')
        const copy = toUnleashContext(context as EvaluationContext, 'app', 'production', true)
        for (const name of [...probes, 'after-2026'])
          expect(engine.isEnabled(name, direct), `${name} for ${JSON.stringify(context)}`).toBe(
            engine.isEnabled(name, copy),
          )
      }),
      { numRuns: 300 },
    )
  })
})
