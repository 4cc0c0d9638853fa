// The playground's recent contexts: each remembered with the environment it was evaluated in
// (the context's own `environment` field, as Unleash SDKs set it), and listed once per line.
import type { Context } from '@vexil/engine'
import { summary } from './context-model.ts'

export interface RecentChoice {
  /** One per line shown: the environment and the context's summary. */
  key: string
  context: Context
  environment: string | undefined
  lastUsedAt: string
}

/** The context to remember: `context` with the environment it was evaluated in. */
export function withEnvironment(context: Context, environment: string): Context {
  return environment ? { ...context, environment } : context
}

/**
 * Newest first, each line once: contexts whose JSON differs only where the summary does not show
 * it (an empty `properties`, key order) are one choice, the newest kept.
 */
export function recentChoices(recent: { context: Context; lastUsedAt: string }[]): RecentChoice[] {
  const seen = new Set<string>()
  const choices: RecentChoice[] = []
  for (const { context, lastUsedAt } of recent) {
    const { environment, ...rest } = context
    const shown = withoutEmptyProperties(rest)
    const key = `${environment ?? ''}\n${summary(shown)}`
    if (seen.has(key)) continue
    seen.add(key)
    choices.push({
      key,
      context: shown,
      environment: typeof environment === 'string' ? environment : undefined,
      lastUsedAt,
    })
  }
  return choices
}

function withoutEmptyProperties(context: Context): Context {
  const { properties, ...rest } = context
  return properties && Object.keys(properties).length > 0 ? { ...rest, properties } : rest
}
