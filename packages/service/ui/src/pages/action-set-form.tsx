import { useEffect, useState } from 'preact/hooks'
import { FILTER_OPERATORS } from '../../../src/actions/filter-operators.ts'
import { flattenPayload } from '../../../src/actions/flatten-payload.ts'
import { type ApiError, seg, useApi } from '../api.ts'
import { Button, Card, Empty, Field, Loading } from '../components/controls.tsx'
import { ErrorNote } from '../components/error-note.tsx'
import { JsonView } from '../components/json-view.tsx'
import { Time } from '../components/time.tsx'
import { useAction, useLoad, usePolling, useTitle } from '../hooks.ts'
import { href, Link, navigate } from '../router.tsx'
import type { ActionName, ActionSet, Flag, PayloadFilter, ProjectDetail, Signal, SignalEndpoint } from '../types.ts'
import { ACTION_LABELS } from './actions.tsx'
import { SIGNALS_POLL_MS } from './signal-endpoint.tsx'

/** Operators that compare with one `value` (as in src/schemas/constraint.ts); the others take `values`. */
const isSingleValue = (operator: string) => /^(NUM_|SEMVER_)/.test(operator)

interface FilterRow {
  key: number
  path: string
  operator: string
  values: string
  inverted: boolean
  caseInsensitive: boolean
}

interface ActionRow {
  key: number
  action: ActionName
  featureName: string
  environment: string
}

interface Form {
  name: string
  description: string
  enabled: boolean
  sourceId: number | undefined
  filters: FilterRow[]
  actions: ActionRow[]
}

let nextKey = 1
const newFilter = (path = '', value = ''): FilterRow => ({ key: nextKey++, path, operator: 'IN', values: value, inverted: false, caseInsensitive: false })
const newAction = (): ActionRow => ({ key: nextKey++, action: 'TOGGLE_FEATURE_OFF', featureName: '', environment: '' })

function fromActionSet(set: ActionSet): Form {
  return {
    name: set.name,
    description: set.description ?? '',
    enabled: set.enabled,
    sourceId: set.match.sourceId,
    filters: Object.entries(set.match.payload ?? {}).map(([path, f]) => ({
      key: nextKey++,
      path,
      operator: f.operator,
      values: f.values?.length ? f.values.join(', ') : (f.value ?? ''),
      inverted: Boolean(f.inverted),
      caseInsensitive: Boolean(f.caseInsensitive),
    })),
    actions: [...set.actions].sort((a, b) => a.sortOrder - b.sortOrder).map((a) => ({
      key: nextKey++,
      action: a.action,
      featureName: a.executionParams.featureName,
      environment: a.executionParams.environment,
    })),
  }
}

/** The body of POST/PUT /api/admin/projects/:p/actions (README, Action sets); actions in the order shown. */
function toBody(form: Form, project: string) {
  const payload: Record<string, PayloadFilter> = {}
  for (const f of form.filters) {
    const base = { operator: f.operator, inverted: f.inverted, caseInsensitive: f.caseInsensitive }
    payload[f.path.trim()] = isSingleValue(f.operator)
      ? { ...base, value: f.values.trim() }
      : { ...base, values: f.values.split(',').map((v) => v.trim()).filter(Boolean) }
  }
  return {
    name: form.name.trim(),
    description: form.description.trim() || null,
    enabled: form.enabled,
    match: { source: 'signal-endpoint', sourceId: form.sourceId, payload },
    actions: form.actions.map((a, i) => ({ action: a.action, sortOrder: i + 1, executionParams: { project, environment: a.environment, featureName: a.featureName } })),
  }
}

type Problems = Record<string, string>

/** What the form can tell before asking the service, keyed as the fields' ids. */
function check(form: Form): Problems {
  const problems: Problems = {}
  if (!form.name.trim()) problems.name = 'Name is required.'
  if (form.sourceId === undefined) problems.source = 'Choose the signal endpoint this set listens to.'
  const paths = new Set<string>()
  for (const f of form.filters) {
    const path = f.path.trim()
    if (!path) problems[`filter-${f.key}`] = 'A filter needs a field path, such as data.severity.'
    else if (paths.has(path)) problems[`filter-${f.key}`] = `There is already a filter on ${path}.`
    else if (!f.values.trim()) problems[`filter-${f.key}`] = 'A filter needs a value to compare with.'
    paths.add(path)
  }
  if (form.actions.length === 0) problems.actions = 'Add at least one action.'
  for (const a of form.actions) {
    if (!a.featureName || !a.environment) problems[`action-${a.key}`] = 'Choose a flag and an environment.'
  }
  return problems
}

/** The service's validation details, placed on the fields they name (`body.match.payload.<path>…`). */
function serverProblems(error: ApiError | undefined, form: Form): Problems {
  const problems: Problems = {}
  if (error?.name === 'NameExistsError') problems.name = error.message
  for (const detail of error?.details ?? []) {
    const path = detail.path ?? ''
    const text = detail.message
    if (path === 'body.name') problems.name = text
    else if (path.startsWith('body.match.sourceId')) problems.source = text
    else if (path.startsWith('body.match.payload.')) {
      const rest = path.slice('body.match.payload.'.length)
      const row = form.filters.find((f) => rest === f.path.trim() || rest.startsWith(`${f.path.trim()}.`))
      if (row) problems[`filter-${row.key}`] = text
    } else if (path.startsWith('body.actions.')) {
      const row = form.actions[Number(path.split('.')[2])]
      if (row) problems[`action-${row.key}`] = text
    }
  }
  return problems
}

/** Create (no `id`) or edit an action set: source endpoint, payload filters, ordered actions. */
export function ActionSetFormPage({ project, id }: { project: string; id?: number }) {
  useTitle(id ? 'Edit action set' : 'New action set')
  const api = useApi()
  const base = `/api/admin/projects/${seg(project)}/actions`
  const existing = useLoad(async () => (id ? api.get<ActionSet>(`${base}/${seg(id)}`) : null), [project, id])
  const endpoints = useLoad(async () => (await api.get<{ signalEndpoints: SignalEndpoint[] }>('/api/admin/signal-endpoints')).signalEndpoints, [])
  const environments = useLoad(async () => (await api.get<ProjectDetail>(`/api/admin/projects/${seg(project)}`)).environments, [project])
  const flags = useLoad(async () => (await api.get<{ features: Flag[] }>(`/api/admin/projects/${seg(project)}/features`)).features.map((f) => f.name), [project])
  const [form, setForm] = useState<Form>()
  const [checked, setChecked] = useState(false)
  const save = useAction()

  useEffect(() => {
    if (existing.data) setForm(fromActionSet(existing.data))
    else if (existing.data === null) setForm({ name: '', description: '', enabled: true, sourceId: undefined, filters: [], actions: [newAction()] })
  }, [existing.data])
  // A new set listens to the only endpoint there is, if there is just one.
  useEffect(() => {
    if (form && !id && form.sourceId === undefined && endpoints.data?.length === 1) setForm({ ...form, sourceId: endpoints.data[0]?.id })
  }, [endpoints.data, form === undefined])

  const loadError = existing.error ?? endpoints.error ?? environments.error ?? flags.error
  if (!form) {
    return <div class="page">{loadError ? <ErrorNote error={loadError} /> : <Loading what="the action set" />}</div>
  }

  const update = (patch: Partial<Form>) => setForm({ ...form, ...patch })
  const updateFilter = (key: number, patch: Partial<FilterRow>) => update({ filters: form.filters.map((f) => (f.key === key ? { ...f, ...patch } : f)) })
  const updateAction = (key: number, patch: Partial<ActionRow>) => update({ actions: form.actions.map((a) => (a.key === key ? { ...a, ...patch } : a)) })
  const move = (index: number, by: number) => {
    const actions = [...form.actions]
    const [row] = actions.splice(index, 1)
    actions.splice(index + by, 0, row as ActionRow)
    update({ actions })
  }
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
      <p class="breadcrumb"><Link href={href('/actions', { project })}>Actions › {project}</Link></p>
      <h1>{id ? `Edit ${existing.data?.name ?? 'action set'}` : 'New action set'}</h1>
      <ErrorNote error={loadError} />
      <form class="stack" onSubmit={submit} noValidate>
        <Card title="About">
          <div class="form-grid">
            <Field id="name" label="Name" error={problems.name}>
              <input id="name" value={form.name} aria-invalid={problems.name ? true : undefined} onInput={(e) => update({ name: e.currentTarget.value })} />
            </Field>
            <Field id="description" label="Description (optional)">
              <input id="description" value={form.description} onInput={(e) => update({ description: e.currentTarget.value })} />
            </Field>
            <label class="checkbox span-all">
              <input type="checkbox" checked={form.enabled} onChange={(e) => update({ enabled: e.currentTarget.checked })} /> Enabled: react to signals as soon as it is saved
            </label>
          </div>
        </Card>

        <Card title="When a signal arrives">
          <Field id="source" label="Signal endpoint" error={problems.source} hint={endpoints.data?.length === 0 ? <>There is none yet: <Link href="/integrations/signal-endpoints">create one</Link>.</> : undefined}>
            <select
              id="source"
              value={form.sourceId === undefined ? '' : String(form.sourceId)}
              aria-invalid={problems.source ? true : undefined}
              onChange={(e) => update({ sourceId: e.currentTarget.value ? Number(e.currentTarget.value) : undefined })}
            >
              <option value="">Choose an endpoint…</option>
              {endpoints.data?.map((e) => <option key={e.id} value={String(e.id)}>{e.name}{e.enabled ? '' : ' (disabled)'}</option>)}
            </select>
          </Field>
          {form.sourceId !== undefined && <LatestPayload endpointId={form.sourceId} onUse={addFilter} />}
        </Card>

        <Card title="And its payload matches" actions={<Button size="small" onClick={() => addFilter()}>Add filter</Button>}>
          {form.filters.length === 0 ? (
            <Empty>No filters: every signal from the endpoint runs the actions.</Empty>
          ) : (
            <ol class="filter-rows">
              {form.filters.map((f, i) => (
                <li key={f.key} class="filter-row" data-filter={i}>
                  <div class="filter-fields">
                    <Field id={`filter-${f.key}`} label="Field path" error={problems[`filter-${f.key}`]}>
                      <input
                        id={`filter-${f.key}`}
                        list="payload-paths"
                        value={f.path}
                        placeholder="data.severity"
                        spellcheck={false}
                        aria-invalid={problems[`filter-${f.key}`] ? true : undefined}
                        onInput={(e) => updateFilter(f.key, { path: e.currentTarget.value })}
                      />
                    </Field>
                    <Field id={`operator-${f.key}`} label="Operator">
                      <select id={`operator-${f.key}`} value={f.operator} onChange={(e) => updateFilter(f.key, { operator: e.currentTarget.value })}>
                        {FILTER_OPERATORS.map((op) => <option key={op} value={op}>{op}</option>)}
                      </select>
                    </Field>
                    <Field id={`values-${f.key}`} label={isSingleValue(f.operator) ? 'Value' : 'Values (comma-separated)'}>
                      <input id={`values-${f.key}`} value={f.values} onInput={(e) => updateFilter(f.key, { values: e.currentTarget.value })} />
                    </Field>
                  </div>
                  <div class="filter-options">
                    <label class="checkbox"><input type="checkbox" checked={f.inverted} onChange={(e) => updateFilter(f.key, { inverted: e.currentTarget.checked })} /> Negate (NOT)</label>
                    {f.operator.startsWith('STR_') && (
                      <label class="checkbox"><input type="checkbox" checked={f.caseInsensitive} onChange={(e) => updateFilter(f.key, { caseInsensitive: e.currentTarget.checked })} /> Ignore case</label>
                    )}
                    <Button size="small" variant="ghost" aria-label={`Remove the filter on ${f.path || 'an empty path'}`} onClick={() => update({ filters: form.filters.filter((x) => x.key !== f.key) })}>Remove</Button>
                  </div>
                </li>
              ))}
            </ol>
          )}
          <p class="hint">All filters must match. A missing field matches only NOT_IN.</p>
        </Card>

        <Card title="Then, in order" actions={<Button size="small" onClick={() => update({ actions: [...form.actions, newAction()] })}>Add action</Button>}>
          {problems.actions && <p class="field-error" role="alert" id="actions" tabIndex={-1}>{problems.actions}</p>}
          <ol class="action-rows">
            {form.actions.map((a, i) => (
              <li key={a.key} class="action-row" data-action={i}>
                <span class="step" aria-hidden="true">{i + 1}</span>
                <div class="action-fields">
                  <Field id={`action-${a.key}`} label="Do">
                    <select id={`action-${a.key}`} value={a.action} onChange={(e) => updateAction(a.key, { action: e.currentTarget.value as ActionName })}>
                      {(Object.keys(ACTION_LABELS) as ActionName[]).map((name) => <option key={name} value={name}>{ACTION_LABELS[name]}</option>)}
                    </select>
                  </Field>
                  <Field id={`flag-${a.key}`} label="Flag">
                    <select id={`flag-${a.key}`} value={a.featureName} onChange={(e) => updateAction(a.key, { featureName: e.currentTarget.value })}>
                      <option value="">Choose a flag…</option>
                      {flagNames.map((name) => <option key={name} value={name}>{name}</option>)}
                      {a.featureName && !flagNames.includes(a.featureName) && <option value={a.featureName}>{a.featureName} (missing)</option>}
                    </select>
                  </Field>
                  <Field id={`env-${a.key}`} label="Environment">
                    <select id={`env-${a.key}`} value={a.environment} onChange={(e) => updateAction(a.key, { environment: e.currentTarget.value })}>
                      <option value="">Choose…</option>
                      {envs.map((env) => <option key={env} value={env}>{env}</option>)}
                    </select>
                  </Field>
                </div>
                <div class="action-buttons">
                  <Button size="small" variant="ghost" disabled={i === 0} aria-label={`Move action ${i + 1} up`} onClick={() => move(i, -1)}>↑</Button>
                  <Button size="small" variant="ghost" disabled={i === form.actions.length - 1} aria-label={`Move action ${i + 1} down`} onClick={() => move(i, 1)}>↓</Button>
                  <Button size="small" variant="ghost" aria-label={`Remove action ${i + 1}`} onClick={() => update({ actions: form.actions.filter((x) => x.key !== a.key) })}>Remove</Button>
                </div>
                {problems[`action-${a.key}`] && <p class="field-error span-all" role="alert">{problems[`action-${a.key}`]}</p>}
              </li>
            ))}
          </ol>
          <p class="hint">Actions run one after the other; the first that fails stops the rest.</p>
        </Card>

        <div class="form-footer">
          <ErrorNote error={save.error} />
          <div class="form-actions">
            <Button type="submit" variant="primary" busy={save.busy}>{id ? 'Save changes' : 'Create action set'}</Button>
            <Link href={href('/actions', { project })} class="button ghost">Cancel</Link>
          </div>
        </div>
      </form>
    </div>
  )
}

/**
 * The endpoint's latest signal (the list's element [0], newest first), fetched again every 5 s
 * as Unleash's form does, with its flattened fields as filter suggestions.
 */
function LatestPayload({ endpointId, onUse }: { endpointId: number; onUse: (path: string, value: string) => void }) {
  const api = useApi()
  const latest = useLoad(
    async () => (await api.get<{ signalEndpointSignals: Signal[] }>(`/api/admin/signal-endpoints/${seg(endpointId)}/signals?limit=1`)).signalEndpointSignals[0] ?? null,
    [endpointId],
  )
  usePolling(latest.reload, SIGNALS_POLL_MS)
  const fields = latest.data ? [...flattenPayload(latest.data.payload)] : []
  return (
    <div class="latest-payload">
      <h3>Latest payload</h3>
      <ErrorNote error={latest.error} focus={false} />
      <datalist id="payload-paths">
        {fields.map(([path]) => <option key={path} value={path} />)}
      </datalist>
      {latest.data === undefined ? (
        !latest.error && <Loading what="the latest signal" />
      ) : latest.data === null ? (
        <p class="muted">This endpoint has received no signal yet. Send one, and its fields appear here to build filters from.</p>
      ) : (
        <div class="latest-grid">
          <div>
            <p class="muted small">Received <Time iso={latest.data.createdAt} /></p>
            <JsonView value={latest.data.payload} label="Latest payload" />
          </div>
          {fields.length > 0 && (
            <div>
              <p class="muted small">Fields (click to filter on one)</p>
              <ul class="field-chips">
                {fields.map(([path, value]) => (
                  <li key={path}>
                    <button type="button" class="chip" onClick={() => onUse(path, value === null || value === undefined ? '' : String(value))}>
                      <code>{path}</code> = {JSON.stringify(value)}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      )}
    </div>
  )
}
