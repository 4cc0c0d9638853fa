import { seg, useApi } from '../../api.ts'
import { Badge, Button, Card, Empty, Loading } from '../../components/controls.tsx'
import { ConfirmButton } from '../../components/confirm-button.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { Time } from '../../components/time.tsx'
import { useAction, useLoad, useTitle } from '../../hooks.ts'
import { href, Link, navigate, useLocation } from '../../router.tsx'
import type { ArchivedFlag } from './admin-types.ts'
import './admin.css'

/** Archived flags of every project: search, revive, or delete for good. */
export function ArchivePage() {
  useTitle('Archive')
  const api = useApi()
  const location = useLocation()
  const flags = useLoad(
    async () => (await api.get<{ features: ArchivedFlag[] }>('/api/admin/archive/features')).features,
    [],
  )
  const search = location.query.get('q') ?? ''
  const needle = search.trim().toLowerCase()
  const newestFirst = [...(flags.data ?? [])].sort((a, b) => (b.archivedAt ?? '').localeCompare(a.archivedAt ?? ''))
  const shown = newestFirst.filter(
    (f) => f.name.toLowerCase().includes(needle) || f.project.toLowerCase().includes(needle),
  )

  return (
    <div class="page admin-page">
      <div class="page-header">
        <h1>Archive</h1>
        <Button size="small" onClick={() => flags.reload()} busy={flags.loading && !!flags.data}>
          Refresh
        </Button>
      </div>
      <p class="lead">
        SDKs no longer see archived flags. Revive one to bring it back as it was (its strategies and on/off states
        kept), or delete it for good.
      </p>
      <div class="toolbar">
        <div class="field inline grow">
          <label for="archive-search">Search</label>
          <input
            id="archive-search"
            type="search"
            placeholder="Flag name or project"
            value={search}
            onInput={(e) => navigate(href('/archive', { q: e.currentTarget.value }), { replace: true })}
          />
        </div>
      </div>
      <ErrorNote error={flags.error} />
      {!flags.data ? (
        !flags.error && <Loading what="archived flags" />
      ) : (
        <Card class="flush" id="archived">
          <p class="table-caption" role="status">
            {needle
              ? `${shown.length} of ${flags.data.length} archived flags match "${search.trim()}"`
              : `${flags.data.length} archived flags`}
          </p>
          {shown.length === 0 ? (
            <Empty>{flags.data.length === 0 ? 'The archive is empty.' : 'No archived flag matches the search.'}</Empty>
          ) : (
            <ul class="rows">
              {shown.map((flag) => (
                <ArchivedRow key={flag.name} flag={flag} onChanged={flags.reload} />
              ))}
            </ul>
          )}
        </Card>
      )}
    </div>
  )
}

function ArchivedRow({ flag, onChanged }: { flag: ArchivedFlag; onChanged: () => Promise<void> }) {
  const api = useApi()
  const revive = useAction()
  return (
    <li class="row archived-row" data-flag={flag.name}>
      <div class="row-main">
        <span class="row-title flag-title">{flag.name}</span>
        <Badge>{flag.type}</Badge>
        {flag.description && <p class="muted">{flag.description}</p>}
        <dl class="facts">
          <div>
            <dt>Project</dt>
            <dd>
              <Link href={href('/flags', { project: flag.project })}>{flag.project}</Link>
            </dd>
          </div>
          {flag.archivedAt && (
            <div>
              <dt>Archived</dt>
              <dd>
                <Time iso={flag.archivedAt} />
              </dd>
            </div>
          )}
          <div>
            <dt>Created</dt>
            <dd>
              <Time iso={flag.createdAt} relative={false} />
            </dd>
          </div>
        </dl>
        <ErrorNote error={revive.error} />
      </div>
      <div class="row-side">
        <Button
          size="small"
          busy={revive.busy}
          aria-label={`Revive ${flag.name}`}
          onClick={() =>
            revive.run(async () => {
              await api.post(`/api/admin/archive/revive/${seg(flag.name)}`)
              await onChanged()
            })
          }
        >
          Revive
        </Button>
        <ConfirmButton
          label="Delete"
          ariaLabel={`Delete ${flag.name} for good`}
          title={`Delete ${flag.name} for good?`}
          confirmLabel="Delete flag"
          onConfirm={async () => {
            await api.delete(`/api/admin/archive/${seg(flag.name)}`)
            await onChanged()
          }}
        >
          <p>
            <strong>{flag.name}</strong> and its strategies, variants and tags are deleted and can not be brought back.
            Its name can be used for a new flag.
          </p>
        </ConfirmButton>
      </div>
    </li>
  )
}
