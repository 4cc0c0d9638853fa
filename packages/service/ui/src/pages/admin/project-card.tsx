import { useId, useState } from 'preact/hooks'
import { seg, useApi } from '../../api.ts'
import { Button, Card, Empty, Loading } from '../../components/controls.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { useAction, useLoad } from '../../hooks.ts'
import { href, Link } from '../../router.tsx'
import type { ProjectDetail } from '../../types.ts'
import type { AdminProject, Environment } from './admin-types.ts'
import { ProjectEnvironment } from './project-environment.tsx'

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`

/** One project: what it is, its flags, its environments (each with its default strategy), adding one. */
export function ProjectCard({
  project,
  environments,
  onChanged,
}: {
  project: AdminProject
  /** Every environment of the instance, in their sort order. */
  environments: Environment[]
  onChanged: () => Promise<void>
}) {
  const api = useApi()
  const detail = useLoad(() => api.get<ProjectDetail>(`/api/admin/projects/${seg(project.id)}`), [project.id])
  const changed = async () => {
    await detail.reload()
    await onChanged()
  }
  const mine = detail.data?.environments ?? []
  return (
    <Card
      class="project-card"
      id={`project-${project.id}`}
      title={
        <>
          {project.name}
          {project.name !== project.id && <span class="muted small project-id"> {project.id}</span>}
        </>
      }
      actions={
        <Link href={href('/flags', { project: project.id })} class="button small">
          {plural(project.featureCount, 'flag')}
        </Link>
      }
    >
      {project.description && <p class="muted">{project.description}</p>}
      <ErrorNote error={detail.error} focus={false} />
      {!detail.data ? (
        !detail.error && <Loading what="its environments" />
      ) : (
        <>
          <h3 class="sub-heading">Environments</h3>
          {mine.length === 0 ? (
            <Empty>No environments: its flags are served nowhere. Add one below.</Empty>
          ) : (
            <ul class="rows">
              {mine.map((env) => (
                <ProjectEnvironment
                  key={env}
                  project={project}
                  environment={env}
                  info={environments.find((e) => e.name === env)}
                  onRemoved={changed}
                />
              ))}
            </ul>
          )}
          <AddEnvironment
            project={project}
            choices={environments.filter((e) => !mine.includes(e.name))}
            onAdded={changed}
          />
        </>
      )}
    </Card>
  )
}

function AddEnvironment({
  project,
  choices,
  onAdded,
}: {
  project: AdminProject
  choices: Environment[]
  onAdded: () => Promise<void>
}) {
  const api = useApi()
  const id = useId()
  const action = useAction()
  const [chosen, setChosen] = useState('')
  const value = choices.some((e) => e.name === chosen) ? chosen : (choices[0]?.name ?? '')
  if (choices.length === 0) return <p class="muted small">Every environment is in this project.</p>
  const submit = (event: Event) => {
    event.preventDefault()
    void action.run(async () => {
      await api.post(`/api/admin/projects/${seg(project.id)}/environments`, { environment: value })
      await onAdded()
    })
  }
  return (
    <form class="inline-form add-environment" onSubmit={submit} aria-label={`Add an environment to ${project.id}`}>
      <div class="field">
        <label for={`${id}-env`}>Add an environment</label>
        <select id={`${id}-env`} value={value} onChange={(e) => setChosen(e.currentTarget.value)}>
          {choices.map((e) => (
            <option key={e.name} value={e.name}>
              {e.name} ({e.type}
              {e.enabled ? '' : ', disabled'})
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" busy={action.busy}>
        Add
      </Button>
      <ErrorNote error={action.error} class="span-all" />
    </form>
  )
}
