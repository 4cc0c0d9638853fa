// Segments: named sets of constraints that strategies share. Each one in words, where it is
// used (flags and environments, loaded when asked), edit, and delete, which the service refuses
// while a strategy uses it (shown in the dialog).
import { useState } from 'preact/hooks'
import { seg, useApi } from '../../api.ts'
import { Badge, Card, Empty, Loading } from '../../components/controls.tsx'
import { ConfirmButton } from '../../components/confirm-button.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { useLoad, useTitle } from '../../hooks.ts'
import { href, Link, navigate, useLocation } from '../../router.tsx'
import { ConstraintInWords } from '../strategies/strategy-summary.tsx'
import type { SegmentDetail, SegmentUse } from './segment-types.ts'
import './segments.css'

export function SegmentsPage() {
  useTitle('Segments')
  const api = useApi()
  const location = useLocation()
  const segments = useLoad(
    async () => (await api.get<{ segments: SegmentDetail[] }>('/api/admin/segments')).segments,
    [],
  )
  // The search is in the address (`?q=`), so a filtered list can be shared and survives a reload.
  const query = location.query.get('q') ?? ''
  const needle = query.trim().toLowerCase()
  const all = segments.data ?? []
  const shown = all.filter(
    (s) => !needle || s.name.toLowerCase().includes(needle) || (s.description ?? '').toLowerCase().includes(needle),
  )
  return (
    <div class="page">
      <div class="page-header">
        <h1>Segments</h1>
        <Link href="/segments/new" class="button primary">
          New segment
        </Link>
      </div>
      <p class="lead">
        A segment is a named set of constraints that strategies share: change it here, and every strategy using it
        follows.
      </p>
      <div class="toolbar">
        <div class="field grow">
          <label for="segment-search">Search</label>
          <input
            id="segment-search"
            type="search"
            value={query}
            placeholder="Name or description"
            onInput={(e) => navigate(href('/segments', { q: e.currentTarget.value }), { replace: true })}
          />
        </div>
      </div>
      <ErrorNote error={segments.error} />
      <Card class="flush">
        {segments.data && (
          <p class="table-caption" role="status">
            {needle
              ? `${shown.length} of ${all.length} segments match "${query.trim()}"`
              : `${all.length} segment${all.length === 1 ? '' : 's'}`}
          </p>
        )}
        {!segments.data ? (
          !segments.error && (
            <div class="empty">
              <Loading what="segments" />
            </div>
          )
        ) : shown.length === 0 ? (
          <Empty>
            {all.length === 0 ? (
              <>
                No segments yet. <Link href="/segments/new">Make the first one</Link>.
              </>
            ) : (
              'No segment matches the search.'
            )}
          </Empty>
        ) : (
          <ul class="rows segment-rows">
            {shown.map((s) => (
              <SegmentRow key={s.id} segment={s} onDeleted={segments.reload} />
            ))}
          </ul>
        )}
      </Card>
    </div>
  )
}

function SegmentRow({ segment, onDeleted }: { segment: SegmentDetail; onDeleted: () => Promise<void> }) {
  const api = useApi()
  return (
    <li class="row segment-row" data-segment={segment.name}>
      <div class="row-main">
        <div class="segment-heading">
          <span class="row-title">{segment.name}</span>
          <Badge tone={segment.project ? 'info' : 'neutral'}>
            {segment.project ? `project ${segment.project}` : 'all projects'}
          </Badge>
        </div>
        {segment.description && <p class="muted">{segment.description}</p>}
        {segment.constraints.length === 0 ? (
          <p class="muted">No constraints: every context is in it.</p>
        ) : (
          <ul class="constraint-list">
            {segment.constraints.map((c, i) => (
              <li key={i}>
                <ConstraintInWords constraint={c} />
              </li>
            ))}
          </ul>
        )}
        <SegmentUses segment={segment} />
      </div>
      <div class="row-side">
        <Link href={`/segments/${seg(segment.id)}/edit`} class="button small" aria-label={`Edit ${segment.name}`}>
          Edit
        </Link>
        <ConfirmButton
          label="Delete"
          ariaLabel={`Delete ${segment.name}`}
          title={`Delete the segment ${segment.name}?`}
          confirmLabel="Delete segment"
          onConfirm={async () => {
            await api.delete(`/api/admin/segments/${seg(segment.id)}`)
            await onDeleted()
          }}
        >
          <p>
            {segment.usedInFeatures > 0 ? (
              <>
                Strategies of {segment.usedInFeatures} flag{segment.usedInFeatures === 1 ? '' : 's'} use{' '}
                <strong>{segment.name}</strong>: the service refuses to delete it until they stop.
              </>
            ) : (
              <>
                <strong>{segment.name}</strong> is used by no strategy; it is deleted for good.
              </>
            )}
          </p>
        </ConfirmButton>
      </div>
    </li>
  )
}

/** "Used by N flags", and on request which strategies: each flag linked, with its environment. */
function SegmentUses({ segment }: { segment: SegmentDetail }) {
  const [open, setOpen] = useState(false)
  if (segment.usedInFeatures === 0) return <p class="muted small">Not used by any strategy.</p>
  const count = `Used by ${segment.usedInFeatures} flag${segment.usedInFeatures === 1 ? '' : 's'}${segment.usedInProjects > 1 ? ` in ${segment.usedInProjects} projects` : ''}`
  return (
    <details class="segment-uses" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{count}</summary>
      {open && <UsesList id={segment.id} />}
    </details>
  )
}

function UsesList({ id }: { id: number }) {
  const api = useApi()
  const uses = useLoad(
    async () => (await api.get<{ strategies: SegmentUse[] }>(`/api/admin/segments/${seg(id)}/strategies`)).strategies,
    [id],
  )
  if (uses.error) return <ErrorNote error={uses.error} />
  if (!uses.data) return <Loading what="where it is used" />
  return (
    <ul class="uses">
      {uses.data.map((use) => (
        <li key={use.id}>
          <Link href={`/projects/${seg(use.projectId)}/flags/${seg(use.featureName)}`}>{use.featureName}</Link> in{' '}
          <strong>{use.environment}</strong>{' '}
          <span class="muted">
            ({use.projectId} · {use.name})
          </span>
        </li>
      ))}
    </ul>
  )
}
