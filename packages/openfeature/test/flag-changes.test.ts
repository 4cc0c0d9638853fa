// ConfigurationChanged's flagsChanged: which flags a load changed, for full payloads (compared by
// content) and deltas (untouched definitions are the same objects), segments included.
import { describe, expect, it } from 'vitest'
import { createEngine } from '@vexil/engine'
import { createChangeTracker } from '../src/flag-changes.js'

const flag = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  enabled: true,
  strategies: [{ name: 'default', parameters: {} }],
  ...extra,
})
const segmented = (name: string, id: number) =>
  flag(name, { strategies: [{ name: 'default', parameters: {}, segments: [id] }] })
const segment = (id: number, values: string[]) => ({
  id,
  constraints: [{ contextName: 'tenant', operator: 'IN', values }],
})

function tracked() {
  const engine = createEngine()
  const changes = createChangeTracker()
  return (payload: unknown) => {
    engine.load(payload)
    return changes(engine.getState()).sort()
  }
}

describe('createChangeTracker', () => {
  it('a full payload: added, changed, removed flags; an identical payload changes nothing', () => {
    const load = tracked()
    expect(load({ features: [flag('a'), flag('b'), flag('c')] })).toEqual(['a', 'b', 'c'])
    expect(load({ features: [flag('a'), flag('b'), flag('c')] })).toEqual([])
    expect(load({ features: [flag('a'), flag('b', { enabled: false }), flag('d')] })).toEqual(['b', 'c', 'd'])
  })

  it('a segment change changes the flags that use it', () => {
    const load = tracked()
    load({
      features: [segmented('a', 1), segmented('b', 2), flag('c')],
      segments: [segment(1, ['x']), segment(2, ['y'])],
    })
    expect(
      load({
        features: [segmented('a', 1), segmented('b', 2), flag('c')],
        segments: [segment(1, ['x', 'z']), segment(2, ['y'])],
      }),
    ).toEqual(['a'])
  })

  it('delta events: only what they touch', () => {
    const load = tracked()
    load({
      events: [
        {
          type: 'hydration',
          eventId: 1,
          features: [flag('a'), segmented('b', 1), flag('c')],
          segments: [segment(1, ['x'])],
        },
      ],
    })
    expect(load({ events: [{ type: 'feature-updated', eventId: 2, feature: flag('a', { enabled: false }) }] })).toEqual(
      ['a'],
    )
    expect(load({ events: [{ type: 'feature-removed', eventId: 3, featureName: 'c' }] })).toEqual(['c'])
    expect(load({ events: [{ type: 'segment-updated', eventId: 4, segment: segment(1, ['y']) }] })).toEqual(['b'])
    expect(load({ events: [] })).toEqual([])
  })
})
