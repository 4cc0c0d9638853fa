import type { Database, Queryable } from '../db/database.js'
import { type ClientFeatures, type ClientFeaturesQuery, loadClientFeatures } from './client-features.js'

type ClientFeature = ClientFeatures['features'][number]
type ClientSegment = ClientFeatures['segments'][number]

/** Unleash's delta events (reference/edge-and-frontend-api.md section 3.2), in the order a client applies them. */
export type DeltaEvent =
  | { type: 'hydration'; eventId: number; features: ClientFeature[]; segments: ClientSegment[] }
  | { type: 'feature-updated'; eventId: number; feature: ClientFeature }
  | { type: 'feature-removed'; eventId: number; featureName: string; project: string }
  | { type: 'segment-updated'; eventId: number; segment: ClientSegment }
  | { type: 'segment-removed'; eventId: number; segmentId: number }

export interface ClientDelta {
  /** The revision (store/revision.ts) the events bring a client to: every event's `eventId`. */
  revision: number
  /** Empty when the client is at `revision` already. */
  events: DeltaEvent[]
}

/** Past this many changed rows a hydration is smaller to compute and to send. */
const MAX_DELTA_ROWS = 1_000

/**
 * What a client of `query`'s scope at revision `since` needs to reach the current revision: the
 * current definition of every flag changed after `since` (or its removal), and of every changed
 * segment its flags use; a hydration (the whole scope) when `since` is unknown, older than the
 * recorded revisions (migration 010), newer than the database (another database), or when a
 * change (an environment or project removed, a flag deleted from the archive) cannot be pinned
 * to flags. Read on one snapshot, so the events and their revision agree.
 *
 * Events carry definitions as they are now, not as they were at each change: a client applying
 * them in order ends at exactly the scope's payload at `revision`, which is what it needs.
 */
export function readClientDelta(
  db: Database,
  query: ClientFeaturesQuery,
  since: number | undefined,
): Promise<ClientDelta> {
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY')
    const [row] = await tx.query<{ value: number; delta_floor: number }>('SELECT value, delta_floor FROM revision')
    const revision = row?.value ?? 0
    if (since === revision) return { revision, events: [] }
    if (since === undefined || since < (row?.delta_floor ?? 0) || since > revision)
      return hydration(tx, query, revision)
    const changes = await tx.query<ChangeRow>(
      `SELECT type, feature_name, project, environment, data, pre_data FROM events
       WHERE revision > $1 AND revision <= $2 AND (environment IS NULL OR environment = $3)
       ORDER BY revision LIMIT ${MAX_DELTA_ROWS + 1}`,
      [since, revision, query.environment],
    )
    const changed = classify(changes)
    if (changes.length > MAX_DELTA_ROWS || changed === 'hydrate') return hydration(tx, query, revision)
    return { revision, events: await deltaEvents(tx, query, revision, changed) }
  })
}

// --- Internal helpers ---

interface ChangeRow {
  type: string
  feature_name: string | null
  project: string | null
  environment: string | null
  data: { id?: unknown } | null
  pre_data: { id?: unknown } | null
}

interface Changed {
  /** Changed flags, each with the project its latest event names. */
  flags: Map<string, string | null>
  segments: Set<number>
}

/** Event types that never change what `/api/client/features` serves. */
const UNSERVED =
  /^(user|api-token|pat|signal-endpoint|signal-endpoint-token|actions)-|^(tag-created|tag-type-created|tag-type-updated|project-created|project-updated|default-strategy-updated|environment-created|segment-created)$/

/**
 * The flags and segments the event rows changed, or `'hydrate'` when one of them changes the
 * scope in a way no flag's event names (a project leaving the environment, a flag deleted from
 * the archive taking its dependants' links with it, a deleted tag or segment): rare, and a
 * hydration is then the one answer sure to be right.
 */
function classify(rows: ChangeRow[]): Changed | 'hydrate' {
  const changed: Changed = { flags: new Map(), segments: new Set() }
  for (const row of rows) {
    if (UNSERVED.test(row.type)) continue
    if (row.type === 'segment-updated') {
      const id = Number(row.data?.id ?? row.pre_data?.id)
      if (!Number.isInteger(id)) return 'hydrate'
      changed.segments.add(id)
    } else if (row.type.startsWith('feature-') && row.type !== 'feature-deleted' && row.feature_name) {
      changed.flags.set(row.feature_name, row.project)
    } else {
      return 'hydrate'
    }
  }
  return changed
}

async function hydration(tx: Queryable, query: ClientFeaturesQuery, revision: number): Promise<ClientDelta> {
  const { payload } = await loadClientFeatures(tx, query)
  return {
    revision,
    events: [{ type: 'hydration', eventId: revision, features: payload.features, segments: payload.segments }],
  }
}

async function deltaEvents(
  tx: Queryable,
  query: ClientFeaturesQuery,
  revision: number,
  changed: Changed,
): Promise<DeltaEvent[]> {
  // A changed segment matters to this scope only when one of its flags uses it: that takes the
  // whole scope, read once (segment edits are rare; their constraints stay out of other scopes).
  // Otherwise only the changed flags are read.
  const { payload } = await loadClientFeatures(
    tx,
    changed.segments.size > 0 ? query : { ...query, names: [...changed.flags.keys()] },
  )
  const features = payload.features.filter((feature) => changed.flags.has(feature.name))
  // Sent first: the changed segments the scope uses, and every segment an updated flag uses, in
  // case the client has not seen it (as Unleash does).
  const wanted = new Set(changed.segments)
  for (const feature of features)
    for (const strategy of feature.strategies) for (const id of strategy.segments ?? []) wanted.add(id)
  const events: DeltaEvent[] = payload.segments
    .filter((segment) => wanted.has(segment.id))
    .map((segment) => ({ type: 'segment-updated', eventId: revision, segment }))
  const present = new Set<string>()
  for (const feature of features) {
    present.add(feature.name)
    events.push({ type: 'feature-updated', eventId: revision, feature })
  }
  for (const [name, project] of changed.flags) {
    if (present.has(name) || !project || !inScope(query, name, project)) continue
    events.push({ type: 'feature-removed', eventId: revision, featureName: name, project })
  }
  return events
}

/**
 * Whether a flag of `project` named `name` could be in the scope: a removal is sent only then,
 * so a client learns no flag names from projects its token does not cover.
 */
function inScope(query: ClientFeaturesQuery, name: string, project: string): boolean {
  return (
    (!query.projects || query.projects.includes(project)) && (!query.namePrefix || name.startsWith(query.namePrefix))
  )
}
