// The proxy's token scopes (docs/architecture.md, "Proxy: many scopes"): for any token, the flags
// it may see and where its usage counts go. Flags come from sources: one upstream sync per client
// token whose scope no other source covers (and the static scope, when its token's scope is
// known). A token whose scope is a source's is served from that source; a narrower one (fewer
// projects, same environment) from a view that keeps the source's payload filtered to its
// projects. So any number of tokens costs one upstream sync per covering scope, not per token.
import type { ClientFeaturesPayload } from '@vexil/engine'
import type { Logger } from '../logger.js'
import { covers, type KnownToken, scopeKey, type TokenScope } from '../tokens/api-token.js'
import type { UsageAggregator } from '../usage/aggregator.js'
import type { FlagSet, FlagSetOptions } from './flag-set.js'
import { createScopeFlags, type CurrentFlags, type PublishedFlags } from './scope-flags.js'
import type { TokenSync } from './token-sync.js'

/** What a request with a token is answered from. */
export interface ScopeView {
  readonly key: string
  readonly scope: TokenScope
  readonly flags: PublishedFlags
  /** Where usage counts of callers of this scope go (sent upstream with the source's token). */
  readonly usage: UsageSink
}

/** What callers' counts go into: only flags of the caller's scope are counted. */
export type UsageSink = Pick<UsageAggregator, 'count' | 'merge'>

/** A scope whose flags come from the upstream: a token sync, or the static scope. */
export interface ScopeSource extends ScopeView {
  /** The source's own aggregator: it counts only the source's flags. */
  readonly usage: UsageAggregator
}

export interface TokenScopesOptions extends FlagSetOptions {
  logger: Logger
  /** Makes (and starts) the sync for a client token no source covers. */
  createSync: (token: KnownToken) => TokenSync
}

export interface TokenScopes {
  /** A source made elsewhere (the static scope), used like a sync. */
  addSource(source: ScopeSource): void
  /** A client token is known: a source must cover its scope (a sync is made when none does). */
  learn(token: KnownToken): void
  /** The view a token is answered from; undefined while no source covers its scope (a frontend token without a client token). */
  view(token: KnownToken): ScopeView | undefined
  readonly syncs: readonly TokenSync[]
  close(): Promise<void>
}

export function createTokenScopes(options: TokenScopesOptions): TokenScopes {
  const sources: ScopeSource[] = []
  const syncs: TokenSync[] = []
  const views = new Map<string, ScopeView>()
  const unsubscribes: Array<() => void> = []

  /** The source covering `scope` with the fewest projects (the least to filter). */
  function coveringSource(scope: TokenScope): ScopeSource | undefined {
    let best: ScopeSource | undefined
    for (const source of sources) {
      if (!covers(source.scope, scope)) continue
      if (!best || breadth(source.scope) < breadth(best.scope)) best = source
    }
    return best
  }

  function addSource(source: ScopeSource): void {
    sources.push(source)
    if (!views.has(source.key)) views.set(source.key, source)
  }

  function derive(scope: TokenScope, source: ScopeSource): ScopeView {
    const flags = createScopeFlags({ ...options, storage: undefined, storageKey: '', announce: false })
    const project = (set: FlagSet) => {
      flags.offer({ payload: filterToProjects(set.engine.getState(), scope.projects), source: set.source })
    }
    if (source.flags.current) project(source.flags.current)
    unsubscribes.push(source.flags.subscribe(project))
    return { key: scopeKey(scope), scope, flags, usage: narrowUsage(source.usage, flags) }
  }

  return {
    addSource,
    learn(token) {
      if (token.type !== 'client' || coveringSource(token)) return
      const sync = options.createSync(token)
      syncs.push(sync)
      addSource({ key: sync.key, scope: sync.scope, flags: sync.flags, usage: sync.usage })
      options.logger.info(`Syncing flags for environment "${token.environment}", projects ${token.projects.join(', ')}`)
    },
    view(token) {
      const key = scopeKey(token)
      const known = views.get(key)
      if (known) return known
      const source = coveringSource(token)
      if (!source) return undefined
      const view = derive({ environment: token.environment, projects: token.projects }, source)
      views.set(key, view)
      return view
    },
    get syncs() {
      return syncs
    },
    async close() {
      for (const unsubscribe of unsubscribes) unsubscribe()
      await Promise.all(syncs.map((sync) => sync.close()))
    },
  }
}

// --- Internal helpers ---

/**
 * A narrower view's counts go into its source's aggregator, but only for the view's own flags:
 * the source counts any of its flags, and a token of one project must not count another's.
 */
function narrowUsage(usage: UsageAggregator, flags: CurrentFlags): UsageSink {
  const visible = (name: string) => flags.current?.countedVariants.has(name) === true
  return {
    count: (name, enabled) => {
      if (visible(name)) usage.count(name, enabled)
    },
    merge: (toggles) => {
      const own: typeof toggles = Object.create(null)
      for (const name of Object.keys(toggles)) if (visible(name)) own[name] = toggles[name]!
      usage.merge(own)
    },
  }
}

const breadth = (scope: TokenScope) => (scope.projects[0] === '*' ? Number.POSITIVE_INFINITY : scope.projects.length)

/** The payload with only the features of `projects` (all for `*`); a feature without a project is left out, as Edge does. */
function filterToProjects(payload: ClientFeaturesPayload, projects: readonly string[]): ClientFeaturesPayload {
  if (projects[0] === '*') return payload
  const wanted = new Set(projects)
  return { ...payload, features: payload.features.filter((feature) => typeof feature.project === 'string' && wanted.has(feature.project)) }
}
