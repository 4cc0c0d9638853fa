import { seg, useApi } from '../api.ts'
import { Badge, Button, Card, Empty, Loading } from '../components/controls.tsx'
import { ErrorNote } from '../components/error-note.tsx'
import { JsonView } from '../components/json-view.tsx'
import { Time } from '../components/time.tsx'
import { useLoad, usePolling, useTitle } from '../hooks.ts'
import { href, Link, navigate } from '../router.tsx'
import type { Action, ActionSet, ActionSetRun } from '../types.ts'
import { ACTION_LABELS } from './actions.tsx'
import { flagHistoryPath, signalPath } from './history/history-paths.ts'
import { SIGNALS_POLL_MS } from './signal-endpoint.tsx'

const STATE_TONE = { success: 'good', failed: 'bad', started: 'info', 'not started': 'neutral' } as const

/** An action set's runs, newest first: the signal that started each and every action's outcome. */
export function ActionSetRunsPage({ project, id }: { project: string; id: number }) {
  const api = useApi()
  const base = `/api/admin/projects/${seg(project)}/actions/${seg(id)}`
  const set = useLoad(() => api.get<ActionSet>(base), [base])
  const runs = useLoad(
    async () => (await api.get<{ actionSetEvents: ActionSetRun[] }>(`${base}/events?limit=50`)).actionSetEvents,
    [base],
  )
  usePolling(runs.reload, SIGNALS_POLL_MS)
  useTitle(set.data ? `Runs of ${set.data.name}` : 'Runs')

  return (
    <div class="page">
      <p class="breadcrumb">
        <Link href={href('/actions', { project })}>Actions › {project}</Link>
      </p>
      <div class="page-header">
        <h1>Runs of {set.data?.name ?? `action set ${id}`}</h1>
        <Button size="small" onClick={() => navigate(`/actions/${seg(project)}/${id}/edit`)}>
          Edit
        </Button>
      </div>
      <ErrorNote error={set.error ?? runs.error} focus={!runs.data} />
      {runs.data === undefined ? (
        !runs.error && <Loading what="runs" />
      ) : runs.data.length === 0 ? (
        <Card>
          <Empty>No runs yet. A run is recorded each time a matching signal arrives while the set is enabled.</Empty>
        </Card>
      ) : (
        <ol class="stack runs">
          {runs.data.map((run) => (
            <RunView key={run.id} run={run} />
          ))}
        </ol>
      )}
    </div>
  )
}

function RunView({ run }: { run: ActionSetRun }) {
  const actions: Action[] = [...(run.actionSet?.actions ?? [])].sort((a, b) => a.sortOrder - b.sortOrder)
  return (
    <li class="card run" data-run={run.id} data-state={run.state}>
      <div class="run-header">
        <Badge tone={STATE_TONE[run.state] ?? 'neutral'}>{run.state}</Badge>
        <Time iso={run.createdAt} />
        <span class="muted">
          {run.signal?.sourceId === undefined ? (
            `signal #${run.signalId}`
          ) : (
            <Link href={signalPath(run.signal.sourceId)}>signal #{run.signalId}</Link>
          )}
          {run.signal?.tokenName ? ` from token ${run.signal.tokenName}` : ''}
        </span>
      </div>
      <ol class="run-actions">
        {actions.map((action, i) => (
          <li key={i} data-state={action.state}>
            <Badge tone={STATE_TONE[action.state ?? 'not started'] ?? 'neutral'}>{action.state ?? 'not started'}</Badge>{' '}
            {ACTION_LABELS[action.action]}{' '}
            <Link href={flagHistoryPath(action.executionParams.project, action.executionParams.featureName)}>
              <strong>{action.executionParams.featureName}</strong>
            </Link>{' '}
            in <strong>{action.executionParams.environment}</strong>
            {action.details && <p class="field-error">{action.details}</p>}
          </li>
        ))}
      </ol>
      {run.signal?.payload !== undefined && (
        <details>
          <summary>Signal payload</summary>
          <JsonView value={run.signal.payload} label={`Payload of signal ${run.signalId}`} />
        </details>
      )}
    </li>
  )
}
