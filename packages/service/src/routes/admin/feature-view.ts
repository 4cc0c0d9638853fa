import type { Queryable } from '../../db/database.js'
import { childrenOf, parentsOf, toDependency } from '../../store/dependencies.js'
import { type FeatureRow, featureEnvironments, toFeature } from '../../store/features.js'
import { iso } from '../../store/rows.js'
import { listStrategies, toStrategy } from '../../store/strategies.js'
import { featureTags } from '../../store/tags.js'

/** Unleash's full featureSchema: the flag with each environment's state, strategies and variants. */
export async function featureView(q: Queryable, row: FeatureRow) {
  const [environments, strategies, parents, children, tags] = await Promise.all([
    featureEnvironments(q, row.name),
    listStrategies(q, row.name),
    parentsOf(q, row.name),
    childrenOf(q, row.name),
    featureTags(q, row.name),
  ])
  return {
    ...toFeature(row),
    environments: environments.map((environment) => ({
      name: environment.name,
      environment: environment.name,
      type: environment.type,
      enabled: environment.enabled,
      sortOrder: environment.sort_order,
      strategies: strategies.filter((strategy) => strategy.environment === environment.name).map(toStrategy),
      variants: environment.variants,
      lastSeenAt: iso(environment.last_seen_at),
    })),
    // Unleash's deprecated flag-level variants: those of the first environment.
    variants: environments[0]?.variants ?? [],
    dependencies: parents.map(toDependency),
    children,
    tags,
  }
}

/** The list form (Unleash's projectFeaturesSchema items): environments without strategies. */
export async function featureListView(q: Queryable, rows: FeatureRow[]) {
  return Promise.all(
    rows.map(async (row) => ({
      ...toFeature(row),
      environments: (await featureEnvironments(q, row.name)).map((environment) => ({
        name: environment.name,
        environment: environment.name,
        type: environment.type,
        enabled: environment.enabled,
        sortOrder: environment.sort_order,
      })),
    })),
  )
}
