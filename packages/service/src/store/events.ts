import type { Queryable } from '../db/database.js'
import { iso } from './rows.js'

interface EventFilter {
  project?: string
  feature?: string
  environment?: string
  type?: string
  limit: number
  offset: number
}

interface EventRow {
  id: number
  type: string
  created_by: string
  created_by_user_id: number | null
  created_at: Date
  project: string | null
  feature_name: string | null
  environment: string | null
  data: unknown
  pre_data: unknown
  tags: unknown[]
}

/** Unleash's eventSchema. */
function toEvent(row: EventRow) {
  return {
    id: row.id,
    type: row.type,
    createdBy: row.created_by,
    createdByUserId: row.created_by_user_id,
    createdAt: iso(row.created_at),
    project: row.project,
    featureName: row.feature_name,
    environment: row.environment,
    data: row.data,
    preData: row.pre_data,
    tags: row.tags,
  }
}

/** Newest first, with the total matching count (Unleash's eventsSchema). */
export async function searchEvents(q: Queryable, filter: EventFilter) {
  const where = `WHERE ($1::text IS NULL OR project = $1) AND ($2::text IS NULL OR feature_name = $2)
    AND ($3::text IS NULL OR environment = $3) AND ($4::text IS NULL OR type = $4)`
  const params = [filter.project ?? null, filter.feature ?? null, filter.environment ?? null, filter.type ?? null]
  const rows = await q.query<EventRow>(`SELECT * FROM events ${where} ORDER BY id DESC LIMIT $5 OFFSET $6`, [
    ...params,
    filter.limit,
    filter.offset,
  ])
  const [count] = await q.query<{ total: number }>(`SELECT count(*)::int AS total FROM events ${where}`, params)
  return { version: 1, events: rows.map(toEvent), totalEvents: count?.total ?? 0 }
}
