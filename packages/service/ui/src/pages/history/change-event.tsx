import { seg } from '../../api.ts'
import { Badge } from '../../components/controls.tsx'
import { JsonView } from '../../components/json-view.tsx'
import { Time } from '../../components/time.tsx'
import { Link } from '../../router.tsx'
import type { ChangeEvent } from '../../types.ts'
import { type ChangeDiff, diffChange, MAX_DIFF_ROWS } from './change-diff.ts'
import { flagHistoryPath, signalPath } from './history-paths.ts'

/** Unleash's event types in words; any other type is shown as it is named. */
const SUMMARIES: Record<string, string> = {
  'feature-created': 'Flag created',
  'feature-updated': 'Flag updated',
  'feature-metadata-updated': 'Settings changed',
  'feature-type-updated': 'Type changed',
  'feature-impression-data-updated': 'Impression data changed',
  'feature-stale-on': 'Marked stale',
  'feature-stale-off': 'No longer stale',
  'feature-archived': 'Archived',
  'feature-revived': 'Revived',
  'feature-deleted': 'Deleted',
  'feature-environment-enabled': 'Turned on',
  'feature-environment-disabled': 'Turned off',
  'feature-environment-variants-updated': 'Variants changed',
  'feature-strategy-add': 'Strategy added',
  'feature-strategy-update': 'Strategy changed',
  'feature-strategy-remove': 'Strategy removed',
  'feature-dependency-added': 'Dependency added',
  'feature-dependency-removed': 'Dependency removed',
  'feature-dependencies-removed': 'Dependencies removed',
  'feature-tagged': 'Tagged',
  'feature-untagged': 'Tag removed',
}

export function summarize(type: string): string {
  return SUMMARIES[type] ?? type
}

/** One change: what, to which flag and environment, who or what made it and when, and the before/after. */
export function ChangeEventView({ event }: { event: ChangeEvent }) {
  const diff = diffChange(event.preData, event.data)
  const tone =
    event.type === 'feature-environment-enabled'
      ? 'good'
      : event.type === 'feature-environment-disabled'
        ? 'bad'
        : 'info'
  return (
    <li class="card change" data-event={event.id} data-type={event.type}>
      <div class="change-header">
        <Badge tone={tone}>{summarize(event.type)}</Badge>
        {event.featureName && event.project ? (
          <Link href={flagHistoryPath(event.project, event.featureName)} class="change-flag">
            {event.featureName}
          </Link>
        ) : (
          event.project && <span class="muted">project {event.project}</span>
        )}
        {event.environment && <span class="muted">in {event.environment}</span>}
      </div>
      <p class="change-who">
        <Time iso={event.createdAt} /> · by <ChangeActor event={event} />
      </p>
      <ChangeDiffTable diff={diff} />
      <details class="change-raw">
        <summary>Event #{event.id} as the API gives it</summary>
        <JsonView value={event} label={`Event ${event.id}`} />
      </details>
    </li>
  )
}

function ChangeActor({ event }: { event: ChangeEvent }) {
  const { origin, project } = event
  if (!origin || !project) return <strong data-actor={event.createdBy}>{event.createdBy}</strong>
  const setName = event.createdBy.replace(/^action-set:/, '')
  return (
    <span data-actor={event.createdBy}>
      action set{' '}
      <Link href={`/actions/${seg(project)}/${origin.actionSetId}/runs`}>
        <strong>{setName}</strong>
      </Link>
      , on <Link href={signalPath(origin.signalEndpointId)}>signal #{origin.signalId}</Link>
    </span>
  )
}

/** Before and after side by side; a thing made or removed shows its one side only. */
function ChangeDiffTable({ diff }: { diff: ChangeDiff }) {
  const { kind, rows } = diff
  if (rows.length === 0) return <p class="muted small">No field changed.</p>
  const shown = rows.slice(0, MAX_DIFF_ROWS)
  const cell = (value: string | undefined, side: 'before' | 'after') => (
    <td class={side}>{value === undefined ? <span class="muted">—</span> : <code>{value}</code>}</td>
  )
  return (
    <div class="change-diff-wrap">
      <table class={`change-diff ${kind}`}>
        <thead>
          <tr>
            <th scope="col">Field</th>
            {kind === 'changed' ? (
              <>
                <th scope="col">Before</th>
                <th scope="col">After</th>
              </>
            ) : (
              <th scope="col">{kind === 'created' ? 'Set to' : 'Was'}</th>
            )}
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => (
            <tr key={row.path}>
              <th scope="row">
                <code>{row.path}</code>
              </th>
              {kind !== 'created' && cell(row.before, 'before')}
              {kind !== 'removed' && cell(row.after, 'after')}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > shown.length && (
        <p class="muted small">{rows.length - shown.length} more changed fields: see the event below.</p>
      )}
    </div>
  )
}
