import type { Database } from './database.js'
import { MIGRATIONS, type Migration } from './migrations/index.js'

export interface MigrationResult {
  /** Versions applied by this call, in order. */
  applied: number[]
}

/**
 * Brings the schema up to date: each pending migration runs in its own transaction together with
 * its `schema_migrations` row, so a failed step leaves the previous version intact.
 * An advisory lock keeps two service instances on one PostgreSQL server from racing.
 */
export async function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): Promise<MigrationResult> {
  await db.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`)
  const applied: number[] = []
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(424242)')
      const rows = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version])
      if (rows.length > 0) return false
      for (const statement of splitStatements(migration.sql)) await tx.query(statement)
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ])
      return true
    })
    if (done) applied.push(migration.version)
  }
  return { applied }
}

/** The versions recorded in `schema_migrations`, ascending. */
export async function appliedVersions(db: Database): Promise<number[]> {
  const rows = await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')
  return rows.map((row) => row.version)
}

// --- Internal helpers ---

/**
 * Splits a migration into statements so each runs through the transaction's `query` (PGlite's
 * extended protocol takes one statement at a time). A `;` ends a statement, except inside a
 * dollar-quoted body (`$$ … $$`, a trigger function's); none of our migrations has one inside a
 * string literal. Comments are dropped first, so a body must not contain `--`.
 */
function splitStatements(sql: string): string[] {
  const statements: string[] = []
  let current = ''
  sql
    .replace(/--[^\n]*/g, '')
    .split('$$')
    .forEach((part, i) => {
      if (i % 2 === 1) {
        current += `$$${part}$$`
        return
      }
      const [first = '', ...rest] = part.split(';')
      current += first
      for (const piece of rest) {
        statements.push(current)
        current = piece
      }
    })
  statements.push(current)
  return statements.map((statement) => statement.trim()).filter((statement) => statement.length > 0)
}
