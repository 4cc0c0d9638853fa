// Reads a client features payload (full form or delta events) into validated changes.
// Input comes from the network: anything malformed is skipped with a warning, never thrown.
import { isObject, stringify, toNumber } from './coerce.js'
import type { StoredFeature, StoredSegment } from './raw-payload.js'
import type { EngineWarning, WarningCode } from './warnings.js'

export type DeltaStep =
  | { kind: 'hydrate'; features: Map<string, StoredFeature>; segments: Map<number, StoredSegment> }
  | { kind: 'feature-updated'; feature: StoredFeature }
  | { kind: 'feature-removed'; name: string }
  | { kind: 'segment-updated'; id: number; segment: StoredSegment }
  | { kind: 'segment-removed'; id: number }

export type PayloadChange =
  | { kind: 'replace'; features: Map<string, StoredFeature>; segments: Map<number, StoredSegment> }
  | { kind: 'delta'; steps: DeltaStep[] }

/** Problems of the payload itself name no flag. */
function warn(warnings: EngineWarning[], code: WarningCode, message: string): void {
  warnings.push({ flag: undefined, code, message })
}

const isFeature = (value: unknown): value is StoredFeature =>
  isObject(value) && typeof value.name === 'string' && value.name !== ''

function readFeature(value: unknown, warnings: EngineWarning[]): StoredFeature | undefined {
  if (isFeature(value)) return value
  warn(warnings, 'invalid-flag', 'a feature without a name was skipped')
  return undefined
}

function readSegment(value: unknown, warnings: EngineWarning[]): StoredSegment | undefined {
  if (isObject(value)) {
    const id = toNumber(value.id)
    if (Number.isFinite(id)) return { ...value, id }
  }
  warn(warnings, 'invalid-segment', 'a segment without a numeric id was skipped')
  return undefined
}

function readFeatures(list: unknown, warnings: EngineWarning[]): Map<string, StoredFeature> {
  const features = new Map<string, StoredFeature>()
  if (!Array.isArray(list)) return features
  for (const entry of list) {
    const feature = readFeature(entry, warnings)
    // A repeated name replaces the earlier definition and keeps its position (as a JS object would).
    if (feature) features.set(feature.name, feature)
  }
  return features
}

function readSegments(list: unknown, warnings: EngineWarning[]): Map<number, StoredSegment> {
  const segments = new Map<number, StoredSegment>()
  if (list === undefined || list === null) return segments
  if (!Array.isArray(list)) {
    warn(warnings, 'invalid-segment', '"segments" is not an array; ignored')
    return segments
  }
  for (const entry of list) {
    const segment = readSegment(entry, warnings)
    if (segment) segments.set(segment.id, segment)
  }
  return segments
}

function readEvent(event: unknown, warnings: EngineWarning[]): DeltaStep | undefined {
  if (!isObject(event)) {
    warn(warnings, 'invalid-event', 'a delta event is not an object; ignored')
    return undefined
  }
  switch (event.type) {
    case 'hydration':
      return {
        kind: 'hydrate',
        features: readFeatures(event.features, warnings),
        segments: readSegments(event.segments, warnings),
      }
    case 'feature-updated': {
      const feature = readFeature(event.feature, warnings)
      return feature && { kind: 'feature-updated', feature }
    }
    case 'feature-removed': {
      const name = stringify(event.featureName)
      return name ? { kind: 'feature-removed', name } : undefined
    }
    case 'segment-updated': {
      const segment = readSegment(event.segment, warnings)
      return segment && { kind: 'segment-updated', id: segment.id, segment }
    }
    case 'segment-removed': {
      const id = toNumber(event.segmentId)
      return Number.isFinite(id) ? { kind: 'segment-removed', id } : undefined
    }
    default:
      warn(warnings, 'invalid-event', `unknown delta event type "${String(event.type)}"; ignored`)
      return undefined
  }
}

/** A delta has an `events` array; otherwise a full payload has a `features` array (Node SDK rule). */
export function readPayload(state: unknown, warnings: EngineWarning[]): PayloadChange | undefined {
  if (!isObject(state) || Array.isArray(state)) {
    warn(warnings, 'invalid-payload', 'the payload is not an object; nothing was loaded')
    return undefined
  }
  if (Array.isArray(state.events)) {
    const steps: DeltaStep[] = []
    for (const event of state.events) {
      const step = readEvent(event, warnings)
      if (step) steps.push(step)
    }
    return { kind: 'delta', steps }
  }
  if (Array.isArray(state.features)) {
    return {
      kind: 'replace',
      features: readFeatures(state.features, warnings),
      segments: readSegments(state.segments, warnings),
    }
  }
  warn(warnings, 'invalid-payload', 'the payload has neither a "features" nor an "events" array; nothing was loaded')
  return undefined
}
