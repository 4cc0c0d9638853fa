// What @vexil/engine/explain reads of an engine. Each engine that createEngine (or fork) makes
// registers how to see its current compiled state; the explaining code lives behind its own
// entry, so the default entry carries this registry and not the explainer, which keeps it out
// of browser bundles (packages/engine/test/browser.test.ts prints both entries' sizes).
import type { FlagIndex } from './flag-index.js'
import type { StoredSegment } from './raw-payload.js'
import type { SlotTable } from './slot-table.js'
import type { Context, CustomStrategy } from './types.js'

/** What explaining needs from an engine: its settings and its current compiled state. */
export interface ExplainSource {
  /** The compiled flags, in payload order. */
  flags: FlagIndex
  segments: ReadonlyMap<number, StoredSegment>
  slots: SlotTable
  customStrategies: ReadonlyMap<string, CustomStrategy>
  hostname: string
}

/** Each engine's view of its state at the time of asking (a load replaces them). */
export const explainSources = new WeakMap<object, () => ExplainSource>()

const EMPTY_CONTEXT: Context = Object.freeze({})

/** JavaScript callers may pass anything as a context: a non-object is an empty one. */
export function asContext(context: Context | undefined): Context {
  return context !== null && typeof context === 'object' ? context : EMPTY_CONTEXT
}

/**
 * The text of a name no flag has, for its not-found result: JavaScript callers may pass anything
 * as a name, and String throws for some (an object without a prototype, a symbol in a template).
 */
export function nameText(name: unknown): string {
  if (typeof name === 'string') return name
  try {
    return String(name)
  } catch {
    return Object.prototype.toString.call(name)
  }
}
