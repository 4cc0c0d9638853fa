// The segment API's bodies as these pages read them (src/store/segments.ts: toSegment,
// segmentStrategies); types.ts keeps only a segment's id and name.
import type { Constraint } from '../../types.ts'

export interface SegmentDetail {
  id: number
  name: string
  description: string | null
  project: string | null
  constraints: Constraint[]
  usedInFeatures: number
  usedInProjects: number
  createdAt: string
}

/** One strategy that uses a segment (GET /api/admin/segments/:id/strategies). */
export interface SegmentUse {
  id: string
  projectId: string
  featureName: string
  strategyName: string
  name: string
  environment: string
}
