// How the frontend API reads a context, as Unleash 8.2 reads its own: a POST body's context
// checked against its schema (400 BadDataError naming the field), then Unleash's context rules.
import type { Context } from '@vexil/engine'
import { normalizeContext } from '../evaluation/context.js'
import { isDateTime, isObject, parseStrictJson } from '../http/body.js'
import { badDataError, ProxyError } from '../http/errors.js'

/** Unleash reads `{ context }`; Edge also a flat context object. */
export function postedContext(raw: string): Record<string, unknown> {
  let body: unknown
  try {
    body = parseStrictJson(raw)
  } catch (error) {
    throw new ProxyError('API_BAD_REQUEST', error instanceof Error ? error.message : 'the body is not JSON')
  }
  if (!isObject(body)) throw badData('/body', 'object', body)
  if (!('context' in body)) return checkContext(body, '/body')
  if (body.context === undefined || body.context === null) return {}
  if (!isObject(body.context)) throw badData('/body/context', 'object', body.context)
  return checkContext(body.context, '/body/context')
}

const isScalar = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'

/** Unleash 8.2's 400 for a body its context schema refuses. */
function badData(path: string, expected: string, sent: unknown, format = false): ProxyError {
  const problem = format ? `must match format "${expected}"` : `must be ${expected}`
  return badDataError([{ message: `The \`${path}\` property ${problem}. You sent ${describeSent(sent)}.`, path }])
}

/** What was sent, as JSON, cut at 200 characters; a value too deeply nested to print is named so (never a stack overflow). */
function describeSent(sent: unknown): string {
  let text: string
  try {
    text = JSON.stringify(sent)
  } catch {
    return 'a value too deeply nested to show'
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}

/**
 * Unleash 8.2's context schema for a POST: the known fields and every property are strings
 * (numbers and booleans are taken as strings), `currentTime` a date-time, `properties` an object.
 */
function checkContext(context: Record<string, unknown>, path: string): Record<string, unknown> {
  for (const field of ['appName', 'environment', 'userId', 'sessionId', 'remoteAddress']) {
    const value = context[field]
    if (value !== undefined && value !== null && !isScalar(value)) throw badData(`${path}/${field}`, 'string', value)
  }
  const time = context.currentTime
  if (time !== undefined && time !== null && !isDateTime(time)) {
    throw badData(`${path}/currentTime`, 'date-time', time, true)
  }
  const properties = context.properties
  if (properties !== undefined && properties !== null) {
    if (!isObject(properties)) throw badData(`${path}/properties`, 'object', properties)
    for (const [key, value] of Object.entries(properties)) {
      if (value !== null && !isScalar(value)) throw badData(`${path}/properties/${key}`, 'string', value)
    }
  }
  return context
}

/**
 * Unleash 8.2's context: its known fields stay at the top (numbers and booleans as strings, other
 * kinds and falsy values dropped), every other key goes into `properties`, `remoteAddress`
 * defaults to the caller's address, and a missing `appName` is `frontend-api` and a missing
 * `environment` is `default`, as Unleash's frontend API evaluates. (Which flags are evaluated is
 * the token's environment's alone: the context's `environment` is only a value for constraints.)
 */
export function frontendContext(raw: Record<string, unknown>, clientAddress: string | undefined): Context {
  const scalar = stringifyScalars(raw)
  for (const field of ['appName', 'userId', 'sessionId', 'remoteAddress', 'environment']) {
    if (scalar[field] !== undefined && typeof scalar[field] !== 'string') delete scalar[field]
  }
  // Unleash keeps no `currentTime` field: it is a property like any unknown key.
  if ('currentTime' in scalar) {
    scalar.properties = { currentTime: scalar.currentTime, ...(isObject(scalar.properties) ? scalar.properties : {}) }
    delete scalar.currentTime
  }
  if (isObject(scalar.properties)) scalar.properties = stringifyScalars(scalar.properties)
  const context = normalizeContext(scalar, clientAddress)
  context.environment ??= 'default'
  context.appName ??= 'frontend-api'
  return context
}

/** A copy with numbers and booleans as strings (Unleash takes `"userId": 7` as `"7"`). */
function stringifyScalars(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(values))
    out[key] = typeof value === 'number' || typeof value === 'boolean' ? String(value) : value
  return out
}
