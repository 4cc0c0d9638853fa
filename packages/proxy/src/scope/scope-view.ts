// A scope view (docs/architecture.md, "Proxy: many scopes"): what the requests of one scope are
// answered from, one object per scope for the life of the proxy (the token gate keeps it per
// caller). It is backed by a source covering the scope: the source's own sets when the scopes are
// equal, else a copy of each filtered to the view's projects. When the source goes (its token
// revoked and no other token of its scope to fetch with), the view is bound to another covering
// source, or to none: then it has no current set and its callers are answered 503 rather than
// the last flags, which would never again change.
import type { ClientFeaturesPayload, StoredFeature, StoredSegment } from '@vexil/engine'
import type { Logger } from '../logger.js'
import { scopeKey, type TokenScope } from '../tokens/api-token.js'
import type { UsageAggregator } from '@vexil/sync'
import type { FlagSet, FlagSetOptions } from './flag-set.js'
import { createScopeFlags, type PublishedFlags } from './scope-flags.js'
import { usedSegments } from './used-segments.js'

/** What a request with a token is answered from. */
export interface ScopeView {
  readonly key: string
  readonly scope: TokenScope
  readonly flags: PublishedFlags
  /** Where usage counts of callers of this scope go (sent upstream with the source's token). */
  readonly usage: UsageSink
}

/** What callers' counts go into: only flags of the caller's scope are counted. */
export type UsageSink = Pick<UsageAggregator, 'count' | 'merge' | 'register' | 'served'>

/** A scope whose flags come from the upstream: a token sync, or the static scope. */
export interface ScopeSource {
  readonly key: string
  readonly scope: TokenScope
  readonly flags: PublishedFlags
  /** The source's own aggregator: it counts only the source's flags. */
  readonly usage: UsageAggregator
}

export interface BoundView extends ScopeView {
  /** The source it is answered from now; undefined when none covers it. */
  readonly source: ScopeSource | undefined
  /** Backs the view with `source` (undefined: no flags, 503). */
  bind(source: ScopeSource | undefined): void
  close(): void
}

export function createScopeView(scope: TokenScope, options: FlagSetOptions & { logger: Logger }): BoundView {
  const key = scopeKey(scope)
  const listeners = new Set<(set: FlagSet) => void>()
  let source: ScopeSource | undefined
  let backing: PublishedFlags | undefined
  let unsubscribe: () => void = () => undefined
  let last: FlagSet | undefined

  const forward = (set: FlagSet) => {
    last = set
    for (const listener of listeners) listener(set)
  }

  const flags: PublishedFlags = {
    get current() {
      return backing?.current
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }

  // Counts go to whichever source serves the view now, for the view's own flags only: a source
  // counts any of its flags, and a token of one project must not count another's. A name the
  // source lacks too is an unknown flag, which the source counts within its bounds.
  const visible = (name: string) => flags.current?.countedVariants.has(name) === true
  const unknown = (name: string) => source?.flags.current?.countedVariants.has(name) !== true
  const usage: UsageSink = {
    count(name, enabled) {
      if (source && visible(name)) source.usage.count(name, enabled)
    },
    merge(toggles, app) {
      if (!source) return
      const own: typeof toggles = Object.create(null)
      for (const name of Object.keys(toggles)) if (visible(name) || unknown(name)) own[name] = toggles[name]!
      source.usage.merge(own, app)
    },
    register(registration, implied) {
      source?.usage.register(registration, implied)
    },
    served(secret) {
      source?.usage.served(secret)
    },
  }

  function bind(next: ScopeSource | undefined): void {
    if (next === source && next !== undefined) return
    unsubscribe()
    source = next
    if (!next) {
      backing = undefined
      unsubscribe = () => undefined
      return
    }
    if (next.key === key) {
      backing = next.flags
      unsubscribe = next.flags.subscribe(forward)
    } else {
      const copy = createScopeFlags({ ...options, storage: undefined, storageKey: '', announce: false })
      const project = (set: FlagSet) => {
        copy.offer({ payload: filterToProjects(set.engine.getState(), scope.projects), source: set.source })
      }
      if (next.flags.current) project(next.flags.current)
      const stopCopy = copy.subscribe(forward)
      const stopSource = next.flags.subscribe(project)
      backing = copy
      unsubscribe = () => {
        stopSource()
        stopCopy()
      }
    }
    // Streams following the view move to the new source's flags.
    const current = backing.current
    if (current && current !== last) forward(current)
  }

  return {
    key,
    scope,
    flags,
    usage,
    get source() {
      return source
    },
    bind,
    close: () => unsubscribe(),
  }
}

/**
 * The payload with only the features of `projects` (all for `*`) and the segments they use; a
 * feature without a project is left out, as Edge does.
 */
function filterToProjects(
  payload: ClientFeaturesPayload<StoredFeature, StoredSegment>,
  projects: readonly string[],
): ClientFeaturesPayload {
  if (projects[0] === '*') return payload
  const wanted = new Set(projects)
  const features = payload.features.filter(
    (feature) => typeof feature.project === 'string' && wanted.has(feature.project),
  )
  return { ...payload, features, segments: usedSegments(features, payload.segments ?? []) }
}
