import type { ClientFeaturesPayload, FeatureDefinition } from '@vexil/engine'

/**
 * A payload shaped like the old proxy's backup (`{"version":2,"features":[…],"segments":[…]}`),
 * with features deliberately out of alphabetical order and names no ASCII-only path would keep.
 */
export function samplePayload(): ClientFeaturesPayload {
  return {
    version: 2,
    features: [
      feature('zebra-flag', { strategies: [{ name: 'default' }] }),
      feature('Ärger-über-Öl-ß', {
        strategies: [
          {
            name: 'flexibleRollout',
            parameters: { rollout: '50', stickiness: 'userId', groupId: 'Ärger' },
            segments: [1],
          },
        ],
      }),
      feature('新功能-🚀', {
        enabled: false,
        variants: [
          { name: 'グリーン', weight: 1000, stickiness: 'default', payload: { type: 'json', value: '{"emoji":"🎉"}' } },
        ],
      }),
      feature('alpha', {
        strategies: [
          {
            name: 'userWithId',
            parameters: { userIds: 'a,b,c' },
            constraints: [{ contextName: 'region', operator: 'IN', values: ['עברית', 'العربية'] }],
          },
        ],
        dependencies: [{ feature: 'zebra-flag', enabled: true }],
      }),
    ],
    segments: [
      {
        id: 1,
        name: 'beta-testers',
        constraints: [{ contextName: 'userId', operator: 'STR_STARTS_WITH', values: ['beta-'], caseInsensitive: true }],
      },
      { id: 2, constraints: [] },
    ],
  }
}

/** A payload whose JSON is at least `minBytes` long (the 5 MB case of the conformance suite). */
export function largePayload(minBytes = 5 * 1024 * 1024): ClientFeaturesPayload {
  const features: FeatureDefinition[] = []
  let size = 0
  for (let i = 0; size < minBytes; i++) {
    const flag = feature(`large-flag-${String(i).padStart(6, '0')}`, {
      strategies: [
        {
          name: 'userWithId',
          parameters: { userIds: Array.from({ length: 40 }, (_, u) => `user-${i}-${u}`).join(',') },
        },
      ],
      description: `flag number ${i} ✓`,
    })
    size += JSON.stringify(flag).length + 1
    features.push(flag)
  }
  return { version: 2, features, segments: [{ id: 7, constraints: [] }] }
}

/** The two 1 MB payloads the crash test's writer alternates between (either may be on disk). */
export function crashPayloads(): ClientFeaturesPayload[] {
  const first = largePayload(1024 * 1024)
  return [first, { ...first, features: [...first.features].reverse(), segments: [] }]
}

// --- Internal helpers ---

function feature(name: string, overrides: Partial<FeatureDefinition> = {}): FeatureDefinition {
  return {
    name,
    enabled: true,
    type: 'release',
    project: 'default',
    stale: false,
    impressionData: false,
    strategies: [],
    ...overrides,
  }
}
