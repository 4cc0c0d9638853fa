import type { Queryable } from '../db/database.js'
import { badData, nameExists, notFound } from '../errors.js'
import * as features from '../store/features.js'
import { ensureTag, getTagType, type Tag, tagFeature } from '../store/tags.js'
import { type Change, recordEvent } from './change.js'
import { requireFeature, requireProject } from './lookups.js'

interface NewFlag {
  name: string
  type?: string | undefined
  description?: string | null | undefined
  impressionData?: boolean | undefined
  tags?: Tag[] | undefined
}

interface FlagUpdate {
  type?: string | undefined
  description?: string | null | undefined
  impressionData?: boolean | undefined
  stale?: boolean | undefined
}

/** A new flag in the project, disabled everywhere, with its tags (their types must exist). */
export async function createFlag(change: Change, project: string, input: NewFlag): Promise<features.FeatureRow> {
  const { tx, actor, clock } = change
  await requireProject(tx, project)
  await refuseTakenName(tx, input.name)
  const inserted = await features.insertFeature(tx, project, input, clock(), actor.userId)
  for (const tag of input.tags ?? []) {
    if (!(await getTagType(tx, tag.type))) throw badData(`body.tags: the tag type "${tag.type}" does not exist.`)
    await ensureTag(tx, tag, clock())
    await tagFeature(tx, input.name, tag, clock())
  }
  await recordEvent(change, {
    type: 'feature-created',
    project,
    featureName: input.name,
    data: features.toFeature(inserted),
    tags: input.tags,
  })
  return inserted
}

/** 409 when a flag of that name exists, archived or not: names are unique across projects. */
export async function refuseTakenName(q: Queryable, name: string): Promise<void> {
  if (await features.getFeature(q, name))
    throw nameExists(`A flag named "${name}" already exists (it may be archived).`)
}

/** Changes a flag's metadata; a change of `stale` also writes its own stale event. */
export async function updateFlag(
  change: Change,
  project: string,
  name: string,
  update: FlagUpdate,
): Promise<features.FeatureRow> {
  const before = await requireFeature(change.tx, project, name, { lock: true })
  const after = await features.updateFeature(change.tx, name, update)
  await recordEvent(change, {
    type: 'feature-metadata-updated',
    project,
    featureName: name,
    data: features.toFeature(after),
    preData: features.toFeature(before),
  })
  if (before.stale !== after.stale) await recordStale(change, after)
  return after
}

/** Marks one live flag stale or not stale (404 when it does not exist or is archived). */
export async function markFlagStale(change: Change, name: string, stale: boolean): Promise<void> {
  const row = await features.lockFeature(change.tx, name)
  if (!row || row.archived_at) throw notFound(`Feature "${name}"`)
  await setStale(change, row, stale)
}

/** Marks the project's live flags among `names` stale or not; Unleash ignores the others. */
export async function markFlagsStale(change: Change, project: string, names: string[], stale: boolean): Promise<void> {
  await requireProject(change.tx, project)
  for (const name of names) {
    const row = await features.lockFeature(change.tx, name)
    if (row && row.project === project && !row.archived_at) await setStale(change, row, stale)
  }
}

// --- Internal helpers ---

async function setStale(change: Change, row: features.FeatureRow, stale: boolean): Promise<void> {
  if (row.stale === stale) return
  await recordStale(change, await features.updateFeature(change.tx, row.name, { stale }))
}

function recordStale(change: Change, row: features.FeatureRow): Promise<void> {
  return recordEvent(change, {
    type: row.stale ? 'feature-stale-on' : 'feature-stale-off',
    project: row.project,
    featureName: row.name,
    data: { stale: row.stale },
  })
}
