// Each built-in strategy kind's name in the UI. A module of its own: the flags list (first load)
// needs only these, not the rest of the strategy pages.
export const STRATEGY_LABELS: Record<string, string> = {
  default: 'Standard: on for everyone',
  flexibleRollout: 'Gradual rollout',
  userWithId: 'User IDs',
  remoteAddress: 'IP addresses',
  applicationHostname: 'Host names',
  gradualRolloutUserId: 'Gradual rollout by user ID (legacy)',
  gradualRolloutSessionId: 'Gradual rollout by session ID (legacy)',
  gradualRolloutRandom: 'Random gradual rollout (legacy)',
}
