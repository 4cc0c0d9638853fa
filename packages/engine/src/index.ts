// @vexil/engine: compile an Unleash client features payload once, evaluate by reading.

// Engine
export { createEngine } from './engine.js'
export type { Engine } from './engine.js'

// Errors
export { CustomStrategyError } from './errors.js'

// Hashing (exposed for tools that must agree with the engine's buckets)
export { murmur3, ROLLOUT_SEED, VARIANT_SEED } from './hash.js'

// Constants
export { SUPPORTED_OPERATORS } from './constraints/index.js'
export { BUILT_IN_STRATEGY_NAMES } from './strategies/names.js'

// Types
export type {
  ClientFeaturesDelta,
  ClientFeaturesPayload,
  ConstraintDefinition,
  Context,
  CustomStrategy,
  DeltaEvent,
  EngineOptions,
  EngineState,
  EvaluateAllOptions,
  EvaluationTrace,
  EvaluatedToggle,
  FeatureDefinition,
  FeatureDependency,
  SegmentDefinition,
  StrategyDefinition,
  Variant,
  VariantDefinition,
  VariantOverride,
  VariantPayload,
} from './types.js'
