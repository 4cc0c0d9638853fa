import { badData, nameExists, notFound } from '../errors.js'
import * as tags from '../store/tags.js'
import { type Change, recordEvent } from './change.js'

/** A new tag of an existing type (409 when it exists). */
export async function createTag(change: Change, tag: tags.Tag): Promise<void> {
  if (!(await tags.getTagType(change.tx, tag.type)))
    throw badData(`body.type: the tag type "${tag.type}" does not exist.`)
  if (!(await tags.ensureTag(change.tx, tag, change.clock())))
    throw nameExists(`The tag "${tag.type}:${tag.value}" already exists.`)
  await recordEvent(change, { type: 'tag-created', data: tag })
}

/** Deletes a tag, and so takes it off every flag. */
export async function deleteTag(change: Change, tag: tags.Tag): Promise<void> {
  if (!(await tags.tagExists(change.tx, tag))) throw notFound(`Tag "${tag.type}:${tag.value}"`)
  await tags.deleteTag(change.tx, tag)
  await recordEvent(change, { type: 'tag-deleted', data: tag })
}

export async function createTagType(change: Change, row: tags.TagTypeRow): Promise<void> {
  if (await tags.getTagType(change.tx, row.name)) throw nameExists(`The tag type "${row.name}" already exists.`)
  await tags.insertTagType(change.tx, row, change.clock())
  await recordEvent(change, { type: 'tag-type-created', data: row })
}

/**
 * Changes a tag type's description and icon. `fields` is what the request sent, recorded as
 * the event's data.
 */
export async function updateTagType(change: Change, row: tags.TagTypeRow, fields: object): Promise<void> {
  const before = await tags.getTagType(change.tx, row.name)
  if (!before) throw notFound(`Tag type "${row.name}"`)
  await tags.updateTagType(change.tx, row)
  await recordEvent(change, { type: 'tag-type-updated', data: { name: row.name, ...fields }, preData: before })
}

/** Deletes a tag type with its tags, which so come off every flag. */
export async function deleteTagType(change: Change, name: string): Promise<void> {
  if (!(await tags.getTagType(change.tx, name))) throw notFound(`Tag type "${name}"`)
  await tags.deleteTagType(change.tx, name)
  await recordEvent(change, { type: 'tag-type-deleted', data: { name } })
}
