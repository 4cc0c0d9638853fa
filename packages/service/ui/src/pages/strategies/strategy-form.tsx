// Add (no `id`) or edit one strategy of a flag in one environment: its kind and parameters,
// constraints, segments and variants. What the engine would reject is flagged as it is typed
// (the engine is bundled in this page only), and a save is refused, saying why, until it is fixed.
import { useEffect, useState } from 'preact/hooks'
import { seg, useApi } from '../../api.ts'
import { Button, Card, Empty, Loading } from '../../components/controls.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { useAction, useLoad, useTitle } from '../../hooks.ts'
import { Link, navigate } from '../../router.tsx'
import type { Strategy } from '../../types.ts'
import type { SegmentDetail } from '../segments/segment-types.ts'
import { ConstraintsEditor } from './constraints-editor.tsx'
import { ProblemsNote } from './problems-note.tsx'
import {
  checkForm,
  FIELD,
  fromDefault,
  fromStrategy,
  LEGACY_KINDS,
  NEW_KINDS,
  serverProblems,
  type StrategyForm,
  toBody,
  withKind,
} from './strategy-form-model.ts'
import { STRATEGY_LABELS, strategyKindLabel } from './strategy-labels.ts'
import { StrategyParameters } from './strategy-parameters.tsx'
import { StrategyDetails } from './strategy-summary.tsx'
import { VariantsEditor } from './variants-editor.tsx'
import { variantShares } from './variants-model.ts'

export function StrategyFormPage({
  project,
  name,
  environment,
  id,
}: {
  project: string
  name: string
  environment: string
  id?: string | undefined
}) {
  useTitle(id ? `Edit strategy · ${name}` : `New strategy · ${name}`)
  const api = useApi()
  const base = `/api/admin/projects/${seg(project)}/features/${seg(name)}/environments/${seg(environment)}/strategies`
  const flagPage = `/projects/${seg(project)}/flags/${seg(name)}`
  const existing = useLoad(async () => (id ? api.get<Strategy>(`${base}/${seg(id)}`) : null), [base, id])
  // A new strategy starts as the project's default one for the environment, as in Unleash.
  const projectDefault = useLoad(
    async () =>
      id
        ? null
        : api.get<Omit<Strategy, 'id' | 'sortOrder'>>(
            `/api/admin/projects/${seg(project)}/environments/${seg(environment)}/default-strategy`,
          ),
    [project, environment, id],
  )
  const projectStickiness = useLoad(
    async () =>
      (await api.get<{ defaultStickiness?: string }>(`/api/admin/projects/${seg(project)}`)).defaultStickiness ??
      'default',
    [project],
  )
  const segments = useLoad(
    async () => (await api.get<{ segments: SegmentDetail[] }>('/api/admin/segments')).segments,
    [],
  )
  const [form, setForm] = useState<StrategyForm>()
  const [submitted, setSubmitted] = useState(false)
  const [attempt, setAttempt] = useState(0)
  const save = useAction()

  useEffect(() => {
    if (existing.data) setForm(fromStrategy(existing.data))
    else if (projectDefault.data) setForm(fromDefault(projectDefault.data, name))
  }, [existing.data, projectDefault.data])

  const loadError = existing.error ?? projectDefault.error
  if (!form) {
    return <div class="page">{loadError ? <ErrorNote error={loadError} /> : <Loading what="the strategy" />}</div>
  }

  const stickiness = projectStickiness.data ?? 'default'
  const update = (patch: Partial<StrategyForm>) => setForm({ ...form, ...patch })
  const local = checkForm(form, submitted)
  const problems = { ...serverProblems(save.error, form), ...local }
  const submit = (event: Event) => {
    event.preventDefault()
    setSubmitted(true)
    if (Object.keys(checkForm(form, true)).length > 0) {
      setAttempt(attempt + 1)
      return
    }
    void save.run(async () => {
      const body = toBody(form)
      if (id) await api.put(`${base}/${seg(id)}`, body)
      else await api.post(base, body)
      navigate(flagPage)
      window.scrollTo(0, 0)
    })
  }

  const kinds = [
    ...NEW_KINDS,
    ...(LEGACY_KINDS.includes(form.name) ? [form.name] : []),
    ...(STRATEGY_LABELS[form.name] ? [] : [form.name]),
  ]
  const body = toBody(form)
  const shares = variantShares(form.variants)
  const preview = { ...body, variants: body.variants.map((v, i) => ({ ...v, weight: shares[i] ?? 0 })) }
  const segmentName = (segmentId: number) =>
    segments.data?.find((s) => s.id === segmentId)?.name ?? `segment ${segmentId}`
  return (
    <div class="page strategy-form-page">
      <p class="breadcrumb">
        <Link href={flagPage}>
          {project} › {name}
        </Link>
      </p>
      <h1>{id ? 'Edit strategy' : 'Add a strategy'}</h1>
      <p class="lead">
        For <strong>{name}</strong> in <strong>{environment}</strong>. The flag is on for a context when any of its
        strategies matches it.
      </p>
      <form class="stack" onSubmit={submit} noValidate>
        <Card title="Strategy">
          <div class="form-grid">
            <div class="field">
              <label for={FIELD.kind}>Kind</label>
              <select
                id={FIELD.kind}
                value={form.name}
                onChange={(e) => setForm(withKind(form, e.currentTarget.value, name, stickiness))}
              >
                {kinds.map((kind) => (
                  <option key={kind} value={kind}>
                    {strategyKindLabel(kind)}
                  </option>
                ))}
              </select>
              {problems[FIELD.kind] && <p class="field-error">{problems[FIELD.kind]}</p>}
            </div>
            <div class="field">
              <label for="strategy-title">Title (optional)</label>
              <input
                id="strategy-title"
                value={form.title}
                placeholder={strategyKindLabel(form.name)}
                onInput={(e) => update({ title: e.currentTarget.value })}
              />
            </div>
            <label class="checkbox span-all">
              <input
                type="checkbox"
                checked={form.disabled}
                onChange={(e) => update({ disabled: e.currentTarget.checked })}
              />{' '}
              Disabled: keep it here, but SDKs do not receive it
            </label>
          </div>
          <div class="strategy-parameters">
            <StrategyParameters form={form} flag={name} problems={problems} onChange={update} />
          </div>
        </Card>

        <Card title="Constraints">
          <p class="hint card-hint">The strategy applies only when every constraint is true.</p>
          <ConstraintsEditor
            rows={form.constraints}
            problems={problems}
            what="the strategy"
            environment={environment}
            onChange={(constraints) => update({ constraints })}
          />
        </Card>

        <Card
          title="Segments"
          actions={
            <Link href="/segments" class="button small ghost">
              Manage segments
            </Link>
          }
        >
          <SegmentChoice
            segments={(segments.data ?? []).filter(
              (s) => !s.project || s.project === project || form.segments.includes(s.id),
            )}
            loading={segments.loading && !segments.data}
            chosen={form.segments}
            problem={problems[FIELD.segments]}
            onChange={(chosen) => update({ segments: chosen })}
          />
          <ErrorNote error={segments.error} />
        </Card>

        <Card title="Variants">
          <p class="hint card-hint">When this strategy matches, SDKs asking for a variant get one of these.</p>
          <VariantsEditor
            variants={form.variants}
            problems={problems}
            stickiness={form.parameters.stickiness ?? ''}
            onChange={(variants) => update({ variants })}
          />
        </Card>

        <Card title="In words" class="preview">
          <StrategyDetails strategy={preview} flag={name} segmentName={segmentName} />
        </Card>

        <div class="form-footer">
          <ProblemsNote problems={local} attempt={attempt} />
          <ErrorNote error={save.error} />
          <div class="form-actions">
            <Button type="submit" variant="primary" busy={save.busy}>
              {id ? 'Save strategy' : 'Add strategy'}
            </Button>
            <Link href={flagPage} class="button ghost">
              Cancel
            </Link>
          </div>
        </div>
      </form>
    </div>
  )
}

/** The segments a strategy can use, as checkboxes; a filter once there are many. */
function SegmentChoice({
  segments,
  loading,
  chosen,
  problem,
  onChange,
}: {
  segments: SegmentDetail[]
  loading: boolean
  chosen: number[]
  problem: string | undefined
  onChange: (chosen: number[]) => void
}) {
  const [filter, setFilter] = useState('')
  if (loading) return <Loading what="segments" />
  if (segments.length === 0)
    return (
      <Empty>
        No segments yet. <Link href="/segments/new">Create one</Link> to share constraints between strategies.
      </Empty>
    )
  const needle = filter.trim().toLowerCase()
  const shown = segments.filter((s) => !needle || chosen.includes(s.id) || s.name.toLowerCase().includes(needle))
  return (
    <fieldset class="segment-choice">
      <legend class="sr-only">Segments the context must also be in</legend>
      <p class="hint">A context must be in every segment chosen.</p>
      {segments.length > 8 && (
        <div class="field">
          <label for="segment-filter">Find a segment</label>
          <input id="segment-filter" type="search" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
        </div>
      )}
      <ul class="segment-options">
        {shown.map((s) => (
          <li key={s.id}>
            <label class="checkbox">
              <input
                type="checkbox"
                checked={chosen.includes(s.id)}
                onChange={(e) =>
                  onChange(e.currentTarget.checked ? [...chosen, s.id] : chosen.filter((x) => x !== s.id))
                }
              />
              <span>
                <strong>{s.name}</strong>{' '}
                <span class="muted">
                  {s.description ? `${s.description} · ` : ''}
                  {s.constraints.length} constraint{s.constraints.length === 1 ? '' : 's'}
                </span>
              </span>
            </label>
          </li>
        ))}
      </ul>
      {problem && (
        <p class="field-error" id={FIELD.segments} tabIndex={-1}>
          {problem}
        </p>
      )}
    </fieldset>
  )
}
