import { type ApiError, seg, useApi } from '../../api.ts'
import { Card, Loading } from '../../components/controls.tsx'
import { ConfirmButton } from '../../components/confirm-button.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { useLoad } from '../../hooks.ts'
import { href, Link, navigate } from '../../router.tsx'
import type { Flag } from '../../types.ts'
import { flagPath, type FlagView } from './flag-types.ts'

/** Archiving, after a confirmation; then back to the project's flags. */
export function ArchiveFlag({ flag }: { flag: FlagView }) {
  const api = useApi()
  return (
    <Card title="Archive" id="archive">
      <div class="flag-archive-row">
        <p>
          SDKs stop receiving the flag and evaluate it as off. Its name stays taken; it can be revived or deleted for
          good from the <Link href="/archive">archive</Link>.
        </p>
        <ConfirmButton
          label="Archive flag"
          title={`Archive ${flag.name}?`}
          confirmLabel="Archive flag"
          onConfirm={async () => {
            await api.delete(flagPath(flag.project, flag.name))
            navigate(href('/flags', { project: flag.project }))
          }}
        >
          <p>
            SDKs stop receiving <strong>{flag.name}</strong> and evaluate it as off.
            {flag.children.length > 0 && ` The flags that depend on it (${flag.children.join(', ')}) will be off too.`}
          </p>
        </ConfirmButton>
      </div>
    </Card>
  )
}

/** The flag's page when the API has no live flag of that name in the project: archived, or not there. */
export function MissingFlag({ project, name, error }: { project: string; name: string; error: ApiError }) {
  const api = useApi()
  const archived = useLoad(
    async () =>
      (await api.get<{ features: Flag[] }>(`/api/admin/archive/features/${seg(project)}`)).features.find(
        (f) => f.name === name,
      ) ?? null,
    [project, name],
  )
  const back = <Link href={href('/flags', { project })}>Flags › {project}</Link>
  if (archived.data === undefined && !archived.error)
    return (
      <div class="page">
        <Loading what={`the flag ${name}`} />
      </div>
    )
  if (archived.data) {
    return (
      <div class="page flag-page">
        <p class="breadcrumb">{back}</p>
        <h1 class="flag-heading">{name}</h1>
        <p class="notice archived-notice" role="status">
          This flag is archived: SDKs no longer receive it. Revive it or delete it for good in the{' '}
          <Link href="/archive">archive</Link>.
        </p>
      </div>
    )
  }
  return (
    <div class="page">
      <p class="breadcrumb">{back}</p>
      <h1>Flag not found</h1>
      <ErrorNote error={error} focus={false} />
      <ErrorNote error={archived.error} />
      <p>
        There is no flag <code>{name}</code> in the project {project}.{' '}
        <Link href={href('/flags', { project })}>Its flags</Link>
      </p>
    </div>
  )
}
