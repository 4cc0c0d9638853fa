import { nameExists, notFound, ServiceError } from '../errors.js'
import { defaultStrategiesUsingSegment } from '../store/default-strategies.js'
import * as segments from '../store/segments.js'
import { type Change, recordEvent } from './change.js'
import { requireProject } from './lookups.js'

export type SegmentInput = segments.SegmentInput

/** A new segment (names are unique; a project, when named, must exist). */
export async function createSegment(change: Change, input: SegmentInput): Promise<segments.SegmentRow> {
  const { tx } = change
  if (input.project) await requireProject(tx, input.project)
  if (await segments.segmentNameTaken(tx, input.name))
    throw nameExists(`A segment named "${input.name}" already exists.`)
  const inserted = await segments.insertSegment(tx, input, change.actor.name, change.clock())
  await recordEvent(change, {
    type: 'segment-created',
    project: input.project ?? null,
    data: segments.toSegment(inserted),
  })
  return inserted
}

/** Replaces the segment's fields; every strategy using it sees the new constraints. */
export async function updateSegment(change: Change, id: number, input: SegmentInput): Promise<void> {
  const { tx } = change
  const before = await segments.getSegment(tx, id)
  if (!before) throw notFound(`Segment ${id}`)
  if (input.project) await requireProject(tx, input.project)
  if (await segments.segmentNameTaken(tx, input.name, id))
    throw nameExists(`A segment named "${input.name}" already exists.`)
  await segments.updateSegment(tx, id, input)
  await recordEvent(change, {
    type: 'segment-updated',
    project: input.project ?? null,
    data: { id, ...input },
    preData: segments.toSegment(before),
  })
}

/**
 * Deletes an unused segment (409 while a strategy uses it, as Unleash answers), nor while a
 * project's default strategy does: enabling a flag would add a strategy naming a lost segment.
 */
export async function deleteSegment(change: Change, id: number): Promise<void> {
  const row = await segments.getSegment(change.tx, id)
  if (!row) throw notFound(`Segment ${id}`)
  if ((row.used_in_features ?? 0) > 0)
    throw new ServiceError(
      'ConflictError',
      `Segment ${id} is used by ${row.used_in_features} flag(s); remove it from their strategies first.`,
    )
  const [usedBy] = await defaultStrategiesUsingSegment(change.tx, id)
  if (usedBy) {
    throw new ServiceError(
      'ConflictError',
      `Segment ${id} is used by the default strategy of project "${usedBy.project_id}" in "${usedBy.environment_name}"; remove it from there first.`,
    )
  }
  await segments.deleteSegment(change.tx, id)
  await recordEvent(change, { type: 'segment-deleted', project: row.project, preData: segments.toSegment(row) })
}
