// Who a caller of the Unleash API routes (/api/*, /edge/*) is: the token in its Authorization
// header (a `Bearer ` prefix allowed, as Unleash 8.2 does), known or validated upstream once,
// of the type the route wants, and the scope view it is answered from. Decided here, once per
// request, on the route the router matched; the handler only reads the result.
import type { H3Event } from 'h3'
import type { RequestTrace } from '@vexil/server-kit'
import type { ClientAddress } from '../http/client-ip.js'
import { ProxyError } from '../http/errors.js'
import type { TokenCaller } from '../answers/request-state.js'
import type { TokenScopes } from '../scope/token-scopes.js'
import { type KnownToken, readTokenSecret, type TokenType } from '../tokens/api-token.js'
import { callerKey } from '../tokens/caller-key.js'
import type { TokenRegistry } from '../tokens/token-registry.js'

export type { TokenCaller } from '../answers/request-state.js'

/**
 * Admitted callers remembered, in UTF-16 code units of their secrets: each secret is one the
 * upstream validated (at most MAX_TOKEN_LENGTH), so this only caps how many tokens skip the long way.
 */
const MAX_REMEMBERED_CHARS = 1_048_576

/**
 * `event`: the request, whose caller's address takes the share of the validation queue, and whose
 * span (when tracing: `requestTrace`) is the parent of the validation it causes.
 */
export type TokenGate = (
  type: TokenType,
  header: string | undefined,
  event?: H3Event,
) => TokenCaller | Promise<TokenCaller>

export function createTokenGate(
  registry: TokenRegistry,
  scopes: TokenScopes,
  clientAddress?: ClientAddress,
  requestTrace?: RequestTrace,
): TokenGate {
  function admit(type: TokenType, token: KnownToken): TokenCaller {
    if (token.type !== type) throw new ProxyError('TOKEN_WRONG_TYPE', 'wrong token type')
    const view = scopes.view(token)
    if (!view) {
      throw new ProxyError(
        'SCOPE_NOT_SERVED',
        `This proxy has no client token that can fetch the flags of environment "${token.environment}" (projects ${token.projects.join(', ')}): add one to TOKENS`,
      )
    }
    return { token, view }
  }

  // Secret → the caller it admitted, while the registry still knows that very token (a
  // revalidation that changes or revokes it makes a new object or none): the hot path is one
  // lookup. Keyed on the secret read from the header, never on the header itself: every spelling
  // of one token (`Bearer` and any padding) is one entry. Past the bound, callers are admitted
  // the long way.
  const admitted = new Map<string, TokenCaller>()
  // Only validated tokens get here: the upstream learns when each was last used (served-tokens.ts in @vexil/sync).
  const served = (caller: TokenCaller) => {
    caller.view.usage.served(caller.token.secret)
    return caller
  }
  let rememberedChars = 0

  return (type, header, event) => {
    const secret = readTokenSecret(header)
    if (secret === undefined) throw new ProxyError('TOKEN_REQUIRED', 'no token')
    const hit = admitted.get(secret)
    if (hit) {
      if (registry.known(secret) === hit.token) {
        if (hit.token.type !== type) throw new ProxyError('TOKEN_WRONG_TYPE', 'wrong token type')
        return served(hit)
      }
      // Changed or revoked upstream: admitted afresh below, or refused.
      admitted.delete(secret)
      rememberedChars -= secret.length
    }
    const remember = (caller: TokenCaller) => {
      if (!admitted.has(secret) && rememberedChars + secret.length <= MAX_REMEMBERED_CHARS) {
        admitted.set(secret, caller)
        rememberedChars += secret.length
      }
      return served(caller)
    }
    // A known token is answered without waiting (the hot path).
    const known = registry.known(secret)
    if (known) return remember(admit(type, known))
    return registry
      .resolve(
        secret,
        event && clientAddress ? callerKey(clientAddress(event)) : undefined,
        event && requestTrace && (() => requestTrace(event)),
      )
      .then((result) => {
        if (result === 'invalid') throw new ProxyError('TOKEN_REQUIRED', 'unknown token')
        if (result === 'unavailable') throw new ProxyError('TOKEN_UNVERIFIED', 'token not checked')
        return remember(admit(type, result))
      })
  }
}
