// Offline mode's token gate: the gate every token route has, refusing as Edge's offline mode
// does (its token extractor and validate_token middleware): no token, a token not listed and a
// token of the other type are all 403 with an empty body (docs/edge-compatibility.md, "Offline mode").
import { ProxyError } from '../http/errors.js'
import type { TokenGate } from './token-gate.js'

export function offlineTokenGate(gate: TokenGate): TokenGate {
  return (type, header, event) => {
    try {
      const caller = gate(type, header, event)
      return caller instanceof Promise ? caller.catch(asEdge) : caller
    } catch (error) {
      return asEdge(error)
    }
  }
}

function asEdge(error: unknown): never {
  if (error instanceof ProxyError && (error.code === 'TOKEN_REQUIRED' || error.code === 'TOKEN_WRONG_TYPE'))
    throw new ProxyError('EDGE_FORBIDDEN', error.message)
  throw error
}
