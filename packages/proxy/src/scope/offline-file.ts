// Edge's offline file (unleash-edge-offline, hotload.rs), in either of its two formats: first the
// simple map `{"name": {"enabled": true, "variant": "v"}}`, else Unleash's client features
// `{"version": 2, "features": [...]}`. A simple entry becomes what Edge makes of it: one
// `default` strategy, and for a named variant that one variant (weight 1000, fixed, stickiness
// `default`), in project `default`. Unlike Edge, the map's order is kept (Edge's is a hash map's).

/** A file read into a payload the engine loads, and the environment it says it is of, if any. */
export interface OfflineFlags {
  payload: { version: number; features: unknown[]; segments?: unknown[] }
  /** The client features' `query.environment`; the simple map names none. */
  environment: string | undefined
}

/** Why a file's text is not flags: a sentence to follow the file's name. */
export class OfflineFileError extends Error {
  override name = 'OfflineFileError'
  readonly code = 'INVALID_OFFLINE_FILE'
}

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The flags in `text`, or an OfflineFileError saying why there are none. */
export function parseOfflineFlags(text: string): OfflineFlags {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new OfflineFileError(`is not JSON: ${(error as Error).message}`)
  }
  if (!isObject(parsed))
    throw new OfflineFileError(
      `must hold a JSON object, ${FORMATS}; found ${Array.isArray(parsed) ? 'an array' : String(parsed)}`,
    )
  const simpleProblem = simpleMapProblem(parsed)
  if (simpleProblem === undefined)
    return { payload: fromSimpleMap(parsed as Record<string, SimpleFlag>), environment: undefined }
  const clientProblem = clientFeaturesProblem(parsed)
  if (clientProblem === undefined) {
    const query = parsed.query
    const environment = isObject(query) && typeof query.environment === 'string' ? query.environment : undefined
    return { payload: parsed as OfflineFlags['payload'], environment }
  }
  // The message answers the format the file looks like it meant.
  throw new OfflineFileError(
    `is neither of the offline formats (${FORMATS}): ${'features' in parsed || 'version' in parsed ? clientProblem : simpleProblem}`,
  )
}

// --- Internal helpers ---

const FORMATS =
  'Edge\'s simple map {"name": {"enabled": true, "variant": "v"}} or Unleash\'s client features {"version": 2, "features": [...]}'

interface SimpleFlag {
  enabled: boolean
  variant?: string | null
}

/** Why `value` is not Edge's simple map (serde's reading: `enabled` required, `variant` optional, other keys ignored). */
function simpleMapProblem(value: Json): string | undefined {
  for (const [name, entry] of Object.entries(value)) {
    if (!isObject(entry)) return `"${name}" must be an object such as {"enabled": true}`
    if (typeof entry.enabled !== 'boolean') return `"${name}".enabled must be true or false`
    if (entry.variant !== undefined && entry.variant !== null && typeof entry.variant !== 'string')
      return `"${name}".variant must be a string`
  }
  return undefined
}

/** Why `value` is not Unleash's client features (a whole-number `version` and a `features` array). */
function clientFeaturesProblem(value: Json): string | undefined {
  if (typeof value.version !== 'number' || !Number.isInteger(value.version) || value.version < 0)
    return 'version must be a whole number'
  if (!Array.isArray(value.features)) return 'features must be an array'
  if (value.segments !== undefined && value.segments !== null && !Array.isArray(value.segments))
    return 'segments must be an array'
  return undefined
}

function fromSimpleMap(map: Record<string, SimpleFlag>): OfflineFlags['payload'] {
  const features = Object.entries(map).map(([name, flag]) => ({
    name,
    enabled: flag.enabled,
    project: 'default',
    strategies: [{ name: 'default', parameters: {}, constraints: [], variants: [] }],
    ...(typeof flag.variant === 'string'
      ? { variants: [{ name: flag.variant, weight: 1000, weightType: 'fix', stickiness: 'default' }] }
      : {}),
  }))
  return { version: 2, features }
}
