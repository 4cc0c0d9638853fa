import type { Queryable } from '../db/database.js'
import { badData, nameExists, notFound } from '../errors.js'
import { type FeatureRow, getFeature } from '../store/features.js'
import * as tags from '../store/tags.js'
import { type Change, recordEvent } from './change.js'

/** The flag, archived or not (tags are on the flag, not its project path). */
export async function requireTaggableFlag(q: Queryable, name: string): Promise<FeatureRow> {
  const row = await getFeature(q, name)
  if (!row) throw notFound(`Feature "${name}"`)
  return row
}

/** Tags the flag; the tag is created on first use, its type must exist (409 when already on the flag). */
export async function tagFlag(change: Change, name: string, tag: tags.Tag): Promise<void> {
  const row = await requireTaggableFlag(change.tx, name)
  if (!(await addTag(change, name, tag))) throw nameExists(`"${name}" already has the tag "${tag.type}:${tag.value}".`)
  await recordTagged(change, row, tag)
}

/** Adds and removes tags in one go; tags already on (or already off) the flag are skipped. */
export async function retagFlag(change: Change, name: string, added: tags.Tag[], removed: tags.Tag[]): Promise<void> {
  const row = await requireTaggableFlag(change.tx, name)
  for (const tag of added) {
    if (await addTag(change, name, tag)) await recordTagged(change, row, tag)
  }
  for (const tag of removed) {
    if (await tags.untagFeature(change.tx, name, tag)) await recordUntagged(change, row, tag)
  }
}

/** Takes a tag off the flag; nothing to do when it was not on it. */
export async function untagFlag(change: Change, name: string, tag: tags.Tag): Promise<void> {
  const row = await requireTaggableFlag(change.tx, name)
  if (await tags.untagFeature(change.tx, name, tag)) await recordUntagged(change, row, tag)
}

// --- Internal helpers ---

async function addTag(change: Change, name: string, tag: tags.Tag): Promise<boolean> {
  if (!(await tags.getTagType(change.tx, tag.type)))
    throw badData(`body.type: the tag type "${tag.type}" does not exist.`)
  await tags.ensureTag(change.tx, tag, change.clock())
  return tags.tagFeature(change.tx, name, tag, change.clock())
}

function recordTagged(change: Change, row: FeatureRow, tag: tags.Tag): Promise<void> {
  return recordEvent(change, {
    type: 'feature-tagged',
    project: row.project,
    featureName: row.name,
    data: tag,
    tags: [tag],
  })
}

function recordUntagged(change: Change, row: FeatureRow, tag: tags.Tag): Promise<void> {
  return recordEvent(change, {
    type: 'feature-untagged',
    project: row.project,
    featureName: row.name,
    preData: tag,
    tags: [tag],
  })
}
