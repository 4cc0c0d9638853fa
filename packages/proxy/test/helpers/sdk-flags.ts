// The flags the SDK tests (Node and browser) read through the proxy, before and after an
// upstream change, and the usage counts an SDK reports for what a test asked it.
import type { ClientFeaturesPayload } from '@vexil/engine'

/** The context the SDK sets: it is on the VIP list and in the targeted region. */
export const SDK_CONTEXT = { userId: 'vip-7731', properties: { region: 'nordics-4410' } }

export function sdkFlags(): ClientFeaturesPayload {
  return {
    version: 2,
    features: [
      { name: 'sdk.always', enabled: true, strategies: [{ name: 'default' }] },
      {
        name: 'sdk.vip',
        enabled: true,
        strategies: [{ name: 'userWithId', parameters: { userIds: 'vip-7731,vip-7732' } }],
      },
      {
        name: 'sdk.region',
        enabled: true,
        strategies: [
          { name: 'default', constraints: [{ contextName: 'region', operator: 'IN', values: ['nordics-4410'] }] },
        ],
      },
      {
        name: 'sdk.checkout',
        enabled: true,
        strategies: [{ name: 'default' }],
        variants: [
          {
            name: 'blue',
            weight: 1000,
            stickiness: 'default',
            payload: { type: 'json', value: '{"color":"blue","size":3}' },
          },
        ],
      },
      { name: 'sdk.later', enabled: false, strategies: [{ name: 'default' }] },
    ],
    segments: [],
  }
}

/** The same flags after an upstream change: `sdk.later` on, `sdk.always` off, a new variant. */
export function changedSdkFlags(): ClientFeaturesPayload {
  const payload = sdkFlags()
  return {
    ...payload,
    features: payload.features.map((feature) => {
      if (feature.name === 'sdk.later') return { ...feature, enabled: true }
      if (feature.name === 'sdk.always') return { ...feature, enabled: false }
      if (feature.name === 'sdk.checkout')
        return {
          ...feature,
          variants: [{ name: 'green', weight: 1000, stickiness: 'default', payload: { type: 'string', value: 'go' } }],
        }
      return feature
    }),
  }
}

export type ToggleCounts = Record<string, { yes: number; no: number; variants: Record<string, number> }>

/**
 * What unleash-proxy-client counts: `isEnabled` one yes/no; `getVariant` one yes/no plus one
 * for the variant's name (src/index.ts of the SDK). The tests tally their calls here.
 */
export function createTally() {
  const counts: ToggleCounts = {}
  const entry = (name: string) => (counts[name] ??= { yes: 0, no: 0, variants: {} })
  return {
    counts,
    enabled(name: string, enabled: boolean) {
      entry(name)[enabled ? 'yes' : 'no']++
    },
    variant(name: string, enabled: boolean, variant: string) {
      const counts = entry(name)
      counts.variants[variant] = (counts.variants[variant] ?? 0) + 1
      counts[enabled ? 'yes' : 'no']++
    },
  }
}

/**
 * What of an SDK's counts the proxy forwards: flags the payload has (both payloads name the
 * same flags) as counted, and names it does not have (unknown flags) by yes/no only.
 */
export function forwardedCounts(counts: ToggleCounts): ToggleCounts {
  const known = new Set(sdkFlags().features.map((feature) => feature.name))
  return Object.fromEntries(
    Object.entries(counts).map(([name, c]) => [name, known.has(name) ? c : { yes: c.yes, no: c.no, variants: {} }]),
  )
}

/** The toggle counts of every metrics body the fake upstream received, summed. */
export function sumMetrics(bodies: string[]): ToggleCounts {
  const sum: ToggleCounts = {}
  for (const body of bodies) {
    const toggles = (JSON.parse(body) as { bucket: { toggles: ToggleCounts } }).bucket.toggles
    for (const [name, counts] of Object.entries(toggles)) {
      const total = (sum[name] ??= { yes: 0, no: 0, variants: {} })
      total.yes += counts.yes
      total.no += counts.no
      for (const [variant, n] of Object.entries(counts.variants))
        total.variants[variant] = (total.variants[variant] ?? 0) + n
    }
  }
  return sum
}
