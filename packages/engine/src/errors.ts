/**
 * Thrown by evaluation when a custom strategy supplied by the host throws. Built-in evaluation
 * never throws; a host strategy's failure is the host's to report (the proxy answers 500 JSON).
 */
export class CustomStrategyError extends Error {
  override name = 'CustomStrategyError'
  readonly code = 'CUSTOM_STRATEGY_FAILED'

  constructor(
    readonly featureName: string,
    readonly strategyName: string,
    override readonly cause: unknown,
  ) {
    super(
      `custom strategy "${strategyName}" threw while evaluating "${featureName}": ${cause instanceof Error ? cause.message : String(cause)}`,
    )
  }
}
