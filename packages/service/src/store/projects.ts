import type { Queryable } from '../db/database.js'
import { iso } from './rows.js'

export interface ProjectRow {
  id: string
  name: string
  description: string | null
  mode: string
  default_stickiness: string
  created_at: Date
  updated_at: Date | null
  feature_count?: number
}

export interface ProjectInput {
  id: string
  name: string
  description?: string | null
  mode?: string
  defaultStickiness?: string
}

/** Unleash's projectSchema (the fields we have). */
export function toProject(row: ProjectRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    mode: row.mode,
    defaultStickiness: row.default_stickiness,
    health: 100,
    featureCount: row.feature_count ?? 0,
    memberCount: 0,
    favorite: false,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  }
}

const SELECT = `SELECT p.*, (SELECT count(*) FROM features f WHERE f.project = p.id AND f.archived_at IS NULL)::int AS feature_count
  FROM projects p`

export function listProjects(q: Queryable): Promise<ProjectRow[]> {
  return q.query<ProjectRow>(`${SELECT} ORDER BY p.name, p.id`)
}

export async function getProject(q: Queryable, id: string): Promise<ProjectRow | undefined> {
  return (await q.query<ProjectRow>(`${SELECT} WHERE p.id = $1`, [id]))[0]
}

/** Creates the project in the given environments (Unleash: all enabled ones by default). */
export async function insertProject(
  q: Queryable,
  input: ProjectInput,
  environments: string[] | undefined,
  now: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO projects (id, name, description, mode, default_stickiness, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)`,
    [input.id, input.name, input.description ?? null, input.mode ?? 'open', input.defaultStickiness ?? 'default', now],
  )
  if (environments) {
    for (const environment of environments) await addProjectEnvironment(q, input.id, environment)
  } else {
    await q.query(
      `INSERT INTO project_environments (project_id, environment_name) SELECT $1, name FROM environments WHERE enabled`,
      [input.id],
    )
  }
}

export async function updateProject(q: Queryable, input: ProjectInput, now: Date): Promise<void> {
  await q.query(
    `UPDATE projects SET name = $2, description = $3, mode = COALESCE($4, mode), default_stickiness = COALESCE($5, default_stickiness), updated_at = $6 WHERE id = $1`,
    [input.id, input.name, input.description ?? null, input.mode ?? null, input.defaultStickiness ?? null, now],
  )
}

/** Deletes the project and its archived flags; callers refuse first when live flags remain. */
export async function deleteProject(q: Queryable, id: string): Promise<void> {
  await q.query('DELETE FROM features WHERE project = $1', [id])
  await q.query('DELETE FROM projects WHERE id = $1', [id])
}

export async function projectEnvironments(q: Queryable, project: string): Promise<string[]> {
  const rows = await q.query<{ environment_name: string }>(
    `SELECT pe.environment_name FROM project_environments pe JOIN environments e ON e.name = pe.environment_name
     WHERE pe.project_id = $1 ORDER BY e.sort_order, e.name`,
    [project],
  )
  return rows.map((row) => row.environment_name)
}

export async function addProjectEnvironment(q: Queryable, project: string, environment: string): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO project_environments (project_id, environment_name) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1`,
    [project, environment],
  )
  return rows.length > 0
}

/** Removes the environment from the project and its flags' state there (Unleash does the same). */
export async function removeProjectEnvironment(q: Queryable, project: string, environment: string): Promise<boolean> {
  await q.query(
    `DELETE FROM feature_environments WHERE environment = $2 AND feature_name IN (SELECT name FROM features WHERE project = $1)`,
    [project, environment],
  )
  await q.query(`DELETE FROM feature_strategies WHERE environment = $2 AND project_name = $1`, [project, environment])
  const rows = await q.query(
    `DELETE FROM project_environments WHERE project_id = $1 AND environment_name = $2 RETURNING 1`,
    [project, environment],
  )
  return rows.length > 0
}
