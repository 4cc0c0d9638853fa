import { useState } from 'preact/hooks'
import { seg, useApi } from '../../api.ts'
import { Badge, Button, Card, Empty, Field, Loading } from '../../components/controls.tsx'
import { EnabledSwitch } from '../../components/enabled-switch.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { useAction, useLoad, useTitle } from '../../hooks.ts'
import { href, Link } from '../../router.tsx'
import type { Project, ProjectDetail } from '../../types.ts'
import { urlSafeNameProblem } from './admin-rules.ts'
import type { Environment } from './admin-types.ts'
import './admin.css'

/** Unleash's environment types (its UI offers these four). */
const TYPES = ['development', 'test', 'preproduction', 'production']

/** Environments: create one, turn one on or off, see which projects use it. */
export function EnvironmentsPage() {
  useTitle('Environments')
  const api = useApi()
  const environments = useLoad(
    async () => (await api.get<{ environments: Environment[] }>('/api/admin/environments')).environments,
    [],
  )
  // The environment list counts projects; their names come from each project's own answer.
  const usedBy = useLoad(async () => {
    const projects = (await api.get<{ projects: Project[] }>('/api/admin/projects')).projects
    const details = await Promise.all(projects.map((p) => api.get<ProjectDetail>(`/api/admin/projects/${seg(p.id)}`)))
    const byEnvironment = new Map<string, string[]>()
    for (const detail of details)
      for (const env of detail.environments) byEnvironment.set(env, [...(byEnvironment.get(env) ?? []), detail.id])
    return byEnvironment
  }, [])
  const reload = async () => {
    await Promise.all([environments.reload(), usedBy.reload()])
  }

  return (
    <div class="page admin-page">
      <div class="page-header">
        <h1>Environments</h1>
      </div>
      <p class="lead">
        Each flag has its own state and strategies per environment; a client or frontend token sees one environment. A
        disabled environment is not added to new projects.
      </p>
      <CreateEnvironment onCreated={reload} />
      <ErrorNote error={environments.error ?? usedBy.error} />
      {!environments.data ? (
        !environments.error && <Loading what="environments" />
      ) : (
        <Card title={`Environments (${environments.data.length})`} class="flush" id="environments">
          {environments.data.length === 0 ? (
            <Empty>No environments.</Empty>
          ) : (
            <ul class="rows">
              {environments.data.map((env) => (
                <EnvironmentRow
                  key={env.name}
                  environment={env}
                  projects={usedBy.data ? (usedBy.data.get(env.name) ?? []) : undefined}
                  onChanged={reload}
                />
              ))}
            </ul>
          )}
        </Card>
      )}
    </div>
  )
}

function EnvironmentRow({
  environment,
  projects,
  onChanged,
}: {
  environment: Environment
  projects: string[] | undefined
  onChanged: () => Promise<void>
}) {
  const toggle = useAction()
  const path = `/api/admin/environments/${seg(environment.name)}`
  return (
    <li class="row environment-row" data-environment={environment.name}>
      <div class="row-main">
        <span class="row-title">{environment.name}</span>
        <Badge tone={environment.type === 'production' ? 'warn' : 'neutral'}>{environment.type}</Badge>
        {environment.protected && <Badge title="It can not be deleted">protected</Badge>}
        <dl class="facts">
          <div>
            <dt>Sort order</dt>
            <dd>{environment.sortOrder}</dd>
          </div>
          <div>
            <dt>Flags on</dt>
            <dd>{environment.enabledToggleCount}</dd>
          </div>
          <div>
            <dt>Projects</dt>
            <dd data-testid="projects">
              {projects === undefined
                ? environment.projectCount
                : projects.length === 0
                  ? 'none'
                  : projects.map((p, i) => (
                      <span key={p}>
                        {i > 0 && ', '}
                        <Link href={href('/flags', { project: p })}>{p}</Link>
                      </span>
                    ))}
            </dd>
          </div>
        </dl>
        <ErrorNote error={toggle.error} />
      </div>
      <div class="row-side">
        <EnabledSwitch
          name={environment.name}
          enabled={environment.enabled}
          path={path}
          action={toggle}
          onChanged={onChanged}
        />
      </div>
    </li>
  )
}

function CreateEnvironment({ onCreated }: { onCreated: () => Promise<void> }) {
  const api = useApi()
  const action = useAction()
  const [name, setName] = useState('')
  const [type, setType] = useState('development')
  const [checked, setChecked] = useState(false)
  const found = urlSafeNameProblem('Name', name)
  const problem = checked ? found : undefined
  const submit = (event: Event) => {
    event.preventDefault()
    setChecked(true)
    if (found) {
      document.getElementById('environment-name')?.focus()
      return
    }
    void action.run(async () => {
      await api.post('/api/admin/environments', { name, type })
      setName('')
      setChecked(false)
      await onCreated()
    })
  }
  return (
    <Card title="New environment" id="new-environment">
      <form class="form-grid" onSubmit={submit} noValidate aria-label="New environment">
        <Field
          id="environment-name"
          label="Name"
          hint="Letters, digits, -, ., _ and ~; in tokens and URLs."
          error={problem}
        >
          <input
            id="environment-name"
            value={name}
            autoComplete="off"
            spellcheck={false}
            placeholder="staging"
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'environment-name-error' : 'environment-name-hint'}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </Field>
        <Field id="environment-type" label="Type">
          <select id="environment-type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </Field>
        <div class="form-actions">
          <Button type="submit" variant="primary" busy={action.busy}>
            Create environment
          </Button>
        </div>
        <ErrorNote error={action.error} class="span-all" />
      </form>
    </Card>
  )
}
