import { useEffect, useState } from 'preact/hooks'
import { useApi } from '../../api.ts'
import { Button, Field } from '../../components/controls.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { useAction } from '../../hooks.ts'
import type { Project } from '../../types.ts'
import type { ApiToken, Environment } from './admin-types.ts'

type NewTokenType = 'client' | 'frontend' | 'admin'

const TYPES: { type: NewTokenType; label: string; what: string }[] = [
  { type: 'client', label: 'Client', what: 'server SDKs and the proxy: reads flag configuration of one environment' },
  {
    type: 'frontend',
    label: 'Frontend',
    what: "browser and mobile SDKs on the proxy's /api/frontend: evaluated results only",
  },
  { type: 'admin', label: 'Admin', what: 'the admin API: changes everything, in every project and environment' },
]

const EXPIRIES: { value: string; label: string; days?: number }[] = [
  { value: 'never', label: 'Never' },
  { value: '7', label: 'In 7 days', days: 7 },
  { value: '30', label: 'In 30 days', days: 30 },
  { value: '90', label: 'In 90 days', days: 90 },
  { value: '365', label: 'In a year', days: 365 },
  { value: 'date', label: 'On a day I choose' },
]

interface Form {
  name: string
  type: NewTokenType
  allProjects: boolean
  projects: string[]
  environment: string
  expiry: string
  date: string
}

type Problems = Partial<Record<'token-name' | 'token-projects' | 'token-environment' | 'token-date', string>>

/** What is wrong with the form, by the id of the field to show it at (and focus). */
function check(form: Form, today: string): Problems {
  const problems: Problems = {}
  if (!form.name.trim()) problems['token-name'] = 'Token name is required.'
  if (form.type !== 'admin') {
    if (!form.allProjects && form.projects.length === 0)
      problems['token-projects'] = 'Choose at least one project, or all projects.'
    if (!form.environment) problems['token-environment'] = 'Choose an environment.'
  }
  if (form.expiry === 'date') {
    if (!form.date) problems['token-date'] = 'Choose the day the token expires.'
    else if (form.date < today) problems['token-date'] = 'The day can not be in the past.'
  }
  return problems
}

/** When the token expires: the end of the chosen (local) day, or that many days from now. */
function expiresAt(form: Form): string | undefined {
  if (form.expiry === 'date') return new Date(`${form.date}T23:59:59`).toISOString()
  const days = EXPIRIES.find((e) => e.value === form.expiry)?.days
  return days ? new Date(Date.now() + days * 86_400_000).toISOString() : undefined
}

/** The body of POST /api/admin/api-tokens (routes/admin/api-tokens.ts): an admin token has no scope. */
function toBody(form: Form) {
  const expiry = expiresAt(form)
  return {
    tokenName: form.name.trim(),
    type: form.type,
    ...(form.type === 'admin'
      ? {}
      : { environment: form.environment, projects: form.allProjects ? ['*'] : form.projects }),
    ...(expiry ? { expiresAt: expiry } : {}),
  }
}

const localDay = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`

/**
 * Create a client, frontend or admin token; `onCreated` receives it with its full secret, once.
 * A refusal may come from choices gone stale (a project deleted meanwhile): `onRefused` loads
 * them again, and chosen projects that no longer exist are dropped.
 */
export function ApiTokenForm({
  projects,
  environments,
  onCreated,
  onRefused,
}: {
  projects: Project[]
  environments: Environment[]
  onCreated: (token: ApiToken) => Promise<void>
  onRefused: () => Promise<void>
}) {
  const api = useApi()
  const action = useAction()
  const [form, setForm] = useState<Form>({
    name: '',
    type: 'client',
    allProjects: true,
    projects: [],
    environment: '',
    expiry: 'never',
    date: '',
  })
  const [checked, setChecked] = useState(false)
  // Choices that no longer exist are dropped; tokens are usually for development first, as the demo's are.
  useEffect(() => {
    if (!environments.some((e) => e.name === form.environment)) {
      setForm((f) => ({
        ...f,
        environment: (environments.find((e) => e.name === 'development') ?? environments[0])?.name ?? '',
      }))
    }
  }, [environments])
  useEffect(() => {
    const existing = form.projects.filter((id) => projects.some((p) => p.id === id))
    if (existing.length !== form.projects.length) setForm((f) => ({ ...f, projects: existing }))
  }, [projects])

  const today = localDay(new Date())
  const problems = checked ? check(form, today) : {}
  const update = (patch: Partial<Form>) => setForm({ ...form, ...patch })
  const toggleProject = (id: string, on: boolean) =>
    update({ projects: on ? [...form.projects, id] : form.projects.filter((p) => p !== id) })

  const submit = async (event: Event) => {
    event.preventDefault()
    setChecked(true)
    const first = Object.keys(check(form, today))[0]
    if (first) {
      document.getElementById(first)?.focus()
      return
    }
    const created = await action.run(async () => {
      const token = await api.post<ApiToken>('/api/admin/api-tokens', toBody(form))
      setForm({ ...form, name: '' })
      setChecked(false)
      await onCreated(token)
    })
    if (!created) await onRefused()
  }

  const scoped = form.type !== 'admin'
  return (
    <form class="form-grid token-form" onSubmit={submit} noValidate aria-label="New API token">
      <Field
        id="token-name"
        label="Name"
        hint="Who or what uses it, e.g. checkout-service."
        error={problems['token-name']}
      >
        <input
          id="token-name"
          value={form.name}
          autoComplete="off"
          aria-invalid={problems['token-name'] ? true : undefined}
          aria-describedby={problems['token-name'] ? 'token-name-error' : 'token-name-hint'}
          onInput={(e) => update({ name: e.currentTarget.value })}
        />
      </Field>

      <fieldset class="choice-group span-all">
        <legend>Type</legend>
        {TYPES.map((t) => (
          <label key={t.type} class="choice">
            <input
              type="radio"
              name="token-type"
              value={t.type}
              checked={form.type === t.type}
              onChange={() => update({ type: t.type })}
            />
            <span>
              <strong>{t.label}</strong> <span class="muted">— {t.what}</span>
            </span>
          </label>
        ))}
      </fieldset>

      {scoped && (
        <fieldset
          class="choice-group"
          aria-describedby={problems['token-projects'] ? 'token-projects-error' : undefined}
        >
          <legend>Projects</legend>
          <label class="choice">
            <input
              type="radio"
              name="token-scope"
              checked={form.allProjects}
              onChange={() => update({ allProjects: true })}
            />
            <span>All projects, also those made later</span>
          </label>
          <label class="choice">
            <input
              type="radio"
              name="token-scope"
              checked={!form.allProjects}
              onChange={() => update({ allProjects: false })}
            />
            <span>Only these:</span>
          </label>
          {!form.allProjects && (
            <div
              class="project-checks"
              id="token-projects"
              tabIndex={-1}
              role="group"
              aria-label="Projects of the token"
            >
              {projects.map((p) => (
                <label key={p.id} class="checkbox">
                  <input
                    type="checkbox"
                    value={p.id}
                    checked={form.projects.includes(p.id)}
                    onChange={(e) => toggleProject(p.id, e.currentTarget.checked)}
                  />
                  {p.name === p.id ? p.id : `${p.name} (${p.id})`}
                </label>
              ))}
            </div>
          )}
          {problems['token-projects'] && (
            <p class="field-error" id="token-projects-error" role="alert">
              {problems['token-projects']}
            </p>
          )}
        </fieldset>
      )}

      {scoped && (
        <Field
          id="token-environment"
          label="Environment"
          hint="A client or frontend token sees one environment."
          error={problems['token-environment']}
        >
          <select
            id="token-environment"
            value={form.environment}
            aria-invalid={problems['token-environment'] ? true : undefined}
            onChange={(e) => update({ environment: e.currentTarget.value })}
          >
            {environments.map((env) => (
              <option key={env.name} value={env.name}>
                {env.name}
                {env.enabled ? '' : ' (disabled)'}
              </option>
            ))}
          </select>
        </Field>
      )}

      <div class="expiry">
        <Field id="token-expiry" label="Expires">
          <select id="token-expiry" value={form.expiry} onChange={(e) => update({ expiry: e.currentTarget.value })}>
            {EXPIRIES.map((e) => (
              <option key={e.value} value={e.value}>
                {e.label}
              </option>
            ))}
          </select>
        </Field>
        {form.expiry === 'date' && (
          <Field id="token-date" label="Expires at the end of" error={problems['token-date']}>
            <input
              id="token-date"
              type="date"
              min={today}
              value={form.date}
              aria-invalid={problems['token-date'] ? true : undefined}
              onInput={(e) => update({ date: e.currentTarget.value })}
            />
          </Field>
        )}
      </div>

      <div class="form-actions span-all">
        <Button type="submit" variant="primary" busy={action.busy}>
          Create token
        </Button>
      </div>
      <ErrorNote error={action.error} class="span-all" />
    </form>
  )
}
