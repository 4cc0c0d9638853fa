import type { Queryable } from '../db/database.js'
import type { EventOrigin } from '../service-context.js'
import { iso } from './rows.js'

/** Which events to read: each list matches any of its values; `to` is exclusive. */
export interface EventFilter {
  project?: string[]
  feature?: string[]
  environment?: string
  type?: string[]
  /** Token, user or action set names, or user ids. */
  createdBy?: string[]
  from?: Date
  to?: Date
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
  action_set_id: number | null
  signal_id: number | string | null
  signal_endpoint_id: number | null
}

/**
 * Unleash's eventSchema; an action run's change also names its origin (the action set and the
 * signal), a field left out of every other event.
 */
function toEvent(row: EventRow) {
  const event = {
    id: Number(row.id),
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
  if (row.action_set_id === null || row.signal_id === null || row.signal_endpoint_id === null) return event
  const origin: EventOrigin = {
    actionSetId: row.action_set_id,
    signalId: Number(row.signal_id),
    signalEndpointId: row.signal_endpoint_id,
  }
  return { ...event, origin }
}

/** The WHERE clause and its parameters for `filter` (every value a parameter, never SQL text). */
function whereOf(filter: EventFilter): { where: string; params: unknown[] } {
  const params: unknown[] = []
  const clauses: string[] = []
  const add = (clause: (p: string) => string, value: unknown) => {
    params.push(value)
    clauses.push(clause(`$${params.length}`))
  }
  if (filter.project?.length) add((p) => `project = ANY(${p}::text[])`, filter.project)
  if (filter.feature?.length) add((p) => `feature_name = ANY(${p}::text[])`, filter.feature)
  if (filter.environment) add((p) => `environment = ${p}`, filter.environment)
  if (filter.type?.length) add((p) => `type = ANY(${p}::text[])`, filter.type)
  if (filter.createdBy?.length)
    add((p) => `(created_by = ANY(${p}::text[]) OR created_by_user_id::text = ANY(${p}::text[]))`, filter.createdBy)
  if (filter.from) add((p) => `created_at >= ${p}`, filter.from)
  if (filter.to) add((p) => `created_at < ${p}`, filter.to)
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params }
}

/** Newest first, one page of them, with the total matching count. */
export async function searchEvents(q: Queryable, filter: EventFilter) {
  const { where, params } = whereOf(filter)
  const page = params.length
  const rows = await q.query<EventRow>(
    `SELECT * FROM events ${where} ORDER BY id DESC LIMIT $${page + 1} OFFSET $${page + 2}`,
    [...params, filter.limit, filter.offset],
  )
  const [count] = await q.query<{ total: number }>(`SELECT count(*)::int AS total FROM events ${where}`, params)
  return { events: rows.map(toEvent), total: count?.total ?? 0 }
}
