// The segments a client token is sent: only those its features' strategies use, as the service
// (and Unleash) sends them (packages/service/src/store/client-features.ts). A segment's
// constraint values (user ids, emails) are another project's data: a token that cannot see a
// flag using a segment must not see the segment.
import type { StoredFeature, StoredSegment } from '@vexil/engine'

/** `segments` in payload order, keeping those a strategy of `features` names. */
export function usedSegments(features: Iterable<StoredFeature>, segments: readonly StoredSegment[]): StoredSegment[] {
  const used = new Set<number>()
  for (const feature of features) {
    const strategies = (feature as { strategies?: unknown }).strategies
    if (!Array.isArray(strategies)) continue
    for (const strategy of strategies as Array<{ segments?: unknown } | null>) {
      // The engine reads a segment id as a number, as it keeps StoredSegment.id.
      if (Array.isArray(strategy?.segments)) for (const id of strategy.segments) used.add(Number(id))
    }
  }
  return used.size === 0 ? [] : segments.filter((segment) => used.has(segment.id))
}
