import type { ClientFeaturesPayload } from '@vexil/engine'
import { StorageError } from './storage-error.js'

/**
 * Parses a stored backup. Blank text is "nothing stored", as in the old proxy's file provider
 * (unleash-client-node `storage-provider-file.ts`); bad JSON or a value without a `features`
 * array is `STORAGE_CORRUPT`, naming `where` (a file path or Redis key) for the log line.
 */
export function parsePayload(text: string, where: string): ClientFeaturesPayload | undefined {
  if (text.trim() === '') return undefined
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new StorageError('STORAGE_CORRUPT', `backup ${where} is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    })
  }
  const problem = payloadProblem(value)
  if (problem) throw new StorageError('STORAGE_CORRUPT', `backup ${where} is not a features payload: ${problem}`)
  return value as ClientFeaturesPayload
}

/** Why `value` is not a `ClientFeaturesPayload`, or `undefined` when it is one (shallowly). */
export function payloadProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `expected an object, got ${describe(value)}`
  const { features, segments } = value as Record<string, unknown>
  if (!Array.isArray(features)) return `"features" must be an array, got ${describe(features)}`
  if (segments !== undefined && !Array.isArray(segments))
    return `"segments" must be an array, got ${describe(segments)}`
  return undefined
}

// --- Internal helpers ---

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value
}
