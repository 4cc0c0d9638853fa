// What `load` accepts: a client features payload as received over the network. Any field may
// be missing or of any type, and extra fields are kept (for `getState`); the reader and the
// compiler check each one, and a bad one costs only its flag. Well-formed payloads
// (`definitions.ts`) are assignable to these.

export interface RawConstraint {
  contextName?: unknown
  operator?: unknown
  values?: unknown
  value?: unknown
  inverted?: unknown
  caseInsensitive?: unknown
}

export interface RawSegment {
  id?: unknown
  name?: unknown
  constraints?: unknown
}

export interface RawVariantOverride {
  contextName?: unknown
  values?: unknown
}

export interface RawVariant {
  name?: unknown
  weight?: unknown
  weightType?: unknown
  stickiness?: unknown
  payload?: unknown
  overrides?: unknown
}

export interface RawStrategy {
  name?: unknown
  parameters?: unknown
  constraints?: unknown
  segments?: unknown
  variants?: unknown
  sortOrder?: unknown
}

export interface RawDependency {
  feature?: unknown
  enabled?: unknown
  variants?: unknown
}

export interface RawFeature {
  name?: unknown
  enabled?: unknown
  strategies?: unknown
  variants?: unknown
  dependencies?: unknown
  impressionData?: unknown
  [key: string]: unknown
}

/** A feature the engine keeps: as received, its name checked (`getState` returns these). */
export interface StoredFeature extends RawFeature {
  name: string
}

/** A segment the engine keeps: as received, its id read as a number. */
export interface StoredSegment extends RawSegment {
  id: number
}

/** The full form of `GET /api/client/features`; as input, every entry is checked. */
export interface ClientFeaturesPayload<F = RawFeature, S = RawSegment> {
  version?: unknown
  features: F[]
  segments?: S[]
  query?: unknown
  meta?: unknown
}

export type DeltaEvent<F = RawFeature, S = RawSegment> =
  | { type: 'hydration'; eventId?: number; features: F[]; segments?: S[] }
  | { type: 'feature-updated'; eventId?: number; feature: F }
  | { type: 'feature-removed'; eventId?: number; featureName: string; project?: string }
  | { type: 'segment-updated'; eventId?: number; segment: S }
  | { type: 'segment-removed'; eventId?: number; segmentId: number }

/** The delta form: events applied in array order. */
export interface ClientFeaturesDelta<F = RawFeature, S = RawSegment> {
  events: DeltaEvent<F, S>[]
}

/** What `engine.load` applies: a full payload or delta events. */
export type EngineState = ClientFeaturesPayload | ClientFeaturesDelta
