import { useApi } from '../../api.ts'
import { Button, Card, Empty, Loading } from '../../components/controls.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { useLoad } from '../../hooks.ts'
import type { ChangeEventPage } from '../../types.ts'
import { ChangeEventView } from './change-event.tsx'
import './history.css'

export const PAGE_SIZE = 25

/** Unleash 8's search filters: each value as `IS:<value>`. */
export interface ChangeFilter {
  project?: string
  feature?: string
  createdBy?: string
}

export function searchPath(filter: ChangeFilter, page: number): string {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(page * PAGE_SIZE) })
  for (const [key, value] of Object.entries(filter)) if (value) query.set(key, `IS:${value}`)
  return `/api/admin/search/events?${query}`
}

/** One page of the event log under `filter`, newest first, with the pager. */
export function ChangeLog({
  filter,
  page,
  onPage,
  empty,
}: {
  filter: ChangeFilter
  page: number
  onPage: (page: number) => void
  empty: string
}) {
  const api = useApi()
  const path = searchPath(filter, page)
  const log = useLoad(() => api.get<ChangeEventPage>(path), [path])
  if (!log.data)
    return log.error ? (
      <div class="stack">
        <ErrorNote error={log.error} focus />
        <Button onClick={log.reload}>Try again</Button>
      </div>
    ) : (
      <Loading what="the history" />
    )
  const { events, total } = log.data
  if (events.length === 0 && page === 0)
    return (
      <Card>
        <Empty>{empty}</Empty>
      </Card>
    )
  const first = page * PAGE_SIZE + 1
  const last = page * PAGE_SIZE + events.length
  return (
    <div class="stack">
      <ErrorNote error={log.error} />
      <ol class="stack changes" aria-label="Changes, newest first">
        {events.map((event) => (
          <ChangeEventView key={event.id} event={event} />
        ))}
      </ol>
      <nav class="pager" aria-label="Pages">
        <Button size="small" disabled={page === 0} onClick={() => onPage(page - 1)}>
          Newer
        </Button>
        <span class="muted" data-testid="pager-status">
          {events.length === 0 ? `None past ${total}` : `${first}–${last} of ${total}`}
        </span>
        <Button size="small" disabled={last >= total} onClick={() => onPage(page + 1)}>
          Older
        </Button>
      </nav>
    </div>
  )
}
