import type { Queryable } from '../db/database.js'

interface DependencyRow {
  parent: string
  child: string
  enabled: boolean
  variants: string[]
}

/** Unleash's dependency shape: `{ feature, enabled, variants? }` (variants only when set). */
export function toDependency(row: DependencyRow) {
  return {
    feature: row.parent,
    enabled: row.enabled,
    ...(row.variants.length > 0 ? { variants: row.variants } : {}),
  }
}

export function parentsOf(q: Queryable, child: string): Promise<DependencyRow[]> {
  return q.query<DependencyRow>('SELECT * FROM dependent_features WHERE child = $1 ORDER BY parent', [child])
}

export async function childrenOf(q: Queryable, parent: string): Promise<string[]> {
  const rows = await q.query<{ child: string }>(
    'SELECT child FROM dependent_features WHERE parent = $1 ORDER BY child',
    [parent],
  )
  return rows.map((row) => row.child)
}

/** Unleash supports one parent per child: adding a dependency replaces the previous one. */
export async function setDependency(q: Queryable, row: DependencyRow): Promise<void> {
  await q.query('DELETE FROM dependent_features WHERE child = $1', [row.child])
  await q.query('INSERT INTO dependent_features (parent, child, enabled, variants) VALUES ($1, $2, $3, $4)', [
    row.parent,
    row.child,
    row.enabled,
    JSON.stringify(row.variants),
  ])
}

export async function deleteDependency(q: Queryable, child: string, parent?: string): Promise<number> {
  const rows = await q.query(
    'DELETE FROM dependent_features WHERE child = $1 AND ($2::text IS NULL OR parent = $2) RETURNING 1',
    [child, parent ?? null],
  )
  return rows.length
}
