import type { Queryable } from '../db/database.js'
import type { StrategyBody } from '../schemas/strategy.js'
import { json } from './rows.js'

/** A project's default strategy in one environment, as stored and answered (Unleash's createFeatureStrategySchema, no sortOrder). */
export type DefaultStrategy = Omit<StrategyBody, 'title' | 'disabled' | 'sortOrder'> & {
  title: string | null
  disabled: boolean
}

/** The stored default strategy of the project in the environment (migration 012); undefined when none was set. */
export async function getDefaultStrategy(
  q: Queryable,
  project: string,
  environment: string,
): Promise<DefaultStrategy | undefined> {
  const [row] = await q.query<{ default_strategy: DefaultStrategy | null }>(
    'SELECT default_strategy FROM project_environments WHERE project_id = $1 AND environment_name = $2',
    [project, environment],
  )
  return row?.default_strategy ?? undefined
}

export async function setDefaultStrategy(
  q: Queryable,
  project: string,
  environment: string,
  strategy: DefaultStrategy,
): Promise<void> {
  await q.query(
    'UPDATE project_environments SET default_strategy = $3 WHERE project_id = $1 AND environment_name = $2',
    [project, environment, json(strategy)],
  )
}

/** The project environments whose default strategy uses the segment. */
export function defaultStrategiesUsingSegment(
  q: Queryable,
  segment: number,
): Promise<{ project_id: string; environment_name: string }[]> {
  return q.query(
    `SELECT project_id, environment_name FROM project_environments
     WHERE default_strategy->'segments' @> to_jsonb($1::int) ORDER BY project_id, environment_name`,
    [segment],
  )
}
