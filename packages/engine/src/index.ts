// @vexil/engine: compile an Unleash client features payload once, evaluate by reading.

// Engine
export { createEngine } from './engine.js'
export type { Engine } from './engine.js'

// Errors and load warnings
export { CustomStrategyError } from './errors.js'
export type { EngineWarning, WarningCode } from './warnings.js'

// Checks for editors: the warnings `load` would give for one constraint or strategy
export { checkConstraint, checkStrategy } from './check.js'

// Hashing (exposed for tools that must agree with the engine's buckets)
export { murmur3, ROLLOUT_SEED, VARIANT_SEED } from './hash.js'

// Constants
export { SUPPORTED_OPERATORS } from './constraints/index.js'
export { BUILT_IN_STRATEGY_NAMES } from './strategies/names.js'

// Types: the payload as received (what `load` takes and `getState` returns)
export type {
  ClientFeaturesDelta,
  ClientFeaturesPayload,
  DeltaEvent,
  EngineState,
  RawConstraint,
  RawDependency,
  RawFeature,
  RawSegment,
  RawStrategy,
  RawVariant,
  RawVariantOverride,
  StoredFeature,
  StoredSegment,
} from './raw-payload.js'

// Types: a well-formed payload (what a server sends; for building payloads)
export type {
  ConstraintDefinition,
  FeatureDefinition,
  FeatureDependency,
  SegmentDefinition,
  StrategyDefinition,
  VariantDefinition,
  VariantOverride,
} from './definitions.js'

// Types: context, options and results
export type {
  Context,
  CustomStrategy,
  EngineOptions,
  EvaluateAllOptions,
  EvaluationTrace,
  EvaluatedToggle,
  EvaluationDetails,
  EvaluationErrorCode,
  FlagMetadata,
  FlagValue,
  FlagValueType,
  JsonValue,
  ResolutionReason,
  Variant,
  VariantPayload,
} from './types.js'
