// @vexil/engine/explain: why each flag has its result for a context, for an admin UI's playground
// or a log. An entry of its own, so that an application that only evaluates does not bundle it.
import type { Engine } from '../engine.js'
import { asContext, type ExplainSource, explainSources, nameText } from '../engine-access.js'
import type { Context } from '../types.js'
import { explainFlags } from './flags.js'
import type { FlagExplanation } from './types.js'

export type {
  ConstraintExplanation,
  DependencyExplanation,
  ExplainedWarning,
  ExplainOutcome,
  FlagExplanation,
  RolloutExplanation,
  SegmentExplanation,
  StrategyExplanation,
  StrategyFailure,
  StrategyTestExplanation,
  VariantCandidate,
  VariantExplanation,
} from './types.js'

function sourceOf(engine: Engine): ExplainSource {
  const source = typeof engine === 'object' && engine !== null ? explainSources.get(engine) : undefined
  if (!source) throw new TypeError('explain: expected an engine made by createEngine (or its fork) from @vexil/engine')
  return source()
}

/**
 * Why the flag has its result for the context: its dependencies, each strategy with its
 * constraints (the value each saw), segments and own test (a rollout's bucket), and how the
 * variant was chosen. JSON-serialisable; built only when asked. `enabled`, `variant` and
 * `details` equal the engine's isEnabled, getVariant and evaluate. An unknown name explains as
 * `not-found`.
 */
export function explain(engine: Engine, name: string, context?: Context): FlagExplanation {
  return explainFlags([nameText(name)], asContext(context), sourceOf(engine))[0]!
}

/** `explain` for every flag, in payload order, with one evaluation of the context. */
export function explainAll(engine: Engine, context?: Context): FlagExplanation[] {
  const source = sourceOf(engine)
  return explainFlags(
    source.flags.list.map((feature) => feature.name),
    asContext(context),
    source,
  )
}
