import { notFound } from '../errors.js'
import * as features from '../store/features.js'
import { type Change, recordEvent } from './change.js'
import { requireFeature } from './lookups.js'

/** Archives a live flag of the project: clients stop seeing it; it can be revived or deleted. */
export async function archiveFlag(change: Change, project: string, name: string): Promise<void> {
  const row = await requireFeature(change.tx, project, name, { lock: true })
  await features.setArchived(change.tx, name, change.clock())
  await recordEvent(change, { type: 'feature-archived', project, featureName: name, preData: features.toFeature(row) })
}

/** Brings an archived flag back (in `project` when given), disabled states and strategies kept. */
export async function reviveFlag(change: Change, name: string, project?: string): Promise<void> {
  const row = await requireArchived(change, name, project)
  await features.setArchived(change.tx, name, null)
  await recordEvent(change, { type: 'feature-revived', project: row.project, featureName: name })
}

/** Deletes an archived flag (in `project` when given) for good. */
export async function deleteFlag(change: Change, name: string, project?: string): Promise<void> {
  const row = await requireArchived(change, name, project)
  await features.deleteFeature(change.tx, name)
  await recordEvent(change, {
    type: 'feature-deleted',
    project: row.project,
    featureName: name,
    preData: features.toFeature(row),
  })
}

// --- Internal helpers ---

async function requireArchived(change: Change, name: string, project?: string): Promise<features.FeatureRow> {
  const row = await features.lockFeature(change.tx, name)
  if (!row?.archived_at || (project && row.project !== project)) throw notFound(`Archived feature "${name}"`)
  return row
}
