/**
 * Thrown by `isEnabled`, `getVariant` and `evaluateAll` when a custom strategy supplied by the host
 * throws: the one failure evaluation reports by throwing, as their results have no place for an
 * error (`evaluate` and `evaluateAllDetails` give the flag a GENERAL result with this message).
 * Nothing a caller passes makes evaluation throw. The host reports it (the proxy answers 500 JSON).
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
