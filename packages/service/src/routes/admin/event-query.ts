import { z } from 'zod'
import type { EventFilter } from '../../store/events.js'

/** Values one list filter may name; names are bounded as flag and token names are. */
const MAX_VALUES = 100
const MAX_VALUE_LENGTH = 255

/**
 * One of Unleash 8's search filters: `IS:<value>` or `IS_ANY_OF:<a>,<b>` (a bare value reads as
 * `IS:`), read into the values it matches.
 */
const listFilter = z
  .string()
  .max(MAX_VALUES * (MAX_VALUE_LENGTH + 1) + 16)
  .transform((text, ctx) => {
    const match = /^(IS|IS_ANY_OF):(.*)$/s.exec(text)
    const values = match?.[1] === 'IS_ANY_OF' ? (match[2] ?? '').split(',') : [match ? (match[2] ?? '') : text]
    const names = values.map((value) => value.trim()).filter((value) => value !== '')
    if (names.length === 0) ctx.addIssue({ code: 'custom', message: 'must name at least one value (IS:<value>)' })
    else if (names.length > MAX_VALUES)
      ctx.addIssue({ code: 'custom', message: `may name at most ${MAX_VALUES} values` })
    else if (names.some((name) => name.length > MAX_VALUE_LENGTH))
      ctx.addIssue({ code: 'custom', message: `has a value longer than ${MAX_VALUE_LENGTH} characters` })
    return names
  })

/**
 * A day (`2024-05-01`) or an instant (ISO 8601), with or without `IS:`. As the end of a range a
 * day includes itself: the filter then ends at the next midnight UTC.
 */
const instant = (end: boolean) =>
  z
    .string()
    .max(64)
    .transform((text, ctx) => {
      const value = text.replace(/^IS:/, '').trim()
      const day = /^\d{4}-\d{2}-\d{2}$/.test(value)
      const date = new Date(day ? `${value}T00:00:00.000Z` : value)
      if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) {
        ctx.addIssue({ code: 'custom', message: 'must be a date (2024-05-01) or an ISO 8601 instant' })
        return z.NEVER
      }
      return day && end ? new Date(date.getTime() + 86_400_000) : date
    })

const range = {
  from: instant(false).optional(),
  to: instant(true).optional(),
}

const page = (defaultLimit: number) => ({
  limit: z.coerce.number().int().min(1).max(1000).default(defaultLimit),
  offset: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
})

/** `/api/admin/events`: the older log's plain filters (one value each). */
export const eventLogQuerySchema = z
  .object({
    project: z.string().min(1).max(MAX_VALUE_LENGTH).optional(),
    feature: z.string().min(1).max(MAX_VALUE_LENGTH).optional(),
    environment: z.string().min(1).max(MAX_VALUE_LENGTH).optional(),
    type: z.string().min(1).max(MAX_VALUE_LENGTH).optional(),
    createdBy: z.string().min(1).max(MAX_VALUE_LENGTH).optional(),
    ...range,
    ...page(100),
  })
  .transform(
    (query): EventFilter => ({
      ...query,
      project: query.project === undefined ? undefined : [query.project],
      feature: query.feature === undefined ? undefined : [query.feature],
      type: query.type === undefined ? undefined : [query.type],
      createdBy: query.createdBy === undefined ? undefined : [query.createdBy],
    }),
  )

/** `/api/admin/search/events`: Unleash 8's event search filters. */
export const eventSearchQuerySchema = z.object({
  project: listFilter.optional(),
  feature: listFilter.optional(),
  type: listFilter.optional(),
  createdBy: listFilter.optional(),
  environment: z.string().min(1).max(MAX_VALUE_LENGTH).optional(),
  ...range,
  ...page(50),
})
