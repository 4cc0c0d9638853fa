// The tokens offline mode accepts: exactly the listed ones, each of the type its list gives and
// of the one scope the file is (docs/edge-compatibility.md, "Offline mode"). Nothing is ever
// validated anywhere, so any other secret is refused at once.
import type { OfflineConfig } from '../config/offline.js'
import type { KnownToken, TokenScope } from './api-token.js'
import type { TokenRegistry } from './token-registry.js'

export function createOfflineTokens(
  offline: Pick<OfflineConfig, 'clientTokens' | 'frontendTokens'>,
  scope: TokenScope,
): TokenRegistry {
  const listed = new Map<string, KnownToken>()
  for (const secret of offline.clientTokens) listed.set(secret, { ...scope, secret, type: 'client' })
  for (const secret of offline.frontendTokens) listed.set(secret, { ...scope, secret, type: 'frontend' })
  const tokens = [...listed.values()]

  return {
    known: (secret) => listed.get(secret),
    resolve: (secret) => Promise.resolve(listed.get(secret) ?? 'invalid'),
    tokens: () => tokens,
    restore: () => undefined,
    start: () => Promise.resolve(),
    stop: () => undefined,
    invalidCount: 0,
  }
}
