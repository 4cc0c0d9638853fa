import { seg, useApi } from '../api.ts'
import { Button, Card, Empty, Loading } from '../components/controls.tsx'
import { EnabledSwitch } from '../components/enabled-switch.tsx'
import { ConfirmButton } from '../components/confirm-button.tsx'
import { ErrorNote } from '../components/error-note.tsx'
import { useProject } from '../components/project-select.tsx'
import { useAction, useLoad, useTitle } from '../hooks.ts'
import { Link, navigate } from '../router.tsx'
import type { Action, ActionSet, PayloadFilter, SignalEndpoint } from '../types.ts'
import { flagHistoryPath } from './history/history-paths.ts'

export const ACTION_LABELS: Record<Action['action'], string> = {
  TOGGLE_FEATURE_ON: 'Turn on',
  TOGGLE_FEATURE_OFF: 'Turn off',
}

/** `data.severity IN high, critical` */
export function describeFilter(path: string, filter: PayloadFilter): string {
  const values = filter.values?.length ? filter.values.join(', ') : (filter.value ?? '')
  return `${path} ${filter.inverted ? 'NOT ' : ''}${filter.operator} ${values}${filter.caseInsensitive ? ' (case-insensitive)' : ''}`
}

/** Action sets of a project: what each reacts to and does; on/off, edit, runs, delete. */
export function ActionsPage() {
  useTitle('Actions')
  const api = useApi()
  const { project, select, error: projectsError } = useProject()
  const sets = useLoad(
    async () =>
      project
        ? (await api.get<{ actions: ActionSet[] }>(`/api/admin/projects/${seg(project)}/actions`)).actions
        : undefined,
    [project],
  )
  const endpoints = useLoad(
    async () => (await api.get<{ signalEndpoints: SignalEndpoint[] }>('/api/admin/signal-endpoints')).signalEndpoints,
    [],
  )
  const endpointName = (id: number) => endpoints.data?.find((e) => e.id === id)?.name ?? `endpoint ${id}`

  return (
    <div class="page">
      <div class="page-header">
        <h1>Actions</h1>
        {project && (
          <Button variant="primary" onClick={() => navigate(`/actions/${seg(project)}/new`)}>
            New action set
          </Button>
        )}
      </div>
      <p class="lead">
        An action set listens to a signal endpoint; when a signal arrives and all its filters match, it turns flags on
        or off, in order.
      </p>
      <div class="toolbar">{select}</div>
      <ErrorNote error={sets.error ?? endpoints.error} />
      {!sets.data
        ? !sets.error && !projectsError && <Loading what="action sets" />
        : sets.data &&
          (sets.data.length === 0 ? (
            <Card>
              <Empty>No action sets in {project} yet.</Empty>
            </Card>
          ) : (
            <div class="stack">
              {sets.data.map((set) => (
                <ActionSetCard
                  key={set.id}
                  set={set}
                  endpointName={endpointName(set.match.sourceId)}
                  onChanged={sets.reload}
                />
              ))}
            </div>
          ))}
    </div>
  )
}

function ActionSetCard({
  set,
  endpointName,
  onChanged,
}: {
  set: ActionSet
  endpointName: string
  onChanged: () => Promise<void>
}) {
  const api = useApi()
  const toggle = useAction()
  const base = `/api/admin/projects/${seg(set.project)}/actions/${seg(set.id)}`
  const filters = Object.entries(set.match.payload ?? {})
  return (
    <Card
      class="action-set"
      title={<span data-action-set={set.name}>{set.name}</span>}
      actions={
        <EnabledSwitch name={set.name} enabled={set.enabled} path={base} action={toggle} onChanged={onChanged} />
      }
    >
      <ErrorNote error={toggle.error} />
      {set.description && <p class="muted">{set.description}</p>}
      <p>
        When a signal arrives at{' '}
        <Link href={`/integrations/signal-endpoints/${set.match.sourceId}`}>
          <strong>{endpointName}</strong>
        </Link>
        {filters.length === 0 ? ' (any signal: no filters)' : ' and matches'}
      </p>
      {filters.length > 0 && (
        <ul class="filters-summary">
          {filters.map(([path, filter]) => (
            <li key={path}>
              <code>{describeFilter(path, filter)}</code>
            </li>
          ))}
        </ul>
      )}
      <ol class="actions-summary">
        {[...set.actions]
          .sort((a, b) => a.sortOrder - b.sortOrder)
          .map((action, i) => (
            <li key={i}>
              {ACTION_LABELS[action.action]}{' '}
              <Link href={flagHistoryPath(action.executionParams.project, action.executionParams.featureName)}>
                <strong>{action.executionParams.featureName}</strong>
              </Link>{' '}
              in <strong>{action.executionParams.environment}</strong>
            </li>
          ))}
      </ol>
      <div class="card-footer">
        <Button size="small" onClick={() => navigate(`/actions/${seg(set.project)}/${set.id}/runs`)}>
          Runs
        </Button>
        <Button size="small" onClick={() => navigate(`/actions/${seg(set.project)}/${set.id}/edit`)}>
          Edit
        </Button>
        <ConfirmButton
          label="Delete"
          ariaLabel={`Delete ${set.name}`}
          title={`Delete the action set ${set.name}?`}
          confirmLabel="Delete action set"
          onConfirm={async () => {
            await api.delete(base)
            await onChanged()
          }}
        >
          <p>It stops reacting to signals, and its run history is deleted with it.</p>
        </ConfirmButton>
      </div>
    </Card>
  )
}
