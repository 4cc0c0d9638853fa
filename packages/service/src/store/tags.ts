import type { Queryable } from '../db/database.js'

export interface Tag {
  type: string
  value: string
}

export interface TagTypeRow {
  name: string
  description: string | null
  icon: string | null
}

export const toTagType = (row: TagTypeRow) => ({ name: row.name, description: row.description ?? '', icon: row.icon })

export function listTagTypes(q: Queryable): Promise<TagTypeRow[]> {
  return q.query<TagTypeRow>('SELECT name, description, icon FROM tag_types ORDER BY name')
}

export async function getTagType(q: Queryable, name: string): Promise<TagTypeRow | undefined> {
  return (await q.query<TagTypeRow>('SELECT name, description, icon FROM tag_types WHERE name = $1', [name]))[0]
}

export async function insertTagType(q: Queryable, row: TagTypeRow, now: Date): Promise<void> {
  await q.query('INSERT INTO tag_types (name, description, icon, created_at) VALUES ($1, $2, $3, $4)', [
    row.name,
    row.description,
    row.icon,
    now,
  ])
}

export async function updateTagType(q: Queryable, row: TagTypeRow): Promise<void> {
  await q.query('UPDATE tag_types SET description = $2, icon = $3 WHERE name = $1', [
    row.name,
    row.description,
    row.icon,
  ])
}

export async function deleteTagType(q: Queryable, name: string): Promise<void> {
  await q.query('DELETE FROM tag_types WHERE name = $1', [name])
}

export function listTags(q: Queryable, type?: string): Promise<Tag[]> {
  return q.query<Tag>('SELECT type, value FROM tags WHERE ($1::text IS NULL OR type = $1) ORDER BY type, value', [
    type ?? null,
  ])
}

export async function tagExists(q: Queryable, tag: Tag): Promise<boolean> {
  return (await q.query('SELECT 1 FROM tags WHERE type = $1 AND value = $2', [tag.type, tag.value])).length > 0
}

/** Creates the tag if new; returns whether it was created. */
export async function ensureTag(q: Queryable, tag: Tag, now: Date): Promise<boolean> {
  const rows = await q.query(
    'INSERT INTO tags (type, value, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING 1',
    [tag.type, tag.value, now],
  )
  return rows.length > 0
}

export async function deleteTag(q: Queryable, tag: Tag): Promise<void> {
  await q.query('DELETE FROM tags WHERE type = $1 AND value = $2', [tag.type, tag.value])
}

export function featureTags(q: Queryable, feature: string): Promise<Tag[]> {
  return q.query<Tag>(
    'SELECT tag_type AS type, tag_value AS value FROM feature_tag WHERE feature_name = $1 ORDER BY tag_type, tag_value',
    [feature],
  )
}

/** Tags the feature; returns false when it already had the tag. */
export async function tagFeature(q: Queryable, feature: string, tag: Tag, now: Date): Promise<boolean> {
  const rows = await q.query(
    'INSERT INTO feature_tag (feature_name, tag_type, tag_value, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING 1',
    [feature, tag.type, tag.value, now],
  )
  return rows.length > 0
}

export async function untagFeature(q: Queryable, feature: string, tag: Tag): Promise<boolean> {
  const rows = await q.query(
    'DELETE FROM feature_tag WHERE feature_name = $1 AND tag_type = $2 AND tag_value = $3 RETURNING 1',
    [feature, tag.type, tag.value],
  )
  return rows.length > 0
}
