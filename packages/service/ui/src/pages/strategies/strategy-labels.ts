// Each built-in strategy kind's name in the UI, the one name every page (the flag page, the
// strategy editor, the playground) gives it. A module of its own: the flags list (first load)
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

/** A strategy kind's display name; a custom strategy keeps its own. */
export const strategyKindLabel = (name: string): string => STRATEGY_LABELS[name] ?? name

/** What a strategy is called: its title, else its kind's display name. */
export const strategyLabel = (strategy: { name: string; title?: string | null | undefined }): string =>
  strategy.title || strategyKindLabel(strategy.name)
