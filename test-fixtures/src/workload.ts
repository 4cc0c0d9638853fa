// A realistic frontend workload, seeded so every run repeats: a client features payload as
// `/api/client/features` returns it, and a pool of varied contexts. The mix follows what
// frontend projects carry: mostly flexibleRollout, IN lists of ~20 user ids, NUM/DATE/STR/SEMVER
// constraints, shared segments, feature and strategy variants with payloads, a few dependencies.
import type {
  ClientFeaturesPayload,
  Context,
  FeatureDefinition,
  SegmentDefinition,
  StrategyDefinition,
} from '@vexil/engine'

/** mulberry32: a small, fast, well-distributed seeded PRNG. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const USERS = 5000

export function makeFeatures(count = 200, seed = 42): ClientFeaturesPayload<FeatureDefinition, SegmentDefinition> {
  const random = seededRandom(seed)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
  const chance = (p: number) => random() < p
  const user = () => `user-${Math.floor(random() * USERS)}`

  const segments = [
    {
      id: 1,
      name: 'beta-tenants',
      constraints: [
        {
          contextName: 'tenant',
          operator: 'IN',
          values: ['acme', 'globex', 'initech', 'umbrella'],
          caseInsensitive: false,
          inverted: false,
        },
      ],
    },
    {
      id: 2,
      name: 'current-app',
      constraints: [{ contextName: 'appVersion', operator: 'SEMVER_GTE', value: '2.4.0', inverted: false }],
    },
    {
      id: 3,
      name: 'internal',
      constraints: [
        {
          contextName: 'email',
          operator: 'STR_ENDS_WITH',
          values: ['@vexil.dev'],
          caseInsensitive: true,
          inverted: false,
        },
      ],
    },
    {
      id: 4,
      name: 'eu',
      constraints: [
        { contextName: 'country', operator: 'IN', values: ['DE', 'FR', 'NL', 'SE', 'PL', 'ES', 'IT'], inverted: false },
      ],
    },
  ]

  const features: FeatureDefinition[] = []
  for (let i = 0; i < count; i++) {
    const name = `web.feature-${i}`
    const strategies: StrategyDefinition[] = []
    const strategyCount = 1 + Math.floor(random() * 3)
    for (let j = 0; j < strategyCount; j++) {
      const constraints = []
      if (chance(0.45))
        constraints.push({
          contextName: 'userId',
          operator: pick(['IN', 'NOT_IN']),
          values: Array.from({ length: 20 }, user),
          inverted: false,
          caseInsensitive: false,
        })
      if (chance(0.25))
        constraints.push({
          contextName: 'score',
          operator: pick(['NUM_GT', 'NUM_LTE', 'NUM_GTE']),
          value: String(Math.floor(random() * 100)),
          inverted: false,
        })
      if (chance(0.2))
        constraints.push({
          contextName: 'currentTime',
          operator: pick(['DATE_AFTER', 'DATE_BEFORE']),
          value: pick(['2024-01-01T00:00:00.000Z', '2030-06-01T00:00:00.000Z']),
          inverted: false,
        })
      if (chance(0.2))
        constraints.push({
          contextName: 'email',
          operator: 'STR_CONTAINS',
          values: ['a', 'vexil'],
          caseInsensitive: chance(0.5),
          inverted: chance(0.1),
        })
      if (chance(0.15))
        constraints.push({
          contextName: 'appVersion',
          operator: pick(['SEMVER_GT', 'SEMVER_LT']),
          value: pick(['1.9.0', '2.5.1', '3.0.0-beta.1']),
          inverted: false,
        })
      const kind = random()
      const strategy: StrategyDefinition =
        kind < 0.7
          ? {
              name: 'flexibleRollout',
              parameters: {
                rollout: String(Math.floor(random() * 101)),
                stickiness: pick(['default', 'default', 'userId', 'sessionId']),
                groupId: name,
              },
              constraints,
            }
          : kind < 0.85
            ? { name: 'default', parameters: {}, constraints }
            : { name: 'userWithId', parameters: { userIds: Array.from({ length: 10 }, user).join(',') }, constraints }
      if (chance(0.3)) strategy.segments = [1 + Math.floor(random() * segments.length)]
      // Unleash only offers strategy variants on flexibleRollout, which always carries a groupId.
      if (strategy.name === 'flexibleRollout' && chance(0.2)) {
        strategy.variants = [
          {
            name: 'control',
            weight: 500,
            weightType: 'variable',
            stickiness: 'default',
            payload: { type: 'string', value: 'control' },
          },
          {
            name: 'treatment',
            weight: 500,
            weightType: 'variable',
            stickiness: 'default',
            payload: { type: 'json', value: '{"layout":"compact","limit":20}' },
          },
        ]
      }
      strategies.push(strategy)
    }
    const feature: FeatureDefinition = {
      name,
      type: pick(['release', 'release', 'experiment', 'operational', 'permission']),
      description: `Feature ${i} of the web app`,
      enabled: chance(0.85),
      stale: false,
      impressionData: chance(0.1),
      project: pick(['web', 'checkout', 'growth']),
      strategies,
      variants: [],
    }
    if (chance(0.35)) {
      feature.variants = [
        {
          name: 'blue',
          weight: 334,
          weightType: 'variable',
          stickiness: 'default',
          payload: { type: 'json', value: '{"color":"#1e40af"}' },
          overrides: [{ contextName: 'userId', values: ['user-1', 'user-2'] }],
        },
        {
          name: 'green',
          weight: 333,
          weightType: 'variable',
          stickiness: 'default',
          payload: { type: 'string', value: 'green' },
        },
        { name: 'gray', weight: 333, weightType: 'variable', stickiness: 'default' },
      ]
    }
    if (i > 10 && chance(0.08))
      feature.dependencies = [{ feature: `web.feature-${Math.floor(random() * 10)}`, enabled: true }]
    features.push(feature)
  }
  return { version: 2, features, segments, query: { inlineSegmentConstraints: false }, meta: { revisionId: 1 } }
}

export function makeContexts(count = 1000, seed = 7): Context[] {
  const random = seededRandom(seed)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
  return Array.from({ length: count }, (_, i) => ({
    appName: 'web',
    environment: 'production',
    userId: `user-${Math.floor(random() * USERS)}`,
    sessionId: String(Math.floor(random() * 1e9)),
    remoteAddress: `10.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}`,
    properties: {
      tenant: pick(['acme', 'globex', 'initech', 'umbrella', 'hooli', 'stark', 'wayne']),
      appVersion: `${1 + Math.floor(random() * 3)}.${Math.floor(random() * 10)}.${Math.floor(random() * 5)}`,
      email: `person${i}@${random() < 0.1 ? 'vexil.dev' : pick(['mail.org', 'example.com', 'corp.net'])}`,
      score: String(Math.floor(random() * 100)),
      country: pick(['DE', 'US', 'FR', 'BR', 'IN', 'SE', 'JP']),
    },
  }))
}
