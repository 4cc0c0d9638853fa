import type { ParseCaches } from '../parse-cache.js'
import type { SlotTable } from '../slot-table.js'
import type { Gate } from '../gates.js'
import type { Warn } from '../warnings.js'

interface StrategyInput {
  /** The strategy's parameters as received (values may be of any type). */
  parameters: Record<string, unknown>
  featureName: string
  /** Lowercased hostname for `applicationHostname`. */
  hostname: string
  slots: SlotTable
  caches: ParseCaches
  /** Reports a parameter the strategy cannot use (the load's warnings; checkStrategy). */
  warn: Warn
}

/** Compiles a built-in strategy's own test, without constraints or segments. */
export type StrategyCompiler = (input: StrategyInput) => Gate
