import { useState } from 'preact/hooks'
import { useApi } from '../../api.ts'
import { Button, Card, Empty, Field, Loading } from '../../components/controls.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { useAction, useLoad, useTitle } from '../../hooks.ts'
import { idFromName, urlSafeNameProblem } from './admin-rules.ts'
import type { AdminProject, Environment } from './admin-types.ts'
import { ProjectCard } from './project-card.tsx'
import './admin.css'

/** Projects: create one; per project its flags, environments and their default strategies. */
export function ProjectsPage() {
  useTitle('Projects')
  const api = useApi()
  const projects = useLoad(
    async () => (await api.get<{ projects: AdminProject[] }>('/api/admin/projects')).projects,
    [],
  )
  const environments = useLoad(
    async () => (await api.get<{ environments: Environment[] }>('/api/admin/environments')).environments,
    [],
  )
  const error = projects.error ?? environments.error
  return (
    <div class="page admin-page">
      <div class="page-header">
        <h1>Projects</h1>
      </div>
      <p class="lead">
        A project groups flags and the environments they are served in. Each environment of a project has a default
        strategy: what a flag gets when it is turned on there without one.
      </p>
      <CreateProject onCreated={projects.reload} />
      <ErrorNote error={error} />
      {!projects.data || !environments.data ? (
        !error && <Loading what="projects" />
      ) : projects.data.length === 0 ? (
        <Empty>No projects yet: create one above.</Empty>
      ) : (
        <ul class="stack" aria-label="Projects">
          {projects.data.map((project) => (
            <li key={project.id} data-project={project.id}>
              <ProjectCard project={project} environments={environments.data ?? []} onChanged={projects.reload} />
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

function CreateProject({ onCreated }: { onCreated: () => Promise<void> }) {
  const api = useApi()
  const action = useAction()
  const [name, setName] = useState('')
  const [id, setId] = useState('')
  // The id follows the name until the person edits it.
  const [idEdited, setIdEdited] = useState(false)
  const [description, setDescription] = useState('')
  const [checked, setChecked] = useState(false)
  // By the id of the field each is shown at (and focused when the form is sent).
  const found: Record<string, string | undefined> = {
    'project-name': name.trim() ? undefined : 'Name is required.',
    'project-id': urlSafeNameProblem('Id', id),
  }
  const problems = checked ? found : {}
  const submit = (event: Event) => {
    event.preventDefault()
    setChecked(true)
    const first = Object.keys(found).find((field) => found[field])
    if (first) {
      document.getElementById(first)?.focus()
      return
    }
    void action.run(async () => {
      await api.post('/api/admin/projects', { id, name: name.trim(), description: description.trim() || null })
      setName('')
      setId('')
      setIdEdited(false)
      setDescription('')
      setChecked(false)
      await onCreated()
    })
  }
  return (
    <Card title="New project" id="new-project">
      <form class="form-grid" onSubmit={submit} noValidate aria-label="New project">
        <Field id="project-name" label="Name" error={problems['project-name']}>
          <input
            id="project-name"
            value={name}
            autoComplete="off"
            aria-invalid={problems['project-name'] ? true : undefined}
            onInput={(e) => {
              setName(e.currentTarget.value)
              if (!idEdited) setId(idFromName(e.currentTarget.value))
            }}
          />
        </Field>
        <Field
          id="project-id"
          label="Id"
          hint="In URLs and tokens; can not be changed later."
          error={problems['project-id']}
        >
          <input
            id="project-id"
            value={id}
            autoComplete="off"
            spellcheck={false}
            aria-invalid={problems['project-id'] ? true : undefined}
            aria-describedby={problems['project-id'] ? 'project-id-error' : 'project-id-hint'}
            onInput={(e) => {
              setId(e.currentTarget.value)
              setIdEdited(true)
            }}
          />
        </Field>
        <Field id="project-description" label="Description (optional)">
          <input id="project-description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </Field>
        <div class="form-actions">
          <Button type="submit" variant="primary" busy={action.busy}>
            Create project
          </Button>
        </div>
        <ErrorNote error={action.error} class="span-all" />
      </form>
    </Card>
  )
}
