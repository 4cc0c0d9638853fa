// One flag payload, compiled, with everything the routes derive from it: the unit a scope
// publishes (docs/architecture.md, "Proxy: many scopes"). A flag set is never changed after it is made: a new
// payload makes a new set, so a request that read one set answers wholly from it, and nothing
// built from an old payload (fragments, cached answers, the server-side body) can outlive it.
import type { ClientFeaturesPayload, Engine, EngineWarning, StoredFeature, StoredSegment } from '@vexil/engine'
import type { ResponseCache, ResponseCaches } from '../cache/response-cache.js'
import { createToggleSerializer, type ToggleSerializer } from '../bodies/serialize.js'
import { weakEtag } from '../http/etag.js'
import { type KnownFlags, knownFlags } from '@vexil/sync'

/** Where a payload came from (docs/old-proxy-compatibility.md 5.1, 5.4, 6.1, 6.3). */
export type PayloadSource = 'upstream' | 'bootstrap' | 'backup'

export interface FlagSet {
  readonly source: PayloadSource
  /** 1 for the first set a scope publishes, one more for each later one. */
  readonly revision: number
  /** The upstream's ETag of the payload (the next poll's If-None-Match); undefined for a bootstrap or backup. */
  readonly etag: string | undefined
  /** Epoch ms when the set was made. */
  readonly loadedAt: number
  /** Compiled from this payload only, and never loaded again. */
  readonly engine: Engine
  /**
   * The engine Unleash 8.2's frontend API evaluates with: only the flags enabled in the
   * environment, so a dependency on a disabled parent fails even when it asks for the parent to be
   * disabled (Unleash's frontend cache holds enabled flags only). The same engine when no flag
   * depends on a disabled one; made on first use.
   */
  readonly frontendEngine: Engine
  /** `/proxy` bodies; its fragments are this payload's toggles. */
  readonly serializer: ToggleSerializer
  /** Flags whose definition has an `impressionData` key (the old proxy omits it otherwise). */
  readonly impressionData: ReadonlySet<string>
  /** Flag name → the variant names usage metrics may count for it. */
  readonly countedVariants: KnownFlags
  /** `GET /proxy/client/features`: the definitions verbatim, with segments, and its ETag (made on first use). */
  readonly serverSide: { readonly body: string; readonly etag: string }
  /** Answers to repeated evaluation requests on this payload (its part of the process's cache); undefined when caching is off. */
  readonly responseCache: ResponseCache | undefined
  /** What the engine said while compiling (flags that did not compile, literals that never match). */
  readonly warnings: readonly EngineWarning[]
}

interface FlagSetInput {
  payload: unknown
  source: PayloadSource
  etag?: string
  revision: number
  loadedAt: number
  /** The set a delta payload (`{ events }`) applies to; a full payload needs none. */
  base?: FlagSet
}

export interface FlagSetOptions {
  /** A fresh engine, with the scope's custom strategies and hostname. */
  newEngine: () => Engine
  /** The process's response cache, which each set takes its part of; undefined for none (caching off, or a process that serves no evaluation). */
  responseCaches: ResponseCaches | undefined
}

/** Compiles `input.payload` into a new, frozen flag set; `input.base` is only read. */
export function createFlagSet(input: FlagSetInput, options: FlagSetOptions): FlagSet {
  // A delta names only what changed: start from a fork of the base's engine, which compiles only
  // the flags the delta touches (the others' warnings were reported with the base).
  const engine = input.base && isDelta(input.payload) ? input.base.engine.fork() : options.newEngine()
  const warnings = engine.load(input.payload)
  const state: ClientFeaturesPayload<StoredFeature, StoredSegment> = engine.getState()
  const impressionData: ReadonlySet<string> = new Set(
    state.features.filter((f) => Object.hasOwn(f, 'impressionData')).map((f) => f.name),
  )
  let serverSide: FlagSet['serverSide'] | undefined
  let frontendEngine: Engine | undefined
  return Object.freeze({
    source: input.source,
    revision: input.revision,
    etag: input.etag,
    loadedAt: input.loadedAt,
    engine,
    get frontendEngine() {
      frontendEngine ??= enabledOnly(state, engine, options.newEngine)
      return frontendEngine
    },
    serializer: createToggleSerializer((name) => impressionData.has(name)),
    impressionData,
    countedVariants: knownFlags(state),
    // Most proxies have no server-side SDK token: the body is made on the first request for it.
    get serverSide() {
      if (!serverSide) {
        const body = JSON.stringify(state)
        serverSide = Object.freeze({ body, etag: weakEtag(body) })
      }
      return serverSide
    },
    responseCache: options.responseCaches?.forFlagSet(),
    warnings: Object.freeze(warnings),
  })
}

function enabledOnly(
  state: ClientFeaturesPayload<StoredFeature, StoredSegment>,
  engine: Engine,
  newEngine: () => Engine,
): Engine {
  const disabled = new Set(state.features.filter((f) => f.enabled !== true).map((f) => f.name))
  const dependsOnDisabled = state.features.some(
    (f) =>
      f.enabled === true &&
      Array.isArray(f.dependencies) &&
      f.dependencies.some(
        (d) => d !== null && typeof d === 'object' && disabled.has((d as { feature?: unknown }).feature as string),
      ),
  )
  if (!dependsOnDisabled) return engine
  const enabled = newEngine()
  enabled.load({ ...state, features: state.features.filter((f) => f.enabled === true) })
  return enabled
}

/** The engine's rule: a payload with an `events` array is a delta. */
function isDelta(payload: unknown): boolean {
  return payload !== null && typeof payload === 'object' && Array.isArray((payload as { events?: unknown }).events)
}

/** A log line for an engine warning: the flag (or the payload), what is wrong, the code. */
export function warningLine(warning: EngineWarning): string {
  return `${warning.flag === undefined ? '' : `flag "${warning.flag}": `}${warning.message} [${warning.code}]`
}
