/** The built-in strategy names, in the order the Node SDK registers them (sent when registering). */
export const BUILT_IN_STRATEGY_NAMES: readonly string[] = Object.freeze([
  'default',
  'applicationHostname',
  'gradualRolloutRandom',
  'gradualRolloutUserId',
  'gradualRolloutSessionId',
  'userWithId',
  'remoteAddress',
  'flexibleRollout',
])
