import { useApi } from '../../api.ts'
import { Badge, Loading } from '../../components/controls.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { useLoad, useTitle } from '../../hooks.ts'
import { href, Link } from '../../router.tsx'
import { ArchiveFlag, MissingFlag } from './flag-archive.tsx'
import { FlagDependencies } from './flag-dependencies.tsx'
import { FlagEnvironments } from './flag-environments.tsx'
import { FlagSettings } from './flag-settings.tsx'
import { FlagTags } from './flag-tags.tsx'
import { FlagUsageCard } from './flag-usage.tsx'
import { flagPath, type FlagView } from './flag-types.ts'
import { flagHistoryPath } from '../history/history-paths.ts'
import './flag.css'

const SECTIONS = [
  ['settings', 'Settings'],
  ['environments', 'Environments'],
  ['usage', 'Usage'],
  ['tags', 'Tags'],
  ['dependencies', 'Dependencies'],
  ['archive', 'Archive'],
] as const

/**
 * One flag: its settings, its state, strategies and variants per environment of its project, its
 * tags, its parent, and archiving it. Every section saves on its own and reloads the flag.
 */
export function FlagPage({ project, name }: { project: string; name: string }) {
  useTitle(name)
  const api = useApi()
  const flag = useLoad(() => api.get<FlagView>(flagPath(project, name)), [project, name])

  if (!flag.data) {
    if (flag.error?.status === 404) return <MissingFlag project={project} name={name} error={flag.error} />
    return (
      <div class="page">{flag.error ? <ErrorNote error={flag.error} /> : <Loading what={`the flag ${name}`} />}</div>
    )
  }
  const data = flag.data
  return (
    <div class="page flag-page">
      <p class="breadcrumb">
        <Link href={href('/flags', { project })}>Flags › {project}</Link>
      </p>
      <header class="page-header flag-header">
        <h1 class="flag-heading">{data.name}</h1>
        <span class="flag-meta">
          <Badge>{data.type}</Badge>
          {data.stale && <Badge tone="warn">stale</Badge>}
          {data.impressionData && <Badge tone="info">impression data</Badge>}
        </span>
      </header>
      {data.description && <p class="lead flag-lead">{data.description}</p>}
      <ErrorNote error={flag.error} />
      <nav class="flag-section-nav" aria-label="Sections">
        {SECTIONS.map(([id, label]) => (
          <a key={id} href={`#${id}`}>
            {label}
          </a>
        ))}
        <Link href={flagHistoryPath(project, name)}>History</Link>
      </nav>
      <FlagSettings key={data.name} flag={data} onChanged={flag.reload} />
      <FlagEnvironments flag={data} onChanged={flag.reload} />
      <FlagUsageCard name={data.name} />
      <FlagTags flag={data} onChanged={flag.reload} />
      <FlagDependencies flag={data} onChanged={flag.reload} />
      <ArchiveFlag flag={data} />
    </div>
  )
}
