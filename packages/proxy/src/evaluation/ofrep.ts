// The OFREP evaluation context as Unleash's (OpenFeature Remote Evaluation Protocol 0.3.0; docs:
// packages/proxy/README.md, "OpenFeature (OFREP)"). OFREP's bodies are protocols/ofrep-bodies.ts.
import type { Context } from '@vexil/engine'
import { toUnleashContext } from '@vexil/sync'
import { normalizeContext } from './context.js'

/**
 * An OFREP evaluation context as Unleash's (README table "OFREP context"), by the mapping
 * @vexil/openfeature uses (@vexil/sync's table); `currentTime` is parsed as on `/proxy`, and
 * `remoteAddress` defaults to the caller's address.
 */
export function ofrepContext(raw: Record<string, unknown>, clientAddress: string | undefined): Context {
  const mapped = toUnleashContext(raw, undefined, undefined, true)
  return normalizeContext({ ...mapped, currentTime: raw.currentTime ?? undefined }, clientAddress)
}
