// explain / explainAll (the entry @vexil/engine/explain is index.ts): why each flag has its
// result for a context. A separate evaluator, built only when asked, so the hot path
// (evaluate.ts, program.ts) stays as it is. It reads the engine's compiled flags and runs the
// engine's own pieces (dependencySatisfied, each strategy's compiled test, overrideIndex /
// weightedIndex, the shared results and details), and shows each constraint through a twin
// compiled by the same compiler (twins.ts). What it decides is held equal to isEnabled /
// getVariant / evaluate by a property test (test/explain.test.ts).
//
// Two inputs are not the context's: the clock, read once per call (the context's `currentTime`,
// else now) and shown as `currentTime`; and random draws (random stickiness, or a stickiness
// value missing), which make `random` true: another evaluation may draw differently.
import { stringify } from '../coerce.js'
import type { CompiledFeature } from '../compile-feature.js'
import { decidedDetails, evaluationFailed, flagNotFound } from '../details.js'
import type { ExplainSource } from '../engine-access.js'
import { CustomStrategyError } from '../errors.js'
import {
  dependencySatisfied,
  evaluateFeature,
  type FeatureLookup,
  FIRST_VARIANT_OUTCOME,
  OFF_OUTCOME,
  ON_WITHOUT_VARIANT_OUTCOME,
  outcome as toggleOf,
  strategyOutcome,
} from '../evaluate.js'
import { currentTime } from '../frame.js'
import { DISABLED_VARIANT } from '../outcomes.js'
import { OFF, ON_WITHOUT_STRATEGIES } from '../program.js'
import type { Context, EvaluatedToggle } from '../types.js'
import { overrideIndex, weightedIndex } from '../variants.js'
import { type ExplainScope, explainStrategy, type PreparedStrategy, prepareStrategy } from './strategy.js'
import { createTwins } from './twins.js'
import type {
  DependencyExplanation,
  ExplainOutcome,
  FlagExplanation,
  StrategyExplanation,
  VariantExplanation,
} from './types.js'
import { explainVariantSet, NO_VARIANT } from './variant.js'

/** Explains the named flags (unknown names too) for one context, evaluated once for them all. */
export function explainFlags(names: readonly string[], context: Context, source: ExplainSource): FlagExplanation[] {
  const twins = createTwins(source.customStrategies, source.hostname, source.segments)
  // Every twin is compiled before the evaluations start (a frame is sized for the slots so far).
  const prepared = names.map((name) => {
    const feature = source.flags.get(name)
    return feature?.strategies.map((_, i) =>
      prepareStrategy((feature.definition.strategies as unknown[])[i], name, twins, source.segments),
    )
  })
  const frame = source.slots.frame(context)
  const time = currentTime(frame)
  const scope: ExplainScope = {
    frame,
    twinFrame: twins.frame(context, time),
    slots: source.slots,
    segments: source.segments,
    customStrategies: source.customStrategies,
    hostname: source.hostname,
  }
  return names.map((name, i) => {
    const feature = source.flags.get(name)
    if (!feature) return notFound(name, time)
    frame.usedRandom = false
    try {
      return explainFeature(feature, prepared[i]!, scope, source.flags, time, null)
    } catch (error) {
      // A host's strategy threw (in the flag or a parent): the flag explains as that error, unevaluated.
      if (!(error instanceof CustomStrategyError)) throw error
      return explainFeature(feature, prepared[i]!, scope, source.flags, time, error.message)
    }
  })
}

function iso(time: number): string | null {
  return Number.isNaN(time) ? null : new Date(time).toISOString()
}

function notFound(name: string, time: number): FlagExplanation {
  return {
    name,
    project: null,
    type: null,
    enabled: false,
    variant: DISABLED_VARIANT,
    details: flagNotFound(name),
    outcome: 'not-found',
    flagEnabled: false,
    invalid: null,
    error: null,
    currentTime: iso(time),
    random: false,
    dependencies: [],
    strategies: [],
    matchedStrategy: null,
    variantExplanation: { ...NO_VARIANT },
  }
}

function explainDependencies(
  feature: CompiledFeature,
  scope: ExplainScope,
  features: FeatureLookup,
  evaluate: boolean,
): DependencyExplanation[] {
  let checking = evaluate
  return (feature.dependencies ?? []).map((dependency) => {
    const parent = features.get(dependency.parent)
    const shown: DependencyExplanation = {
      feature: dependency.parent,
      enabled: dependency.expectEnabled,
      variants: dependency.variants ? [...dependency.variants] : null,
      parent: null,
      problem: !parent ? 'unknown-parent' : parent.dependencies ? 'parent-has-dependencies' : null,
      satisfied: null,
    }
    if (!checking) return shown
    const satisfied = dependencySatisfied(dependency, scope.frame, features)
    checking = satisfied
    if (parent && !parent.dependencies) {
      const result = evaluateFeature(parent, scope.frame, features)
      shown.parent = { enabled: result.enabled, variant: result.variant.name }
    }
    shown.satisfied = satisfied
    return shown
  })
}

/** The variant of a flag that is on, chosen as evaluate.ts chooses it. */
function chooseVariant(
  feature: CompiledFeature,
  match: number,
  scope: ExplainScope,
): {
  toggle: EvaluatedToggle
  strategyVariant: number
  flagVariant: number
  overridden: boolean
  explanation: VariantExplanation
} {
  const { frame, slots } = scope
  const strategy = match >= 0 ? feature.strategies[match]! : undefined
  if (strategy?.variants) {
    const index = weightedIndex(strategy.variants, frame)
    if (index >= 0) {
      const names = strategy.variantDefinitions.map((_, i) => strategyOutcome(feature, strategy, i).variant.name)
      const explanation = {
        source: 'strategy' as const,
        none: null,
        strategyVariantsUnusable: false,
        ...explainVariantSet(strategy.variants, names, index, false, frame, slots),
      }
      return {
        toggle: strategyOutcome(feature, strategy, index),
        strategyVariant: index,
        flagVariant: -1,
        overridden: false,
        explanation,
      }
    }
  }
  const strategyVariantsUnusable = strategy !== undefined && strategy.variantDefinitions.length > 0
  const set = feature.variants
  if (!set) {
    const none = feature.variantDefinitions.length > 0 ? 'no-weight' : 'no-variants'
    return {
      toggle: toggleOf(feature, ON_WITHOUT_VARIANT_OUTCOME),
      strategyVariant: -1,
      flagVariant: -1,
      overridden: false,
      explanation: { ...NO_VARIANT, none, strategyVariantsUnusable },
    }
  }
  const overridden = overrideIndex(set, frame)
  const index = overridden >= 0 ? overridden : weightedIndex(set, frame)
  const names = feature.variantDefinitions.map((_, i) => toggleOf(feature, FIRST_VARIANT_OUTCOME + i).variant.name)
  const explanation: VariantExplanation = {
    source: index >= 0 ? 'flag' : 'none',
    none: index >= 0 ? null : 'no-weight',
    strategyVariantsUnusable,
    ...explainVariantSet(set, names, index, overridden >= 0, frame, slots),
  }
  const toggle = toggleOf(feature, index >= 0 ? FIRST_VARIANT_OUTCOME + index : ON_WITHOUT_VARIANT_OUTCOME)
  return { toggle, strategyVariant: -1, flagVariant: index, overridden: overridden >= 0, explanation }
}

/** One flag; `error`: a custom strategy threw while it was evaluated, so nothing is evaluated again. */
function explainFeature(
  feature: CompiledFeature,
  prepared: PreparedStrategy[],
  scope: ExplainScope,
  features: FeatureLookup,
  time: number,
  error: string | null,
): FlagExplanation {
  const definition = feature.definition
  const on = feature.invalid === undefined && feature.enabled && error === null
  const dependencies = explainDependencies(feature, scope, features, on)
  const unmet = dependencies.some((d) => d.satisfied === false)
  const strategies: StrategyExplanation[] = []
  let match = on && !unmet && feature.strategies.length === 0 ? ON_WITHOUT_STRATEGIES : OFF
  for (let i = 0; i < prepared.length; i++) {
    const strategy = explainStrategy(feature, i, prepared[i]!, scope, on && !unmet && match === OFF)
    if (strategy.matched) match = i
    strategies.push(strategy)
  }
  const outcome: ExplainOutcome =
    error !== null
      ? 'error'
      : feature.invalid !== undefined
        ? 'invalid'
        : !feature.enabled
          ? 'disabled'
          : unmet
            ? 'dependency-unmet'
            : match === ON_WITHOUT_STRATEGIES
              ? 'no-strategies'
              : match >= 0
                ? 'strategy-matched'
                : 'no-strategy-matched'
  // A throwing custom strategy makes evaluate's result an error, as engine.ts's detailsOf does.
  const chosen = match === OFF ? undefined : chooseVariant(feature, match, scope)
  return {
    name: feature.name,
    project: stringify(definition.project) ?? null,
    type: stringify(definition.type) ?? null,
    enabled: chosen !== undefined,
    variant: chosen ? chosen.toggle.variant : toggleOf(feature, OFF_OUTCOME).variant,
    details: chosen
      ? decidedDetails(feature, match, chosen.strategyVariant, chosen.flagVariant, chosen.overridden)
      : error === null
        ? decidedDetails(feature, OFF, -1, -1, false)
        : evaluationFailed(feature, error),
    outcome,
    flagEnabled: definition.enabled === true,
    invalid: feature.invalid ?? null,
    error,
    currentTime: iso(time),
    random: scope.frame.usedRandom,
    dependencies,
    strategies,
    matchedStrategy: match >= 0 ? match : null,
    variantExplanation: chosen ? chosen.explanation : { ...NO_VARIANT },
  }
}
