// Create (no `id`) or edit a segment: name, description, the project it belongs to (or none: all
// projects), and its constraints, with the strategy form's editor and the engine's checks.
import { useEffect, useState } from 'preact/hooks'
import { type ApiError, seg, useApi } from '../../api.ts'
import { Button, Card, Field, Loading } from '../../components/controls.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { useAction, useLoad, useTitle } from '../../hooks.ts'
import { Link, navigate } from '../../router.tsx'
import type { Project } from '../../types.ts'
import { ConstraintsEditor } from '../strategies/constraints-editor.tsx'
import {
  type ConstraintRow,
  constraintProblems,
  constraintServerProblems,
  fromConstraint,
  type Problems,
  toConstraint,
} from '../strategies/constraints-model.ts'
import { ProblemsNote } from '../strategies/problems-note.tsx'
import type { SegmentDetail, SegmentUse } from './segment-types.ts'
import './segments.css'

interface SegmentForm {
  name: string
  description: string
  project: string
  constraints: ConstraintRow[]
}

const NAME = 'segment-name'

export function SegmentFormPage({ id }: { id?: number | undefined }) {
  useTitle(id ? 'Edit segment' : 'New segment')
  const api = useApi()
  const existing = useLoad(
    async () => (id === undefined ? null : api.get<SegmentDetail>(`/api/admin/segments/${seg(id)}`)),
    [id],
  )
  const uses = useLoad(
    async () =>
      id === undefined
        ? []
        : (await api.get<{ strategies: SegmentUse[] }>(`/api/admin/segments/${seg(id)}/strategies`)).strategies,
    [id],
  )
  const projects = useLoad(async () => (await api.get<{ projects: Project[] }>('/api/admin/projects')).projects, [])
  const [form, setForm] = useState<SegmentForm>()
  const [submitted, setSubmitted] = useState(false)
  const [attempt, setAttempt] = useState(0)
  const save = useAction()

  useEffect(() => {
    if (existing.data) {
      const s = existing.data
      setForm({
        name: s.name,
        description: s.description ?? '',
        project: s.project ?? '',
        constraints: s.constraints.map(fromConstraint),
      })
    } else if (existing.data === null) setForm({ name: '', description: '', project: '', constraints: [] })
  }, [existing.data])

  if (!form)
    return (
      <div class="page">{existing.error ? <ErrorNote error={existing.error} /> : <Loading what="the segment" />}</div>
    )

  const update = (patch: Partial<SegmentForm>) => setForm({ ...form, ...patch })
  const check = (all: boolean): Problems => ({
    ...(all && !form.name.trim() ? { [NAME]: 'Name the segment, such as beta-testers.' } : {}),
    ...constraintProblems(form.constraints, all),
  })
  const local = check(submitted)
  const problems = { ...serverProblems(save.error, form), ...local }
  const submit = (event: Event) => {
    event.preventDefault()
    setSubmitted(true)
    if (Object.keys(check(true)).length > 0) {
      setAttempt(attempt + 1)
      return
    }
    void save.run(async () => {
      const body = {
        name: form.name.trim(),
        description: form.description.trim() || null,
        project: form.project || null,
        constraints: form.constraints.map(toConstraint),
      }
      if (id === undefined) await api.post('/api/admin/segments', body)
      else await api.put(`/api/admin/segments/${seg(id)}`, body)
      navigate('/segments')
      window.scrollTo(0, 0)
    })
  }

  const used = uses.data?.length ?? 0
  return (
    <div class="page">
      <p class="breadcrumb">
        <Link href="/segments">Segments</Link>
      </p>
      <h1>{id === undefined ? 'New segment' : `Edit ${existing.data?.name ?? 'segment'}`}</h1>
      {used > 0 && (
        <p class="notice">
          {used} strateg{used === 1 ? 'y uses' : 'ies use'} this segment: what you save here applies to{' '}
          {used === 1 ? 'it' : 'them'} at once.
        </p>
      )}
      <ErrorNote error={projects.error ?? uses.error} />
      <form class="stack" onSubmit={submit} noValidate>
        <Card title="About">
          <div class="form-grid">
            <Field id={NAME} label="Name" error={problems[NAME]}>
              <input
                id={NAME}
                value={form.name}
                autocomplete="off"
                aria-invalid={problems[NAME] ? true : undefined}
                onInput={(e) => update({ name: e.currentTarget.value })}
              />
            </Field>
            <Field
              id="segment-project"
              label="Project"
              hint="A project's segment can be used only by its flags' strategies."
            >
              <select
                id="segment-project"
                value={form.project}
                onChange={(e) => update({ project: e.currentTarget.value })}
              >
                <option value="">All projects</option>
                {form.project && !projects.data?.some((p) => p.id === form.project) && (
                  <option value={form.project}>{form.project}</option>
                )}
                {projects.data?.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name === p.id ? p.id : `${p.name} (${p.id})`}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="segment-description" label="Description (optional)">
              <input
                id="segment-description"
                value={form.description}
                onInput={(e) => update({ description: e.currentTarget.value })}
              />
            </Field>
          </div>
        </Card>
        <Card title="Constraints">
          <p class="hint card-hint">A context is in the segment when every constraint is true.</p>
          <ConstraintsEditor
            rows={form.constraints}
            problems={problems}
            what="the segment"
            onChange={(constraints) => update({ constraints })}
          />
        </Card>
        <div class="form-footer">
          <ProblemsNote problems={local} attempt={attempt} />
          <ErrorNote error={save.error} />
          <div class="form-actions">
            <Button type="submit" variant="primary" busy={save.busy}>
              {id === undefined ? 'Create segment' : 'Save segment'}
            </Button>
            <Link href="/segments" class="button ghost">
              Cancel
            </Link>
          </div>
        </div>
      </form>
    </div>
  )
}

/** The service's answer on the fields it names: a taken name, `body.constraints.<i>…`. */
function serverProblems(error: ApiError | undefined, form: SegmentForm): Problems {
  if (!error) return {}
  const problems = constraintServerProblems(error.details, form.constraints, 'body.constraints')
  if (error.name === 'NameExistsError') problems[NAME] = error.message
  for (const detail of error.details) if (detail.path === 'body.name') problems[NAME] = detail.message
  return problems
}
