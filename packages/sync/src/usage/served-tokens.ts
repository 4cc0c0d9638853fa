// The API tokens a proxy served since its last report, sent upstream with its metrics so the
// upstream can show when each was last used (docs/admin-ui.md, "Tokens"). Each goes as the
// SHA-256 hex of its secret: the form the Vexil service indexes its tokens by, and one an access
// log or a metrics store can keep without keeping anything that authenticates. Only tokens the
// upstream validated are offered (the caller's gate admits no others), and at most
// MAX_SERVED_TOKENS per report, so a flood of made-up tokens never reaches this list.
import { createHash } from 'node:crypto'

export const MAX_SERVED_TOKENS = 1_000

export interface ServedTokens {
  /** A validated token's secret served a request. */
  add(secret: string): void
  /** Hashes of a report that failed to send, for the next one. */
  restore(hashes: readonly string[]): void
  readonly size: number
  /** The hashes so far, sorted; the list starts afresh. */
  take(): string[]
}

export function createServedTokens(): ServedTokens {
  let secrets = new Set<string>()
  let hashes = new Set<string>()
  const full = () => secrets.size + hashes.size >= MAX_SERVED_TOKENS
  return {
    add(secret) {
      if (!secrets.has(secret) && !full()) secrets.add(secret)
    },
    restore(restored) {
      for (const hash of restored) if (!full()) hashes.add(hash)
    },
    get size() {
      return secrets.size + hashes.size
    },
    take() {
      for (const secret of secrets) hashes.add(tokenHash(secret))
      const taken = [...hashes].sort()
      secrets = new Set()
      hashes = new Set()
      return taken
    },
  }
}

/** SHA-256 hex of a token's secret, as the Vexil service stores it. */
export function tokenHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex')
}
