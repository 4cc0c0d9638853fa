import { useState } from 'preact/hooks'
import { seg } from '../../api.ts'
import { useTitle } from '../../hooks.ts'
import { href, Link } from '../../router.tsx'
import { ChangeLog } from '../history/change-log.tsx'

/** One flag's changes, newest first, each with who or what made it and its before/after. */
export function FlagHistoryPage({ project, name }: { project: string; name: string }) {
  useTitle(`History of ${name}`)
  const [page, setPage] = useState(0)
  return (
    <div class="page">
      <p class="breadcrumb">
        <Link href={href('/flags', { project })}>Flags › {project}</Link> ›{' '}
        <Link href={flagPageHref(project, name)}>{name}</Link>
      </p>
      <div class="page-header">
        <h1>History of {name}</h1>
        <Link href={href('/history', { project, feature: name })} class="small">
          In the global history
        </Link>
      </div>
      <ChangeLog
        filter={{ project, feature: name }}
        page={page}
        onPage={setPage}
        empty={`No change to ${name} is recorded.`}
      />
    </div>
  )
}

const flagPageHref = (project: string, name: string) => `/projects/${seg(project)}/flags/${seg(name)}`
