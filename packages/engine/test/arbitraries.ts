// fast-check generators for payloads and contexts: well-formed ones, and hostile ones with
// wrong types, prototype keys and huge strings.
import fc from 'fast-check'
import { SUPPORTED_OPERATORS } from '@vexil/engine'

const hostileKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty')
const hugeString = fc.integer({ min: 10_000, max: 60_000 }).map((n) => 'a'.repeat(n))
const weird = fc.oneof(
  fc.anything(),
  hugeString,
  fc.constant(null),
  fc.constant(undefined),
  fc.constant(Number.NaN),
  fc.constant(Number.POSITIVE_INFINITY),
  fc.constant({ toString: 'not a function' }),
  fc.constant({
    valueOf: () => {
      throw new Error('boom')
    },
  }),
)
const fieldName = fc.oneof(
  fc.constantFrom(
    'userId',
    'sessionId',
    'remoteAddress',
    'appName',
    'environment',
    'currentTime',
    'tenant',
    'score',
    'email',
  ),
  hostileKey,
  fc.string(),
)
const idValue = fc.oneof(
  fc.constantFrom('u1', 'u2', '42', '10.0.0.1', '::1', '1.2.3', 'v1.2.3', '2024-01-01T00:00:00Z', ''),
  fc.string(),
  fc.integer().map(String),
)

/**
 * The field names and values payloads and contexts are made of. The small one makes constraints,
 * id lists, overrides and rollout fields meet the context often (most fields and values of the
 * wide one never meet).
 */
interface Vocabulary {
  fieldName: fc.Arbitrary<string>
  idValue: fc.Arbitrary<string>
}
const WIDE: Vocabulary = { fieldName, idValue }
const SMALL: Vocabulary = {
  fieldName: fc.constantFrom('userId', 'sessionId', 'remoteAddress', 'tenant', 'currentTime', 'score'),
  idValue: fc.constantFrom('u1', 'u2', 'acme', '5', '10.1.2.3', '10.0.0.0/8', '1.2.3', '2024-01-01T00:00:00Z', ''),
}

const constraintArb = (operators: readonly string[], { fieldName, idValue }: Vocabulary = WIDE) =>
  fc.record(
    {
      contextName: fieldName,
      operator: fc.constantFrom(...operators),
      values: fc.array(idValue, { maxLength: 5 }),
      value: idValue,
      inverted: fc.boolean(),
      caseInsensitive: fc.boolean(),
    },
    { requiredKeys: ['contextName', 'operator'] },
  )

const parametersArbOf = ({ fieldName, idValue }: Vocabulary) =>
  fc.record(
    {
      rollout: fc.oneof(fc.integer({ min: 0, max: 100 }).map(String), fc.constantFrom('', 'abc', '50.5', '150')),
      percentage: fc.integer({ min: 0, max: 100 }).map(String),
      stickiness: fc.oneof(fc.constantFrom('default', 'userId', 'sessionId', 'random'), fieldName),
      groupId: fc.oneof(fc.string(), fc.constant(undefined)),
      userIds: fc.array(idValue, { maxLength: 5 }).map((ids) => ids.join(', ')),
      IPs: fc.constantFrom('10.0.0.0/8', '192.168.1.1, 2001:db8::/32', 'nonsense'),
      hostNames: fc.constantFrom('localhost', 'a,b'),
    },
    { requiredKeys: [] },
  )

const strategyNames = [
  'default',
  'userWithId',
  'gradualRolloutUserId',
  'gradualRolloutSessionId',
  'gradualRolloutRandom',
  'flexibleRollout',
  'remoteAddress',
  'applicationHostname',
  'unknownStrategy',
]
const deterministicStrategyNames = strategyNames.filter((n) => n !== 'gradualRolloutRandom')

const variantArbOf = ({ fieldName, idValue }: Vocabulary) =>
  fc.record(
    {
      name: fc.constantFrom('a', 'b', 'c', 'disabled'),
      weight: fc.integer({ min: 0, max: 1000 }),
      stickiness: fc.constantFrom('default', 'userId', 'sessionId', 'tenant'),
      payload: fc.record({ type: fc.constantFrom('string', 'json', 'csv', 'number'), value: fc.string() }),
      overrides: fc.array(fc.record({ contextName: fieldName, values: fc.array(idValue, { maxLength: 3 }) }), {
        maxLength: 2,
      }),
    },
    { requiredKeys: ['name', 'weight'] },
  )

/**
 * A well-formed payload; `deterministic` leaves out everything that draws random numbers; `small`
 * uses the small vocabulary (pair it with `smallContextArb`), and makes flags that are on, have
 * fewer constraints and dependencies, so that strategies match and variants are chosen often.
 */
export function payloadArb({ deterministic = false, small = false } = {}) {
  const vocabulary = small ? SMALL : WIDE
  const variantArb = variantArbOf(vocabulary)
  const parametersArb = parametersArbOf(vocabulary)
  const names = deterministic ? deterministicStrategyNames : strategyNames
  const strategy = fc.record(
    {
      name: fc.constantFrom(...names),
      parameters: deterministic
        ? parametersArb.map((p) => ({ ...p, stickiness: p.stickiness === 'random' ? 'userId' : p.stickiness }))
        : parametersArb,
      constraints: fc.array(constraintArb([...SUPPORTED_OPERATORS, 'NOT_AN_OPERATOR'], vocabulary), {
        maxLength: small ? 2 : 3,
      }),
      segments: fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 2 }),
      variants: fc.array(
        deterministic ? variantArb.map((v) => ({ ...v, stickiness: 'userId' as const })) : variantArb,
        { maxLength: 3 },
      ),
    },
    { requiredKeys: ['name'] },
  )
  const dependencies = fc.array(
    fc.record(
      {
        feature: fc.constantFrom('f1', 'f2', 'f3', 'missing'),
        enabled: fc.boolean(),
        variants: fc.array(fc.constantFrom('a', 'b', 'disabled'), { maxLength: 2 }),
      },
      { requiredKeys: ['feature'] },
    ),
    { maxLength: small ? 1 : 2 },
  )
  const feature = fc.record(
    {
      name: fc.constantFrom('f1', 'f2', 'f3', 'f4', 'f5', 'flag-ø'),
      enabled: small
        ? fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) })
        : fc.boolean(),
      impressionData: fc.boolean(),
      strategies: fc.array(strategy, { maxLength: 3 }),
      variants: fc.array(
        deterministic ? variantArb.map((v) => ({ ...v, stickiness: 'userId' as const })) : variantArb,
        { maxLength: 3 },
      ),
      dependencies: small
        ? fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: dependencies })
        : dependencies,
    },
    { requiredKeys: ['name', 'enabled', 'strategies'] },
  )
  const segment = fc.record({
    id: fc.integer({ min: 1, max: 4 }),
    name: fc.string(),
    constraints: fc.array(constraintArb(SUPPORTED_OPERATORS, vocabulary), { maxLength: 2 }),
  })
  return fc.record({
    version: fc.constant(2),
    features: fc.array(feature, { maxLength: 6 }),
    segments: fc.array(segment, { maxLength: 4 }),
  })
}

/** Anything at all, or a payload whose parts have been replaced by hostile values. */
export const hostilePayloadArb = fc.oneof(
  weird,
  payloadArb(),
  fc.record({
    features: fc.array(fc.oneof(weird, fc.dictionary(fc.oneof(hostileKey, fc.string()), weird))),
    segments: weird,
  }),
  fc.record({
    events: fc.array(
      fc.oneof(
        weird,
        fc.record({
          type: fc.constantFrom(
            'hydration',
            'feature-updated',
            'feature-removed',
            'segment-updated',
            'segment-removed',
            'bogus',
          ),
          feature: weird,
          features: weird,
          segment: weird,
          segmentId: weird,
          featureName: weird,
        }),
      ),
    ),
  }),
  payloadArb().chain((p) =>
    fc
      .record({
        key: fc.oneof(
          hostileKey,
          fc.constantFrom('strategies', 'variants', 'constraints', 'parameters', 'dependencies', 'segments'),
        ),
        value: weird,
      })
      .map(({ key, value }) => ({
        ...p,
        features: p.features.map((f) => ({
          ...f,
          [key]: value,
          strategies: f.strategies.map((s) => ({ ...s, [key]: value })),
        })),
      })),
  ),
)

export const contextArb = fc.record(
  {
    userId: idValue,
    sessionId: idValue,
    remoteAddress: fc.constantFrom('10.1.2.3', '192.168.1.1', '::1', '2001:db8::1', 'garbage'),
    environment: fc.constantFrom('production', 'development'),
    appName: fc.string(),
    currentTime: fc.constantFrom('2023-01-01T00:00:00Z', '2025-06-01T00:00:00Z', 'not a date'),
    properties: fc.dictionary(fc.oneof(fieldName, fc.string()), idValue),
  },
  { requiredKeys: [] },
)

/** Contexts over the small vocabulary (see payloadArb). */
export const smallContextArb = fc.record(
  {
    userId: SMALL.idValue,
    sessionId: SMALL.idValue,
    remoteAddress: fc.constantFrom('10.1.2.3', '192.168.1.1', '::1', 'garbage'),
    currentTime: fc.constantFrom('2023-01-01T00:00:00Z', '2025-06-01T00:00:00Z', 'not a date'),
    properties: fc.dictionary(SMALL.fieldName, SMALL.idValue),
  },
  { requiredKeys: [] },
)

export const hostileContextArb = fc.oneof(
  contextArb,
  weird,
  fc.dictionary(fc.oneof(hostileKey, fieldName), weird),
  fc.record({
    properties: fc.oneof(weird, fc.dictionary(fc.oneof(hostileKey, fieldName), weird)),
    userId: weird,
    currentTime: weird,
  }),
)
