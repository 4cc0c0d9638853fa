// Which flags a load changed, for OpenFeature's ConfigurationChanged `flagsChanged`. The engine
// keeps definitions as received, so after a delta the untouched ones are the same objects (no
// work); a full payload brings new objects, compared by their JSON. A flag also changes when a
// segment it uses changes.
import type { ClientFeaturesPayload, StoredFeature, StoredSegment } from '@vexil/engine'

/** Takes the engine's state after a load (`engine.getState()`); returns the names that changed since the last call. */
export type ChangeTracker = (state: ClientFeaturesPayload<StoredFeature, StoredSegment>) => string[]

export function createChangeTracker(): ChangeTracker {
  let features = new Map<string, StoredFeature>()
  let segments = new Map<number, StoredSegment>()
  const json = new WeakMap<object, string>()
  const same = (a: object, b: object) => a === b || jsonOf(a) === jsonOf(b)
  const jsonOf = (value: object) => {
    let text = json.get(value)
    if (text === undefined) json.set(value, (text = JSON.stringify(value)))
    return text
  }

  return (state) => {
    const nextSegments = new Map<number, StoredSegment>()
    for (const segment of state.segments ?? []) nextSegments.set(segment.id, segment)
    const changedSegments = new Set<number>()
    for (const [id, segment] of nextSegments) {
      const before = segments.get(id)
      if (!before || !same(before, segment)) changedSegments.add(id)
    }
    for (const id of segments.keys()) if (!nextSegments.has(id)) changedSegments.add(id)

    const nextFeatures = new Map<string, StoredFeature>()
    const changed: string[] = []
    for (const feature of state.features) {
      nextFeatures.set(feature.name, feature)
      const before = features.get(feature.name)
      if (!before || !same(before, feature) || (changedSegments.size > 0 && usesAny(feature, changedSegments)))
        changed.push(feature.name)
    }
    for (const name of features.keys()) if (!nextFeatures.has(name)) changed.push(name)
    features = nextFeatures
    segments = nextSegments
    return changed
  }
}

function usesAny(feature: StoredFeature, ids: ReadonlySet<number>): boolean {
  const strategies = Array.isArray(feature.strategies) ? feature.strategies : []
  for (const strategy of strategies) {
    const used = (strategy as { segments?: unknown } | null)?.segments
    if (Array.isArray(used) && used.some((id) => ids.has(Number(id)))) return true
  }
  return false
}
