// What the server-SDK routes send of a flag set, for one caller: the flags its token's scope and
// its `project`/`namePrefix` filters let it see, as the /api/client/features body, as a
// hydration, and as the delta events from one set to the next. Each is made once per flag set
// and filter, however many callers ask: a change streamed to a thousand SDKs is serialized once.
import { createHash } from 'node:crypto'
import type { ClientFeaturesPayload, StoredFeature, StoredSegment } from '@vexil/engine'
import type { Body } from '../http/respond.js'
import type { FlagSet } from '../scope/flag-set.js'
import { usedSegments } from '../scope/used-segments.js'
import type { KnownToken } from '../tokens/api-token.js'

/** What a caller sees of a flag set: its token's scope, narrowed by the query's filters. */
export interface ClientFilter {
  /** Equal for callers that see the same flags with the same `query` block. */
  readonly key: string
  readonly token: KnownToken
  /** The `project` filters, sorted and unique; empty: every project of the token. */
  readonly projects: readonly string[]
  readonly namePrefix: string | undefined
}

/** The caller's filter, from its token and the query string (without `?`). */
export function clientFilter(token: KnownToken, search: string): ClientFilter {
  const query = new URLSearchParams(search)
  const projects = [...new Set(query.getAll('project').filter((p) => p !== ''))].sort()
  const namePrefix = query.get('namePrefix') ?? undefined
  return {
    key: JSON.stringify([token.environment, token.projects, projects, namePrefix ?? null]),
    token,
    projects,
    namePrefix,
  }
}

/** A body with its strong ETag: the client API's ETags are strong, as Unleash's. */
export type TaggedBody = Body & { readonly etag: string }

export const strongEtag = (text: string) => `"${createHash('sha1').update(text).digest('base64url')}"`

/** A stream message's data (also a delta body), and the id a client sends back as Last-Event-ID. */
export interface StreamMessage extends Body {
  readonly id: string
}

// --- Per set and filter ---

interface Seen {
  /** Its key among the set's entries. */
  key: string
  /** Characters of the texts made (the body, the hydration), for the bound. */
  chars: number
  /** The payload's `version`, as the engine keeps it. */
  version: unknown
  /** The visible definitions by name, in payload order. */
  features: ReadonlyMap<string, StoredFeature>
  segments: readonly StoredSegment[]
  body?: TaggedBody
  hydration?: StreamMessage
  /** The message from this set to the newest later one asked for (only the newest is asked for). */
  delta?: { to: FlagSet; message: StreamMessage | undefined }
}

/**
 * Per flag set, per filter, in the order made. A filter is answered from the entry of what its
 * body depends on: the features it selects and the `namePrefix` it echoes, so filter values that
 * select the same features (`project=web&project=zzz1`, `...zzz2`) share one body and its
 * compressed forms, and a new spelling costs a scan of the flags, not a serialization
 * (bench: test/client-features-filters.test.ts). Bounded per set, as callers choose filters: at
 * most 64 entries and about 32 MB of texts; past either, the
 * oldest entries are dropped and made again when asked. Spellings seen are remembered, up to 256
 * of at most 1 KB each, to skip the scan.
 */
const seen = new WeakMap<FlagSet, { entries: Map<string, Seen>; spellings: Map<string, Seen> }>()
const MAX_FILTERS_PER_SET = 64
/** The most text characters kept per flag set; the newest entry is kept whatever its size. */
const MAX_CHARS_PER_SET = 32 * 1024 * 1024
const MAX_SPELLINGS_PER_SET = 256
const MAX_SPELLING_CHARS = 1024

function seenBy(flags: FlagSet, filter: ClientFilter): Seen {
  let forSet = seen.get(flags)
  if (!forSet) seen.set(flags, (forSet = { entries: new Map(), spellings: new Map() }))
  const spelled = forSet.spellings.get(filter.key)
  // A spelling's entry may have been dropped by the bound since: then it is looked up again.
  if (spelled && forSet.entries.get(spelled.key) === spelled) return spelled
  const state = flags.engine.getState() as ClientFeaturesPayload<StoredFeature, StoredSegment>
  const features = new Map<string, StoredFeature>()
  for (const feature of state.features) {
    if (
      filter.projects.length > 0 &&
      !(typeof feature.project === 'string' && filter.projects.includes(feature.project))
    )
      continue
    if (filter.namePrefix !== undefined && !feature.name.startsWith(filter.namePrefix)) continue
    features.set(feature.name, feature)
  }
  const key = selectionKey(filter, features, state.features.length)
  let entry = forSet.entries.get(key)
  if (!entry) {
    // Only the segments the caller's features use, as the service sends them (security review 2, finding 3).
    entry = {
      key,
      chars: 0,
      version: state.version ?? 2,
      features,
      segments: usedSegments(features.values(), state.segments ?? []),
    }
    forSet.entries.set(key, entry)
    trim(forSet.entries, entry)
  }
  if (filter.key.length <= MAX_SPELLING_CHARS) {
    if (forSet.spellings.size >= MAX_SPELLINGS_PER_SET)
      forSet.spellings.delete(forSet.spellings.keys().next().value as string)
    forSet.spellings.set(filter.key, entry)
  }
  return entry
}

/** What a body depends on: the token's scope (echoed in `query`), `namePrefix` (echoed too), and the features selected. */
function selectionKey(filter: ClientFilter, features: ReadonlyMap<string, StoredFeature>, total: number): string {
  const selected =
    features.size === total
      ? 'all'
      : createHash('sha1')
          .update([...features.keys()].join('\n'))
          .digest('base64url')
  return JSON.stringify([filter.token.environment, filter.token.projects, filter.namePrefix ?? null, selected])
}

/** Counts `text` against its set's bound, dropping the oldest other entries past it; returns `text`. */
function kept(flags: FlagSet, entry: Seen, text: string): string {
  entry.chars += text.length
  const forSet = seen.get(flags)
  if (forSet) trim(forSet.entries, entry)
  return text
}

function trim(forSet: Map<string, Seen>, newest: Seen): void {
  let chars = 0
  for (const entry of forSet.values()) chars += entry.chars
  for (const [key, entry] of forSet) {
    if (entry === newest || (forSet.size <= MAX_FILTERS_PER_SET && chars <= MAX_CHARS_PER_SET)) break
    forSet.delete(key)
    chars -= entry.chars
  }
}

/** `/api/client/features`: `{ version, features, segments, query }`, and its strong ETag. */
export function featuresBody(flags: FlagSet, filter: ClientFilter): TaggedBody {
  const entry = seenBy(flags, filter)
  if (entry.body) return entry.body
  const { token, namePrefix } = filter
  const payload = {
    version: entry.version,
    features: [...entry.features.values()],
    segments: entry.segments,
    query: {
      projects: token.projects,
      environment: token.environment,
      inlineSegmentConstraints: false,
      ...(namePrefix !== undefined ? { namePrefix } : {}),
    },
  }
  const text = kept(flags, entry, JSON.stringify(payload))
  entry.body = { text, etag: strongEtag(text) }
  return entry.body
}

/**
 * The id of the caller's view of `flags`: its features body's ETag, unquoted. It names the flags
 * themselves, not a counter, so it means the same in every worker and after a restart: a client
 * reconnecting with it anywhere is told it is current, and with any other id gets a hydration.
 */
export function viewId(flags: FlagSet, filter: ClientFilter): string {
  return featuresBody(flags, filter).etag.slice(1, -1)
}

/** `{"events":[{"type":"hydration",...}]}`: everything the caller sees of `flags`. */
export function hydrationMessage(flags: FlagSet, filter: ClientFilter): StreamMessage {
  const entry = seenBy(flags, filter)
  entry.hydration ??= {
    text: kept(
      flags,
      entry,
      JSON.stringify({
        events: [
          {
            type: 'hydration',
            eventId: flags.revision,
            features: [...entry.features.values()],
            segments: entry.segments,
          },
        ],
      }),
    ),
    id: viewId(flags, filter),
  }
  return entry.hydration
}

/**
 * The events that take a client holding `from` to `to`, as the caller sees them (undefined when
 * it sees no difference): segments updated first (a flag may use them), then flags updated and
 * removed, then segments removed (nothing uses them any more). Unchanged definitions are the
 * same objects when the upstream sent a delta, and compared as JSON when it sent everything.
 */
export function deltaMessage(from: FlagSet, to: FlagSet, filter: ClientFilter): StreamMessage | undefined {
  const before = seenBy(from, filter)
  // By the set itself: a view moved to another source publishes sets whose revisions restart.
  if (before.delta?.to === to) return before.delta.message
  const after = seenBy(to, filter)
  const eventId = to.revision
  const events: unknown[] = []
  const oldSegments = new Map(before.segments.map((segment) => [segment.id, segment]))
  const newSegmentIds = new Set<number>()
  for (const segment of after.segments) {
    newSegmentIds.add(segment.id)
    if (!same(oldSegments.get(segment.id), segment)) events.push({ type: 'segment-updated', eventId, segment })
  }
  for (const feature of after.features.values()) {
    if (!same(before.features.get(feature.name), feature)) events.push({ type: 'feature-updated', eventId, feature })
  }
  for (const feature of before.features.values()) {
    if (!after.features.has(feature.name))
      events.push({ type: 'feature-removed', eventId, featureName: feature.name, project: feature.project })
  }
  for (const id of oldSegments.keys())
    if (!newSegmentIds.has(id)) events.push({ type: 'segment-removed', eventId, segmentId: id })
  const message = events.length === 0 ? undefined : { text: JSON.stringify({ events }), id: viewId(to, filter) }
  before.delta = { to, message }
  return message
}

function same(a: unknown, b: unknown): boolean {
  return a === b || (a !== undefined && JSON.stringify(a) === JSON.stringify(b))
}
