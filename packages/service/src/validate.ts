import { type H3Event, getQuery } from 'h3'
import { z } from 'zod'
import { ServiceError, type ErrorDetail } from './errors.js'
import { readBodyBytes } from './request-body.js'

/**
 * Parses `input` with `schema`; on failure throws a 400 `ValidationError` whose message names the
 * first bad field (`body.name is required`) and whose details list every problem.
 */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, where: string): z.output<S> {
  let result: z.ZodSafeParseResult<z.output<S>>
  try {
    result = schema.safeParse(input) as z.ZodSafeParseResult<z.output<S>>
  } catch {
    // A check that throws on a hostile value (zod runs length checks on anything with a
    // `length`, even a deeply nested array) is the input's fault: 400, never 500.
    throw new ServiceError(
      'ValidationError',
      `Request validation failed: the ${where} has a value of a shape this field cannot take.`,
    )
  }
  if (result.success) return result.data
  const details: ErrorDetail[] = result.error.issues.map((issue) => {
    const path = [where, ...issue.path.map(String)].join('.')
    const message = `${path} ${describe(issue.message)}`
    return { path, message, description: message }
  })
  throw new ServiceError(
    'ValidationError',
    `Request validation failed: ${details[0]?.message ?? 'invalid input'}.`,
    details,
  )
}

/**
 * Reads the JSON body (at most MAX_BODY_BYTES, counted as it arrives) and validates it. An absent
 * or blank body is validated as `{}` (or `[]`).
 */
export async function readBodyWith<S extends z.ZodType>(
  event: H3Event,
  schema: S,
  empty: unknown = {},
): Promise<z.output<S>> {
  const text = (await readBodyBytes(event.node.req)).toString('utf8')
  if (text.trim() === '') return parseWith(schema, empty, 'body')
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new ServiceError('BadDataError', 'The request body is not valid JSON.')
  }
  if (nestedDeeperThan(body, MAX_BODY_DEPTH))
    throw new ServiceError('BadDataError', `The request body is nested deeper than ${MAX_BODY_DEPTH} levels.`)
  return parseWith(schema, body, 'body')
}

/** No request body of the API nests deeper than this; deeper ones are refused before validation. */
const MAX_BODY_DEPTH = 64

/** The instants every driver, PostgreSQL column and `Date` of the service holds alike (UTC). */
export const EARLIEST_TIME = Date.UTC(1970, 0, 1)
export const LATEST_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999)
export const TIME_RANGE_TEXT = 'between 1970-01-01 and 9999-12-31'

/**
 * A date-time from JSON: an ISO 8601 text or epoch milliseconds, within EARLIEST_TIME..LATEST_TIME.
 * Out of that range PostgreSQL refuses the year (or `Date` cannot hold it): a 400 naming the
 * field, never a 500 from the database.
 */
export const dateTime = z
  .union([z.string(), z.number()], { error: () => 'must be a date-time' })
  .transform((value, ctx) => {
    const time = typeof value === 'number' ? value : Date.parse(value)
    if (!Number.isFinite(time) || time < EARLIEST_TIME || time > LATEST_TIME) {
      ctx.addIssue({ code: 'custom', message: `must be a date-time ${TIME_RANGE_TEXT}` })
      return z.NEVER
    }
    return new Date(time)
  })

export function queryWith<S extends z.ZodType>(event: H3Event, schema: S): z.output<S> {
  return parseWith(schema, getQuery(event), 'query')
}

// --- Internal helpers ---

/** True when `value` has objects or arrays nested more than `limit` deep (iterative: no stack to overflow). */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]]
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [node, depth] = item
    if (node === null || typeof node !== 'object') continue
    if (depth >= limit) return true
    for (const child of Object.values(node)) stack.push([child, depth + 1])
  }
  return false
}

function describe(message: string): string {
  if (/received undefined/.test(message)) return 'is required'
  return message.replace(/^Invalid input: /, 'must be valid: ')
}
