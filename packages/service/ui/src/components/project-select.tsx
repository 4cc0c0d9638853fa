import type { JSX } from 'preact'
import { type ApiError, useApi } from '../api.ts'
import { useLoad } from '../hooks.ts'
import { href, navigate, useLocation } from '../router.tsx'
import type { Project } from '../types.ts'
import { ErrorNote } from './error-note.tsx'

export interface PageProject {
  project: string | undefined
  projects: Project[] | undefined
  /** Why the project list did not load (shown by `select`, with a retry): the page waits for nothing. */
  error: ApiError | undefined
  /** Loads the project list again. */
  reload: () => Promise<void>
  select: JSX.Element
}

/**
 * The page's project: `?project=` when given, else the first with flags (`default` first), else
 * `default`, else the first.
 */
export function useProject(): PageProject {
  const api = useApi()
  const location = useLocation()
  const loaded = useLoad(() => api.get<{ projects: Project[] }>('/api/admin/projects'), [])
  const projects = loaded.data?.projects
  const wanted = location.query.get('project')
  const project = wanted ?? (projects ? pick(projects)?.id : undefined)
  const change = (id: string) => {
    const query = Object.fromEntries(location.query)
    navigate(href(location.path, { ...query, project: id }))
  }
  const select = (
    <div class="field inline">
      <label for="project">Project</label>
      <select id="project" value={project} disabled={!projects} onChange={(e) => change(e.currentTarget.value)}>
        {!projects && project && <option value={project}>{project}</option>}
        {projects?.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name === p.id ? p.id : `${p.name} (${p.id})`}
          </option>
        ))}
      </select>
      <ErrorNote error={loaded.error} />
    </div>
  )
  return { project, projects, error: loaded.error, reload: loaded.reload, select }
}

function pick(projects: Project[]): Project | undefined {
  const withFlags = projects.filter((p) => p.featureCount > 0)
  return (
    withFlags.find((p) => p.id === 'default') ?? withFlags[0] ?? projects.find((p) => p.id === 'default') ?? projects[0]
  )
}
