// The evaluation context from a request (docs/old-proxy-compatibility.md section 2): validated like
// the old proxy's OpenAPI schemas (first error only, same error shape), then normalised the
// same way. The query string is parsed with `qs`, as Express's extended parser did.
import qs from 'qs'
import type { Context } from '@vexil/engine'
import { isObject } from '../http/body.js'
import { ProxyError, validationError } from '../http/errors.js'

const KNOWN_FIELDS = ['appName', 'environment', 'userId', 'sessionId', 'remoteAddress', 'currentTime'] as const
const QUERY_STRING_FIELDS = ['appName', 'userId', 'sessionId', 'remoteAddress', 'currentTime'] as const
const BODY_STRING_FIELDS = ['appName', 'environment', 'userId', 'sessionId', 'remoteAddress'] as const

export function parseQuery(search: string): Record<string, unknown> {
  // qs with plainObjects: null-prototype objects, so `?__proto__[x]=1` can never reach a
  // prototype; the fast path refuses `__proto__` and any name an object inherits.
  return simpleQuery(search) ?? (qs.parse(search, QS_OPTIONS) as Record<string, unknown>)
}

const QS_OPTIONS = {
  allowPrototypes: true,
  plainObjects: true,
  arrayLimit: 1000,
  depth: 5,
  parameterLimit: 1000,
} as const

/** `name` or `name[sub]`, plain characters only, brackets as sent or percent-encoded. */
const SIMPLE_KEY = /^([\w.$-]+)(?:(?:\[|%5[Bb])([\w.$-]+)(?:\]|%5[Dd]))?$/
const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/

/**
 * What `qs.parse` gives for the query strings SDKs send (`userId=...&properties[tenant]=...`),
 * without its general machinery (qs showed in every new-user GET /proxy: see
 * `npm run bench -- proxy`, every request a new user), or undefined for
 * anything else, which qs then parses: a key that repeats (qs makes an array), an array index or
 * `[]`, `__proto__`, deeper brackets, brackets in a value, a percent sign or `+` in a key, more
 * than 100 parameters, or a name that an object inherits (`constructor`, `toString`: the lookup
 * below sees it already set). Values decode as qs decodes them ('+' is a space; a malformed escape
 * leaves the value as sent). A property test holds it equal to qs, prototypes aside: the objects
 * are plain ones where qs makes null-prototype ones, because V8 keeps a null-prototype object in
 * dictionary mode, slower to fill and much slower to read in normalizeContext.
 */
export function simpleQuery(search: string): Record<string, unknown> | undefined {
  const result: Record<string, unknown> = {}
  let parts = 0
  // Part by part with indexOf, not split('&'): split is a runtime call, a large part of the
  // query's cost (see `npm run bench -- proxy`, every request a new user).
  for (let start = 0; start < search.length; ) {
    let end = search.indexOf('&', start)
    if (end === -1) end = search.length
    if (++parts > 100) return undefined
    if (end > start) {
      let equals = search.indexOf('=', start)
      if (equals >= end) equals = -1
      const key = queryKey(search.slice(start, equals === -1 ? end : equals))
      if (key === null) return undefined
      const value = equals === -1 ? '' : queryValue(search, equals + 1, end)
      if (value === undefined) return undefined
      const [name, sub] = key
      const existing = result[name]
      if (sub === undefined) {
        if (existing !== undefined) return undefined
        result[name] = value
      } else if (existing === undefined) {
        const object: Record<string, unknown> = {}
        object[sub] = value
        result[name] = object
      } else if (typeof existing === 'object' && (existing as Record<string, unknown>)[sub] === undefined)
        (existing as Record<string, unknown>)[sub] = value
      else return undefined
    }
    start = end + 1
  }
  return result
}

/** A query key's name and, for `name[sub]`, its sub-name; null for a key left to qs. */
type QueryKey = readonly [name: string, sub: string | undefined] | null

/**
 * Keys parsed so far. SDKs send the same few names on every request, so a repeat costs a map
 * lookup, not a regular expression, its substrings and their interning as property names
 * (as is walking the parts without split; see `npm run bench -- proxy`, every request a new
 * user). The keys come from anyone: short ones only, and the map starts over when
 * full, so it stays small and soon holds the names that recur.
 */
const queryKeys = new Map<string, QueryKey>()
const MAX_QUERY_KEYS = 256
const MAX_QUERY_KEY_LENGTH = 64

function queryKey(rawKey: string): QueryKey {
  const known = queryKeys.get(rawKey)
  if (known !== undefined) return known
  const match = SIMPLE_KEY.exec(rawKey)
  const name = match?.[1]
  const sub = match?.[2]
  const key =
    name === undefined || name === '__proto__' || sub === '__proto__' || (sub !== undefined && ARRAY_INDEX.test(sub))
      ? null
      : ([name, sub] as const)
  if (rawKey.length <= MAX_QUERY_KEY_LENGTH) {
    if (queryKeys.size >= MAX_QUERY_KEYS) queryKeys.clear()
    queryKeys.set(rawKey, key)
  }
  return key
}

/**
 * The value at `from`..`to` decoded as qs decodes it ('+' is a space, then percent escapes; a
 * malformed escape keeps the text), or undefined when it holds a bracket, sent or encoded (qs reads
 * those otherwise). One pass finds all three.
 */
function queryValue(search: string, from: number, to: number): string | undefined {
  let plus = false
  let percent = false
  for (let i = from; i < to; i++) {
    const code = search.charCodeAt(i)
    if (code === 0x5b || code === 0x5d) return undefined
    if (code === 0x2b) plus = true
    else if (code === 0x25) {
      percent = true
      const hex = search.charCodeAt(i + 2) | 0x20
      if (i + 2 < to && search.charCodeAt(i + 1) === 0x35 && (hex === 0x62 || hex === 0x64)) return undefined
    }
  }
  const raw = search.slice(from, to)
  const spaced = plus ? raw.replace(/\+/g, ' ') : raw
  if (!percent) return spaced
  try {
    return decodeURIComponent(spaced)
  } catch {
    return spaced
  }
}

/** GET: the known fields must be strings and `properties` an object (400 otherwise). */
export function validateQueryContext(query: Record<string, unknown>): Record<string, unknown> {
  for (const field of QUERY_STRING_FIELDS) {
    if (query[field] !== undefined && typeof query[field] !== 'string') {
      throw validationError(
        `/query/${field}`,
        'type',
        { type: 'string' },
        'must be string',
        `#/properties/${field}/type`,
      )
    }
  }
  if (query.properties !== undefined && !isObject(query.properties)) {
    throw validationError(
      '/query/properties',
      'type',
      { type: 'object' },
      'must be object',
      '#/properties/properties/type',
    )
  }
  return query
}

/** ajv's `coerceTypes` for a string field: numbers and booleans become strings, null becomes "". */
function coerceString(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (value === null) return ''
  return undefined
}

export interface EvaluationRequest {
  context: Record<string, unknown>
  /** The toggle names of a lookup, or undefined. */
  toggles: string[] | undefined
}

/** POST: `{ context?, toggles? }` validated and coerced like the old `lookupTogglesSchema`. */
export function validateBody(body: unknown): EvaluationRequest {
  if (!isObject(body)) throw validationError('/body', 'type', { type: 'object' }, 'must be object', '#/type')
  let toggles: string[] | undefined
  if (body.toggles !== undefined) {
    if (!Array.isArray(body.toggles))
      throw validationError('/body/toggles', 'type', { type: 'array' }, 'must be array', '#/properties/toggles/type')
    toggles = body.toggles.map((name, index) => {
      const coerced = coerceString(name)
      if (coerced === undefined)
        throw validationError(
          `/body/toggles/${index}`,
          'type',
          { type: 'string' },
          'must be string',
          '#/properties/toggles/items/type',
        )
      return coerced
    })
  }
  const raw = body.context ?? {}
  if (!isObject(raw))
    throw validationError('/body/context', 'type', { type: 'object' }, 'must be object', '#/properties/context/type')
  const context: Record<string, unknown> = { ...raw }
  for (const field of BODY_STRING_FIELDS) {
    if (context[field] === undefined) continue
    const coerced = coerceString(context[field])
    if (coerced === undefined)
      throw validationError(
        `/body/context/${field}`,
        'type',
        { type: 'string' },
        'must be string',
        `#/components/schemas/unleashContextSchema/properties/${field}/type`,
      )
    context[field] = coerced
  }
  if (context.properties !== undefined) {
    if (!isObject(context.properties))
      throw validationError(
        '/body/context/properties',
        'type',
        { type: 'object' },
        'must be object',
        '#/components/schemas/unleashContextSchema/properties/properties/type',
      )
    const properties: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(context.properties)) {
      const coerced = coerceString(value)
      if (coerced === undefined) {
        throw validationError(
          `/body/context/properties/${key}`,
          'type',
          { type: 'string' },
          'must be string',
          '#/components/schemas/unleashContextSchema/properties/properties/additionalProperties/type',
        )
      }
      properties[key] = coerced
    }
    context.properties = properties
  }
  return { context, toggles: toggles && toggles.length > 0 ? toggles : undefined }
}

/** The known fields and `properties`: what stays out of the moved properties. */
const NOT_MOVED: ReadonlySet<string> = new Set([...KNOWN_FIELDS, 'properties'])

/**
 * Old proxy normalisation (section 2.3): the known fields stay at the top (falsy ones dropped),
 * every other key moves into `properties` (an explicit `properties` entry wins), `currentTime`
 * becomes a Date (or is dropped), and a missing `remoteAddress` is the caller's address.
 */
export function normalizeContext(raw: Record<string, unknown>, clientAddress: string | undefined): Context {
  const context: Context = {}
  const properties: Record<string, unknown> = {}
  const keys = Object.keys(raw)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    if (!NOT_MOVED.has(key)) properties[key] = raw[key]
  }
  if (isObject(raw.properties)) Object.assign(properties, raw.properties)
  for (const field of KNOWN_FIELDS) {
    const value = raw[field]
    if (!value) continue
    if (field === 'currentTime') {
      const time = parseTime(value)
      if (time) context.currentTime = time
      continue
    }
    context[field] = value as string
  }
  if (!context.remoteAddress && clientAddress) context.remoteAddress = clientAddress
  context.properties = properties
  return context
}

/**
 * `new Date(value)` as the old proxy parsed `currentTime`, or undefined when invalid. A POST body
 * may carry any JSON there (the old schema did not declare it), and `new Date` throws on an
 * object whose `toString`/`valueOf` are not functions (`{"toString":1}`): that is invalid too,
 * never a 500.
 */
function parseTime(value: unknown): Date | undefined {
  let time: Date
  try {
    time = new Date(value as string)
  } catch {
    return undefined
  }
  return Number.isNaN(time.getTime()) ? undefined : time
}

/** Runs the custom enrichers in order; a failure is a 500 with its message. */
export async function enrich(
  context: Context,
  enrichers: ReadonlyArray<(c: Record<string, unknown>) => unknown>,
): Promise<Context> {
  let current: Record<string, unknown> = context
  for (const enricher of enrichers) {
    try {
      const next = await enricher(current)
      if (isObject(next)) current = next
    } catch (error) {
      throw new ProxyError('INTERNAL', error instanceof Error ? error.message : String(error))
    }
  }
  return current as Context
}
