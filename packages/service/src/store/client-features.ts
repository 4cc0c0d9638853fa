import type { Database, Queryable } from '../db/database.js'
import type { Tag } from './tags.js'

export interface ClientFeaturesQuery {
  environment: string
  /** Projects the caller may see and asked for; `undefined` means all. */
  projects?: string[]
  namePrefix?: string
  /** A flag is included when it has any of these tags. */
  tags?: Tag[]
  /** Only these flags (the ones a delta says changed). */
  names?: string[]
}

interface FeatureRow {
  name: string
  type: string
  description: string | null
  project: string
  enabled: boolean
  stale: boolean
  impression_data: boolean
  variants: unknown[]
}

interface StrategyRow {
  id: string
  feature_name: string
  strategy_name: string
  parameters: Record<string, string>
  constraints: unknown[]
  variants: unknown[]
  sort_order: number
  segments: number[]
}

/** A query's key: the same scope and filters, in the same order, give the same answer (caches, stream groups). */
export function scopeKey(query: ClientFeaturesQuery): string {
  return JSON.stringify([
    query.environment,
    query.projects ?? null,
    query.namePrefix ?? null,
    query.tags?.map((tag) => [tag.type, tag.value]) ?? null,
  ])
}

/** The `/api/client/features` payload (built by `readClientFeatures`). */
export type ClientFeatures = Awaited<ReturnType<typeof loadClientFeatures>>['payload']

/** A payload and the revision (store/revision.ts) of the snapshot it was read from. */
interface ClientFeaturesSnapshot {
  revision: number
  payload: ClientFeatures
}

/**
 * The `/api/client/features` payload for one environment, as Unleash returns it to SDKs that
 * support segments: strategies in sortOrder, disabled strategies left out, segments referenced by
 * id and listed once at the top level. Its five queries read one snapshot (a read-only,
 * repeatable-read transaction): run one by one, a change committed between them gave an answer
 * mixing two states under one ETag and one `meta.revisionId`.
 */
export async function readClientFeatures(db: Database, query: ClientFeaturesQuery): Promise<ClientFeatures> {
  return (await readClientFeaturesSnapshot(db, query)).payload
}

/** `readClientFeatures` with the revision its snapshot is at: the payload is that revision's. */
export function readClientFeaturesSnapshot(db: Database, query: ClientFeaturesQuery): Promise<ClientFeaturesSnapshot> {
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY')
    return loadClientFeatures(tx, query)
  })
}

/** `readClientFeaturesSnapshot`'s queries, on a snapshot the caller provides (store/client-delta.ts). */
export async function loadClientFeatures(q: Queryable, query: ClientFeaturesQuery) {
  // meta.revisionId stays Unleash's: the latest event's id.
  const [revision] = await q.query<{ revision: number; id: number | null }>(
    'SELECT (SELECT value FROM revision) AS revision, (SELECT max(id) FROM events) AS id',
  )
  const tagTypes = query.tags?.map((tag) => tag.type) ?? null
  const tagValues = query.tags?.map((tag) => tag.value) ?? null
  const features = await q.query<FeatureRow>(
    `SELECT f.name, f.type, f.description, f.project, f.stale, f.impression_data,
        COALESCE(fe.enabled, false) AS enabled, COALESCE(fe.variants, '[]'::jsonb) AS variants
     FROM features f
     JOIN project_environments pe ON pe.project_id = f.project AND pe.environment_name = $1
     LEFT JOIN feature_environments fe ON fe.feature_name = f.name AND fe.environment = $1
     WHERE f.archived_at IS NULL
       AND ($2::text[] IS NULL OR f.project = ANY($2::text[]))
       AND ($3::text IS NULL OR starts_with(f.name, $3::text))
       AND ($4::text[] IS NULL OR EXISTS (
         SELECT 1 FROM feature_tag ft JOIN unnest($4::text[], $5::text[]) AS t(type, value)
           ON ft.tag_type = t.type AND ft.tag_value = t.value
         WHERE ft.feature_name = f.name))
       AND ($6::text[] IS NULL OR f.name = ANY($6::text[]))
     ORDER BY f.name`,
    [query.environment, query.projects ?? null, query.namePrefix ?? null, tagTypes, tagValues, query.names ?? null],
  )
  const names = features.map((feature) => feature.name)
  const strategies = await q.query<StrategyRow>(
    `SELECT s.id, s.feature_name, s.strategy_name, s.parameters, s.constraints, s.variants, s.sort_order,
        COALESCE((SELECT array_agg(fss.segment_id ORDER BY fss.segment_id) FROM feature_strategy_segment fss WHERE fss.feature_strategy_id = s.id), '{}') AS segments
     FROM feature_strategies s
     WHERE s.environment = $1 AND s.feature_name = ANY($2::text[]) AND NOT s.disabled
     ORDER BY s.sort_order, s.created_at, s.id`,
    [query.environment, names],
  )
  const dependencies = await q.query<{ child: string; parent: string; enabled: boolean; variants: string[] }>(
    'SELECT child, parent, enabled, variants FROM dependent_features WHERE child = ANY($1::text[]) ORDER BY parent',
    [names],
  )
  const segmentIds = [...new Set(strategies.flatMap((strategy) => strategy.segments))]
  const segments = await q.query<{ id: number; name: string; constraints: unknown[] }>(
    'SELECT id, name, constraints FROM segments WHERE id = ANY($1::int[]) ORDER BY id',
    [segmentIds],
  )

  const byFeature = groupBy(strategies, (strategy) => strategy.feature_name)
  const parents = groupBy(dependencies, (dependency) => dependency.child)
  const payload = {
    version: 2,
    features: features.map((feature) => ({
      name: feature.name,
      type: feature.type,
      description: feature.description,
      project: feature.project,
      enabled: feature.enabled,
      stale: feature.stale,
      impressionData: feature.impression_data,
      strategies: (byFeature.get(feature.name) ?? []).map((strategy) => ({
        name: strategy.strategy_name,
        constraints: strategy.constraints,
        parameters: withGroupId(strategy.strategy_name, strategy.parameters, feature.name),
        ...(strategy.segments.length > 0 ? { segments: strategy.segments } : {}),
        variants: strategy.variants,
        sortOrder: strategy.sort_order,
      })),
      variants: feature.variants,
      ...(parents.has(feature.name)
        ? {
            dependencies: (parents.get(feature.name) ?? []).map((dependency) => ({
              feature: dependency.parent,
              enabled: dependency.enabled,
              ...(dependency.variants.length > 0 ? { variants: dependency.variants } : {}),
            })),
          }
        : {}),
    })),
    segments,
    query: {
      environment: query.environment,
      inlineSegmentConstraints: false,
      ...(query.projects ? { project: query.projects } : {}),
      ...(query.namePrefix ? { namePrefix: query.namePrefix } : {}),
      ...(query.tags ? { tag: query.tags.map((tag) => [`${tag.type}:${tag.value}`]) } : {}),
    },
    meta: { revisionId: revision?.id ?? 0 },
  }
  return { revision: revision?.revision ?? 0, payload }
}

// --- Internal helpers ---

/** Unleash fills a flexibleRollout's missing groupId with the flag name. */
function withGroupId(strategy: string, parameters: Record<string, string>, feature: string): Record<string, string> {
  if (strategy !== 'flexibleRollout' || parameters.groupId) return parameters
  return { ...parameters, groupId: feature }
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const item of items) {
    const list = groups.get(key(item))
    if (list) list.push(item)
    else groups.set(key(item), [item])
  }
  return groups
}
