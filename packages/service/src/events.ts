import type { Actor, Clock } from './service-context.js'
import type { Queryable } from './db/database.js'
import { json } from './store/rows.js'

/** Unleash event type names for the changes the service makes. */
type EventType =
  | 'project-created'
  | 'project-updated'
  | 'project-deleted'
  | 'project-environment-added'
  | 'project-environment-removed'
  | 'default-strategy-updated'
  | 'environment-created'
  | 'environment-updated'
  | 'environment-deleted'
  | 'feature-created'
  | 'feature-updated'
  | 'feature-metadata-updated'
  | 'feature-type-updated'
  | 'feature-impression-data-updated'
  | 'feature-stale-on'
  | 'feature-stale-off'
  | 'feature-archived'
  | 'feature-revived'
  | 'feature-deleted'
  | 'feature-environment-enabled'
  | 'feature-environment-disabled'
  | 'feature-environment-variants-updated'
  | 'feature-strategy-add'
  | 'feature-strategy-update'
  | 'feature-strategy-remove'
  | 'feature-dependency-added'
  | 'feature-dependency-removed'
  | 'feature-dependencies-removed'
  | 'feature-tagged'
  | 'feature-untagged'
  | 'segment-created'
  | 'segment-updated'
  | 'segment-deleted'
  | 'tag-created'
  | 'tag-deleted'
  | 'tag-type-created'
  | 'tag-type-updated'
  | 'tag-type-deleted'
  | 'user-created'
  | 'user-updated'
  | 'user-deleted'
  | 'api-token-created'
  | 'api-token-updated'
  | 'api-token-deleted'
  | 'pat-created'
  | 'pat-deleted'
  | 'signal-endpoint-created'
  | 'signal-endpoint-updated'
  | 'signal-endpoint-deleted'
  | 'signal-endpoint-token-created'
  | 'signal-endpoint-token-updated'
  | 'signal-endpoint-token-deleted'
  | 'actions-created'
  | 'actions-updated'
  | 'actions-deleted'

export interface EventInput {
  type: EventType
  project?: string | null
  featureName?: string | null
  environment?: string | null
  data?: unknown
  preData?: unknown
  tags?: { type: string; value: string }[]
}

/**
 * Appends one row to the event log, inside the caller's transaction, so a change and its event
 * are committed together or not at all.
 */
export async function writeEvent(q: Queryable, actor: Actor, clock: Clock, event: EventInput): Promise<void> {
  await q.query(
    `INSERT INTO events (type, created_by, created_by_user_id, created_at, project, feature_name, environment, data, pre_data, tags,
       action_set_id, signal_id, signal_endpoint_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      event.type,
      actor.name,
      actor.userId ?? null,
      clock(),
      event.project ?? null,
      event.featureName ?? null,
      event.environment ?? null,
      event.data === undefined ? null : json(event.data),
      event.preData === undefined ? null : json(event.preData),
      json(event.tags ?? []),
      actor.origin?.actionSetId ?? null,
      actor.origin?.signalId ?? null,
      actor.origin?.signalEndpointId ?? null,
    ],
  )
}
