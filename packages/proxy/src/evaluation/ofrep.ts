// The OFREP evaluation context as Unleash's (OpenFeature Remote Evaluation Protocol 0.3.0; docs:
// packages/proxy/README.md, "OpenFeature (OFREP)"). OFREP's bodies are protocols/ofrep-bodies.ts.
import type { Context } from '@vexil/engine'
import { isObject } from '../http/body.js'
import { normalizeContext } from './context.js'

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
