// Which flags an evaluation may name to a caller (docs/security.md, "Flags a caller may see").
// The operator's "all" switch of a credential's kind (ENABLE_ALL_ENDPOINT for client keys,
// DISABLE_ALL_ENDPOINT for frontend tokens) says whether its callers may see flags that are not
// enabled for them, and it holds on every protocol: with it off, OFREP's bulk answer lists only
// flags enabled for the context (as /proxy does), and OFREP's single-flag route and
// /api/frontend/features/<name> answer a flag not enabled for the context as they answer an unknown
// name. The old proxy's POST /proxy with a `toggles` list keeps its byte-for-byte answer.
import type { ProxyConfig } from '../config/types.js'

export type VisibilityConfig = Pick<ProxyConfig, 'enableAllEndpoint' | 'frontendAllEndpoint'>

/** Whether a caller (a frontend token's, or a client key's when `byToken` is false) may see flags not enabled for it. */
export function seesDisabledFlags(config: VisibilityConfig, byToken: boolean): boolean {
  return byToken ? config.frontendAllEndpoint : config.enableAllEndpoint
}
