import { useEffect, useState } from 'preact/hooks'
import { seg, useApi } from '../api.ts'
import { Button, Card, Field, Loading } from '../components/controls.tsx'
import { ErrorNote } from '../components/error-note.tsx'
import { useAction, useLoad, useTitle } from '../hooks.ts'
import { href, Link, navigate } from '../router.tsx'
import type { ActionSet, Flag, ProjectDetail, SignalEndpoint } from '../types.ts'
import { ActionRows } from './action-set-action-rows.tsx'
import { FilterRows } from './action-set-filter-rows.tsx'
import {
  check,
  type Form,
  fromActionSet,
  newAction,
  newFilter,
  serverProblems,
  toBody,
} from './action-set-form-model.ts'
import { LatestPayload } from './latest-payload.tsx'

/** Create (no `id`) or edit an action set: source endpoint, payload filters, ordered actions. */
export function ActionSetFormPage({ project, id }: { project: string; id?: number }) {
  useTitle(id ? 'Edit action set' : 'New action set')
  const api = useApi()
  const base = `/api/admin/projects/${seg(project)}/actions`
  const existing = useLoad(async () => (id ? api.get<ActionSet>(`${base}/${seg(id)}`) : null), [project, id])
  const endpoints = useLoad(
    async () => (await api.get<{ signalEndpoints: SignalEndpoint[] }>('/api/admin/signal-endpoints')).signalEndpoints,
    [],
  )
  const environments = useLoad(
    async () => (await api.get<ProjectDetail>(`/api/admin/projects/${seg(project)}`)).environments,
    [project],
  )
  const flags = useLoad(
    async () =>
      (await api.get<{ features: Flag[] }>(`/api/admin/projects/${seg(project)}/features`)).features.map((f) => f.name),
    [project],
  )
  const [form, setForm] = useState<Form>()
  const [checked, setChecked] = useState(false)
  const save = useAction()

  useEffect(() => {
    if (existing.data) setForm(fromActionSet(existing.data))
    else if (existing.data === null)
      setForm({ name: '', description: '', enabled: true, sourceId: undefined, filters: [], actions: [newAction()] })
  }, [existing.data])
  // A new set listens to the only endpoint there is, if there is just one.
  useEffect(() => {
    if (form && !id && form.sourceId === undefined && endpoints.data?.length === 1)
      setForm({ ...form, sourceId: endpoints.data[0]?.id })
  }, [endpoints.data, form === undefined])

  const loadError = existing.error ?? endpoints.error ?? environments.error ?? flags.error
  if (!form) {
    return <div class="page">{loadError ? <ErrorNote error={loadError} /> : <Loading what="the action set" />}</div>
  }

  const update = (patch: Partial<Form>) => setForm({ ...form, ...patch })
  const addFilter = (path = '', value = '') => update({ filters: [...form.filters, newFilter(path, value)] })

  const local = checked ? check(form) : {}
  const problems = { ...serverProblems(save.error, form), ...local }
  const submit = (event: Event) => {
    event.preventDefault()
    setChecked(true)
    const found = check(form)
    const first = Object.keys(found)[0]
    if (first) {
      document.getElementById(first)?.focus()
      return
    }
    void save.run(async () => {
      const body = toBody(form, project)
      if (id) await api.put(`${base}/${seg(id)}`, body)
      else await api.post(base, body)
      navigate(href('/actions', { project }))
    })
  }

  const envs = environments.data ?? []
  const flagNames = flags.data ?? []
  return (
    <div class="page">
      <p class="breadcrumb">
        <Link href={href('/actions', { project })}>Actions › {project}</Link>
      </p>
      <h1>{id ? `Edit ${existing.data?.name ?? 'action set'}` : 'New action set'}</h1>
      <ErrorNote error={loadError} />
      <form class="stack" onSubmit={submit} noValidate>
        <Card title="About">
          <div class="form-grid">
            <Field id="name" label="Name" error={problems.name}>
              <input
                id="name"
                value={form.name}
                aria-invalid={problems.name ? true : undefined}
                onInput={(e) => update({ name: e.currentTarget.value })}
              />
            </Field>
            <Field id="description" label="Description (optional)">
              <input
                id="description"
                value={form.description}
                onInput={(e) => update({ description: e.currentTarget.value })}
              />
            </Field>
            <label class="checkbox span-all">
              <input
                type="checkbox"
                checked={form.enabled}
                onChange={(e) => update({ enabled: e.currentTarget.checked })}
              />{' '}
              Enabled: react to signals as soon as it is saved
            </label>
          </div>
        </Card>

        <Card title="When a signal arrives">
          <Field
            id="source"
            label="Signal endpoint"
            error={problems.source}
            hint={
              endpoints.data?.length === 0 ? (
                <>
                  There is none yet: <Link href="/integrations/signal-endpoints">create one</Link>.
                </>
              ) : undefined
            }
          >
            <select
              id="source"
              value={form.sourceId === undefined ? '' : String(form.sourceId)}
              aria-invalid={problems.source ? true : undefined}
              onChange={(e) => update({ sourceId: e.currentTarget.value ? Number(e.currentTarget.value) : undefined })}
            >
              <option value="">Choose an endpoint…</option>
              {endpoints.data?.map((e) => (
                <option key={e.id} value={String(e.id)}>
                  {e.name}
                  {e.enabled ? '' : ' (disabled)'}
                </option>
              ))}
            </select>
          </Field>
          {form.sourceId !== undefined && <LatestPayload endpointId={form.sourceId} onUse={addFilter} />}
        </Card>

        <Card
          title="And its payload matches"
          actions={
            <Button size="small" onClick={() => addFilter()}>
              Add filter
            </Button>
          }
        >
          <FilterRows filters={form.filters} problems={problems} onChange={(filters) => update({ filters })} />
          <p class="hint">All filters must match. A missing field matches only NOT_IN.</p>
        </Card>

        <Card
          title="Then, in order"
          actions={
            <Button size="small" onClick={() => update({ actions: [...form.actions, newAction()] })}>
              Add action
            </Button>
          }
        >
          {problems.actions && (
            <p class="field-error" role="alert" id="actions" tabIndex={-1}>
              {problems.actions}
            </p>
          )}
          <ActionRows
            actions={form.actions}
            problems={problems}
            flagNames={flagNames}
            environments={envs}
            onChange={(actions) => update({ actions })}
          />
          <p class="hint">Actions run one after the other; the first that fails stops the rest.</p>
        </Card>

        <div class="form-footer">
          <ErrorNote error={save.error} />
          <div class="form-actions">
            <Button type="submit" variant="primary" busy={save.busy}>
              {id ? 'Save changes' : 'Create action set'}
            </Button>
            <Link href={href('/actions', { project })} class="button ghost">
              Cancel
            </Link>
          </div>
        </div>
      </form>
    </div>
  )
}
