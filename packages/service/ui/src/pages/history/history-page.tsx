import { useApi } from '../../api.ts'
import { Button } from '../../components/controls.tsx'
import { useLoad, useTitle } from '../../hooks.ts'
import { href, navigate, useLocation } from '../../router.tsx'
import type { Project } from '../../types.ts'
import { ChangeLog, type ChangeFilter } from './change-log.tsx'

/** Every change the service recorded, newest first, filtered by project, flag and actor; paged. */
export function HistoryPage() {
  useTitle('History')
  const api = useApi()
  const { query } = useLocation()
  const projects = useLoad(async () => (await api.get<{ projects: Project[] }>('/api/admin/projects')).projects, [])
  const filter: ChangeFilter = {
    project: query.get('project') ?? undefined,
    feature: query.get('feature') ?? undefined,
    createdBy: query.get('createdBy') ?? undefined,
  }
  const page = Math.max(0, Number.parseInt(query.get('page') ?? '0', 10) || 0)
  const go = (next: ChangeFilter, nextPage = 0) =>
    navigate(href('/history', { ...next, page: nextPage > 0 ? String(nextPage) : undefined }))

  const apply = (form: HTMLFormElement) => {
    const data = new FormData(form)
    const value = (name: string) => String(data.get(name) ?? '').trim() || undefined
    go({ project: value('project'), feature: value('feature'), createdBy: value('createdBy') })
  }

  return (
    <div class="page">
      <div class="page-header">
        <h1>History</h1>
      </div>
      <p class="lead">
        Every change to flags, strategies, segments, tokens and projects, newest first: who or what made it, when, and
        what it changed.
      </p>
      <form
        class="toolbar history-filters"
        aria-label="Filter the history"
        key={`${filter.project}|${filter.feature}|${filter.createdBy}`}
        onSubmit={(e) => {
          e.preventDefault()
          apply(e.currentTarget)
        }}
      >
        <div class="field">
          <label for="history-project">Project</label>
          <select id="history-project" name="project" value={filter.project ?? ''}>
            <option value="">All projects</option>
            {filter.project && !projects.data?.some((p) => p.id === filter.project) && (
              <option value={filter.project}>{filter.project}</option>
            )}
            {projects.data?.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name === p.id ? p.id : `${p.name} (${p.id})`}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="history-feature">Flag</label>
          <input id="history-feature" name="feature" value={filter.feature ?? ''} placeholder="any flag" />
        </div>
        <div class="field">
          <label for="history-actor">Changed by</label>
          <input
            id="history-actor"
            name="createdBy"
            value={filter.createdBy ?? ''}
            placeholder="any token, user or action set"
          />
        </div>
        <Button type="submit" variant="primary">
          Filter
        </Button>
        {(filter.project || filter.feature || filter.createdBy) && (
          <Button variant="ghost" onClick={() => go({})}>
            Clear
          </Button>
        )}
      </form>
      <ChangeLog
        filter={filter}
        page={page}
        onPage={(next) => go(filter, next)}
        empty="No change matches these filters."
      />
    </div>
  )
}
