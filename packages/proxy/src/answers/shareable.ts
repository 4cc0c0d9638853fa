// The one rule that decides whether an evaluation's answer may be served to another caller who
// sends the same request (the response cache's admission), for every protocol alike: only when
// it depended on nothing but the request. Randomness (a random rollout, or a sessionId the proxy
// made up for this request), a custom strategy (code the proxy cannot see into) and an enricher
// (code that may read anything) each make an answer this caller's alone. An answer that read the
// clock may be shared until the next DATE constraint instant (its `validUntil`).
import type { EvaluationTrace } from '@vexil/engine'

interface AnswerInputs {
  /** What the engine said the answer depended on. */
  trace: EvaluationTrace
  /** The proxy gave the context a random sessionId for this request. */
  sessionInjected: boolean
  /** Enrichers changed the context (they may read anything: the time, a database, the request). */
  enriched: boolean
}

export function mayShareAnswer(inputs: AnswerInputs): boolean {
  const { trace } = inputs
  return !inputs.sessionInjected && !inputs.enriched && !trace.usedRandom && !trace.usedCustomStrategy
}
