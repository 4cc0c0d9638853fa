// OFREP's bodies (OpenFeature Remote Evaluation Protocol 0.3.0; docs: packages/proxy/README.md,
// "OpenFeature (OFREP)"), and the OFREP evaluation context. Each result of the engine's
// `evaluate` is one shared object per outcome (engine README, "Evaluation details"), so its JSON
// item is written once per payload and then only concatenated; the bulk answer's strong ETag is
// folded from the items' fingerprints (fingerprint.ts), equal for equal bodies everywhere.
import type { Context, EvaluationDetails } from '@vexil/engine'
import { isObject } from '../http/body.js'
import { FoldedBody, type Fragment, fingerprinted } from './fingerprint.js'
import { normalizeContext } from './context.js'
import type { SerializedAnswer } from './serialize.js'

const items = new WeakMap<EvaluationDetails, Fragment>()

/** One flag's OFREP item: `evaluationSuccess`, or `evaluationFailure` for an error result. */
export function ofrepItem(details: EvaluationDetails): Fragment {
  let made = items.get(details)
  if (made === undefined) {
    made = fingerprinted(itemJson(details))
    items.set(details, made)
  }
  return made
}

/** The bulk answer `{ flags: [...] }` and its strong ETag (`"<bytes in hex>-<16 base64 chars>"`). */
export function ofrepBulk(results: readonly EvaluationDetails[]): SerializedAnswer {
  const folded = new FoldedBody('{"flags":[', ']}')
  for (let i = 0; i < results.length; i++) folded.add(ofrepItem(results[i]!))
  return { body: folded.body(), bytes: folded.bytes, etag: `"${folded.tag()}"` }
}

function itemJson(details: EvaluationDetails): string {
  const key = JSON.stringify(details.flagKey)
  if (details.errorCode !== undefined) {
    return `{"key":${key},"errorCode":"${details.errorCode}","errorDetails":${JSON.stringify(details.errorMessage ?? details.errorCode)}}`
  }
  const variant = details.variant === undefined ? '' : `,"variant":${JSON.stringify(details.variant)}`
  // No `value` (never `null`): the caller's default wins (OFREP's code default, ADR-0006).
  const value = 'value' in details ? `,"value":${JSON.stringify(details.value)}` : ''
  const { enabled, impressionData } = details.flagMetadata as { enabled: boolean; impressionData: boolean }
  return `{"key":${key},"reason":"${details.reason}"${variant}${value},"metadata":{"enabled":${enabled},"impressionData":${impressionData}}}`
}

const STANDARD_FIELDS = ['userId', 'sessionId', 'remoteAddress', 'environment', 'appName'] as const

/**
 * An OFREP evaluation context as Unleash's (README table "OFREP context"), as @vexil/openfeature
 * maps it: `targetingKey` is the `userId` unless one is given (and a property too); the standard fields stay at the top (numbers and booleans as
 * strings); `currentTime` is parsed as on `/proxy`; a `properties` object's entries and every other
 * key become properties (strings as sent, numbers and booleans as strings, objects and arrays as
 * JSON, null dropped); `remoteAddress` defaults to the caller's address.
 */
export function ofrepContext(raw: Record<string, unknown>, clientAddress: string | undefined): Context {
  const flat: Record<string, unknown> = {}
  const properties: Record<string, string> = {}
  for (const key of Object.keys(raw)) {
    const value = raw[key]
    if (key === 'currentTime') continue
    if (key === 'properties' && isObject(value)) {
      for (const name of Object.keys(value)) {
        const text = propertyText(value[name])
        if (text !== undefined) properties[name] = text
      }
      continue
    }
    if ((STANDARD_FIELDS as readonly string[]).includes(key)) {
      const text = scalarText(value)
      if (text !== undefined) flat[key] = text
      continue
    }
    const text = propertyText(value)
    if (text !== undefined && !(key in properties)) properties[key] = text
  }
  const targetingKey = scalarText(raw.targetingKey)
  if (flat.userId === undefined && targetingKey !== undefined) flat.userId = targetingKey
  if (raw.currentTime !== undefined && raw.currentTime !== null) flat.currentTime = raw.currentTime
  flat.properties = properties
  return normalizeContext(flat, clientAddress)
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return undefined
}

function propertyText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined
  if (typeof value !== 'object') return String(value)
  try {
    return JSON.stringify(value)
  } catch {
    // Nested too deeply to write back (JSON.parse read it; stringify recurses): it cannot match.
    return undefined
  }
}
