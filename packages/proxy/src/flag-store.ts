// The proxy's current flags: the engine, where they came from, and what is derived from each
// payload once (the server-side features body and its ETag, which flags carry impressionData,
// which flags and variants usage metrics may count).
import type { ClientFeaturesPayload, Engine } from '@vexil/engine'
import { weakEtag } from './http/etag.js'
import { type KnownFlags, knownFlags } from './usage/known-flags.js'

export type ReadySource = 'upstream' | 'bootstrap' | 'backup'

export interface FlagStore {
  readonly engine: Engine
  /** Changes with every load: caches built from one payload compare it. */
  readonly generation: number
  readonly ready: boolean
  readonly readySource: ReadySource | undefined
  /** Epoch ms of the last payload that changed something, and of the last successful fetch (200 or 304). */
  lastUpdate: number
  lastFetch: number
  /** Loads a payload; returns the engine's warnings. */
  load(payload: unknown, source: ReadySource): string[]
  /** The variant names usage metrics count for flag `name`; undefined for a flag the payload does not have. */
  countedVariants(name: string): ReadonlySet<string> | undefined
  /** Whether the definition of `name` has an `impressionData` key (the old proxy omits it otherwise). */
  hasImpressionData(name: string): boolean
  /** `GET /proxy/client/features`: the definitions verbatim, with segments, and its ETag. */
  serverSidePayload(): { body: string; etag: string }
  /** Calls `listener` after every load (caches derived from the old payload drop it). */
  onLoad(listener: () => void): void
}

export function createFlagStore(engine: Engine): FlagStore {
  let generation = 0
  let ready = false
  let readySource: ReadySource | undefined
  let withImpressionData = new Set<string>()
  let known: KnownFlags = new Map()
  let serverSide: { body: string; etag: string } | undefined
  const listeners: Array<() => void> = []

  return {
    engine,
    get generation() {
      return generation
    },
    get ready() {
      return ready
    },
    get readySource() {
      return readySource
    },
    lastUpdate: 0,
    lastFetch: 0,
    load(payload, source) {
      const warnings = engine.load(payload)
      const state: ClientFeaturesPayload = engine.getState()
      withImpressionData = new Set(state.features.filter((f) => Object.prototype.hasOwnProperty.call(f, 'impressionData')).map((f) => f.name))
      known = knownFlags(state)
      serverSide = undefined
      generation++
      if (!ready) {
        ready = true
        readySource = source
      }
      this.lastUpdate = Date.now()
      for (const listener of listeners) listener()
      return warnings
    },
    onLoad: (listener) => {
      listeners.push(listener)
    },
    countedVariants: (name) => known.get(name),
    hasImpressionData: (name) => withImpressionData.has(name),
    serverSidePayload() {
      if (!serverSide) {
        const body = JSON.stringify(engine.getState())
        serverSide = { body, etag: weakEtag(body) }
      }
      return serverSide
    },
  }
}
