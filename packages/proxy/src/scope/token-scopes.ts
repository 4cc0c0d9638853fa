// The proxy's token scopes (docs/architecture.md, "Proxy: many scopes"): for any token, the flags
// it may see and where its usage counts go. Flags come from sources: one upstream sync per client
// token whose scope no other source covers (and the static scope, once the upstream said what its
// token's scope is). Each scope asked for has one view (scope-view.ts), backed by the covering
// source with the fewest projects. So any number of tokens costs one upstream sync per covering
// scope, not per token.
//
// A sync fetches with one client token. When that token goes (revoked or changed upstream, or the
// upstream refuses the sync's fetch), the sync moves to another known client token of the same
// scope at once; without one it ends, the scopes it served are bound to another covering source
// (a known client token that covers them gets a sync), and a scope nothing covers is no longer
// served (503, not ready) rather than answered from flags that would never change again.
import type { Logger } from '../logger.js'
import { covers, type KnownToken, scopeKey, type TokenScope } from '../tokens/api-token.js'
import type { FlagSetOptions } from './flag-set.js'
import { type BoundView, createScopeView, type ScopeSource, type ScopeView } from './scope-view.js'
import { scopeName, type TokenSync } from './token-sync.js'

export type { ScopeView, UsageSink } from './scope-view.js'

interface TokenScopesOptions extends FlagSetOptions {
  logger: Logger
  /** Makes (and starts) the sync for a client token no source covers. */
  createSync: (token: KnownToken) => TokenSync
  /** The tokens known now (the registry's): the ones a sync may move to. Default: none. */
  known?: () => readonly KnownToken[]
  /** A sync ended (no token left to fetch its scope with): the cluster's primary tells its workers. */
  onSyncEnd?: (sync: TokenSync) => void
  /** How long a token whose fetch the upstream refused is not used for a sync (ms). */
  refusedMs?: number
  /** A cluster worker: syncs are made only when the primary made one (`learn`), whatever covers them here. */
  follows?: boolean
}

export interface TokenScopes {
  /** The static scope as a source (undefined: it serves no token caller). */
  setStaticSource(source: ScopeSource | undefined): void
  /** A client token is known: a source must cover its scope (a sync is made when none does). */
  learn(token: KnownToken): void
  /** A token went or changed upstream: the syncs fetching with it move to another token of their scope, or end. */
  forget(secret: string): void
  /** The upstream refused `sync`'s fetch (401/403): as `forget`, and its token is not used again for `refusedMs`. */
  refused(sync: TokenSync): void
  /** Ends the sync with this key (a cluster worker, when its primary's ended). */
  endSync(key: string): void
  /** The view a token is answered from; undefined while no source covers its scope (a frontend token without a client token). */
  view(token: KnownToken): ScopeView | undefined
  readonly syncs: readonly TokenSync[]
  /** Scopes that were served, still have a known token, and no longer have a source: not ready. */
  readonly unserved: readonly TokenScope[]
  close(): Promise<void>
}

/** A token whose fetch was refused is tried again after this long by default (ms). */
const DEFAULT_REFUSED_MS = 60_000

export function createTokenScopes(options: TokenScopesOptions): TokenScopes {
  const { logger } = options
  const known = options.known ?? (() => [])
  const refusedMs = options.refusedMs ?? DEFAULT_REFUSED_MS
  let staticSource: ScopeSource | undefined
  const syncs: TokenSync[] = []
  const sourceOf = new Map<TokenSync, ScopeSource>()
  const views = new Map<string, BoundView>()
  /** Secret → until when it is not used for a sync. */
  const refusedUntil = new Map<string, number>()
  const retries = new Set<NodeJS.Timeout>()
  let closed = false

  const sources = (): ScopeSource[] => [
    ...(staticSource ? [staticSource] : []),
    ...syncs.map((sync) => sourceOf.get(sync)!),
  ]
  const usable = (token: KnownToken) => token.type === 'client' && (refusedUntil.get(token.secret) ?? 0) <= Date.now()

  /** The source covering `scope` with the fewest projects (the least to filter). */
  function coveringSource(scope: TokenScope): ScopeSource | undefined {
    let best: ScopeSource | undefined
    for (const source of sources()) {
      if (!covers(source.scope, scope)) continue
      if (!best || breadth(source.scope) < breadth(best.scope)) best = source
    }
    return best
  }

  function addSync(token: KnownToken): void {
    const sync = options.createSync(token)
    syncs.push(sync)
    sourceOf.set(sync, { key: sync.key, scope: sync.scope, flags: sync.flags, usage: sync.usage })
    logger.info(`Syncing flags for ${scopeName(token)}`)
  }

  function endSync(sync: TokenSync, why: string): void {
    const at = syncs.indexOf(sync)
    if (at === -1) return
    syncs.splice(at, 1)
    sourceOf.delete(sync)
    void sync.close()
    logger.warn(`Stopped syncing flags for ${scopeName(sync.scope)}: ${why}`)
    options.onSyncEnd?.(sync)
  }

  /** Every known client token has a covering source, then every view the best source left for it. */
  function settle(): void {
    if (closed) return
    if (!options.follows) for (const token of known()) if (usable(token) && !coveringSource(token)) addSync(token)
    rebind()
  }

  /** Views whose source went are bound to the best covering source left, or to none (503). */
  function rebind(): void {
    const current = new Set(sources())
    for (const view of views.values()) {
      if (view.source && current.has(view.source)) continue
      const next = coveringSource(view.scope)
      if (!next && view.source)
        logger.error(
          `No valid client token can fetch the flags of ${scopeName(view.scope)} any more: they are not served (503) until one is known`,
        )
      else if (next && !view.source) logger.info(`The flags of ${scopeName(view.scope)} are served again`)
      view.bind(next)
    }
  }

  function learn(token: KnownToken): void {
    if (closed || !usable(token)) return
    if (options.follows ? syncs.some((sync) => sync.key === scopeKey(token)) : coveringSource(token)) return
    addSync(token)
    rebind()
  }

  function forget(secret: string): void {
    const affected = syncs.filter((s) => s.token.secret === secret)
    if (affected.length === 0) return
    for (const sync of affected) {
      const next = known().find((token) => token.secret !== secret && usable(token) && scopeKey(token) === sync.key)
      if (next) {
        sync.rehome(next)
        logger.info(
          `The token the flags of ${scopeName(sync.scope)} were fetched with is no longer valid; they are fetched with another token of that scope`,
        )
      } else {
        endSync(
          sync,
          'the token it fetched with is no longer valid upstream and no other client token of that scope is known',
        )
      }
    }
    settle()
  }

  return {
    setStaticSource(source) {
      staticSource = source
      settle()
    },
    learn,
    forget,
    refused(sync) {
      const secret = sync.token.secret
      refusedUntil.set(secret, Date.now() + refusedMs)
      // Tried again once the time is up (the registry forgets it meanwhile if it was revoked).
      const retry = setTimeout(() => {
        retries.delete(retry)
        refusedUntil.delete(secret)
        settle()
      }, refusedMs)
      retry.unref()
      retries.add(retry)
      forget(secret)
    },
    endSync(key) {
      for (const sync of syncs.filter((s) => s.key === key)) endSync(sync, 'the primary stopped it')
      settle()
    },
    view(token) {
      const key = scopeKey(token)
      const known = views.get(key)
      if (known) return known
      const source = coveringSource(token)
      if (!source) return undefined
      const view = createScopeView({ environment: token.environment, projects: token.projects }, options)
      view.bind(source)
      views.set(key, view)
      return view
    },
    get syncs() {
      return syncs
    },
    get unserved() {
      const unbound = [...views.values()].filter((view) => !view.source)
      if (unbound.length === 0) return []
      const keys = new Set(known().map((token) => scopeKey(token)))
      return unbound.filter((view) => keys.has(view.key)).map((view) => view.scope)
    },
    async close() {
      closed = true
      for (const retry of retries) clearTimeout(retry)
      for (const view of views.values()) view.close()
      await Promise.all(syncs.map((sync) => sync.close()))
    },
  }
}

// --- Internal helpers ---

const breadth = (scope: TokenScope) => (scope.projects[0] === '*' ? Number.POSITIVE_INFINITY : scope.projects.length)
