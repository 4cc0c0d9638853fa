import { migration as flags } from './001-flags.js'
import { migration as access } from './002-access.js'
import { migration as eventsAndMetrics } from './003-events-and-metrics.js'
import { migration as signals } from './004-signals.js'
import { migration as insights } from './005-insights.js'
import { migration as initTokens } from './006-init-tokens.js'
import { migration as signalAttempts } from './007-signal-attempts.js'
import { migration as revision } from './008-revision.js'
import { migration as actionSetVersion } from './009-action-set-version.js'
import { migration as clientDeltas } from './010-client-deltas.js'
import { migration as playgroundContexts } from './011-playground-contexts.js'
import { migration as defaultStrategies } from './012-default-strategies.js'
import { migration as signalRateWindows } from './013-signal-rate-windows.js'
import { migration as eventOrigins } from './014-event-origins.js'
import type { Migration } from './types.js'

export type { Migration } from './types.js'

/** Every migration, in version order. Append new ones; never edit an applied one. */
export const MIGRATIONS: readonly Migration[] = [
  flags,
  access,
  eventsAndMetrics,
  signals,
  insights,
  initTokens,
  signalAttempts,
  revision,
  actionSetVersion,
  clientDeltas,
  playgroundContexts,
  defaultStrategies,
  signalRateWindows,
  eventOrigins,
]
