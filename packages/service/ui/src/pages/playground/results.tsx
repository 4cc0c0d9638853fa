import { useState } from 'preact/hooks'
import type { FlagExplanation } from '@vexil/engine/explain'
import { Badge, Button, Empty } from '../../components/controls.tsx'
import { Explanation } from './explanation.tsx'

const ALL = ''

/** A variant's payload in one line (long ones cut; the explanation has the rest). */
function payloadText(e: FlagExplanation): string | undefined {
  const payload = e.variant.payload
  if (!payload) return undefined
  const value = String(payload.value)
  return `${payload.type}: ${value.length > 80 ? `${value.slice(0, 80)}…` : value}`
}

function FlagResult({ e, environment }: { e: FlagExplanation; environment: string }) {
  const [open, setOpen] = useState(false)
  const payload = payloadText(e)
  const id = `why-${e.name}`
  return (
    <li class="pg-flag" data-flag={e.name}>
      <div class="pg-flag-head">
        <div class="pg-flag-name">
          <span class="name">{e.name}</span>
          {e.project && <span class="muted small">{e.project}</span>}
        </div>
        <div class="pg-flag-result">
          <Badge tone={e.enabled ? 'good' : 'neutral'}>{e.enabled ? 'On' : 'Off'}</Badge>
          {e.variant.enabled && (
            <span class="pg-variant-name" data-testid="variant">
              variant <code>{e.variant.name}</code>
            </span>
          )}
          {payload && (
            <code class="pg-payload wrap" title={String(e.variant.payload?.value)}>
              {payload}
            </code>
          )}
        </div>
        <Button size="small" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
          {open ? 'Hide why' : 'Why?'}
          <span class="sr-only"> {e.name}</span>
        </Button>
      </div>
      {open && (
        <div id={id}>
          <Explanation e={e} environment={environment} />
        </div>
      )}
    </li>
  )
}

/** Every flag's result, filtered by name and project. */
export function Results({ explanations, environment }: { explanations: FlagExplanation[]; environment: string }) {
  const [search, setSearch] = useState('')
  const [project, setProject] = useState(ALL)
  const projects = [...new Set(explanations.map((e) => e.project ?? ''))].filter(Boolean).sort()
  const needle = search.trim().toLowerCase()
  const shown = explanations.filter(
    (e) => (!needle || e.name.toLowerCase().includes(needle)) && (project === ALL || e.project === project),
  )
  const on = explanations.filter((e) => e.enabled).length
  return (
    <>
      <div class="toolbar">
        <div class="field inline grow">
          <label for="pg-search">Filter by name</label>
          <input
            id="pg-search"
            type="search"
            placeholder="Flag name"
            value={search}
            onInput={(e) => setSearch(e.currentTarget.value)}
          />
        </div>
        <div class="field inline">
          <label for="pg-project">Project</label>
          <select id="pg-project" value={project} onChange={(e) => setProject(e.currentTarget.value)}>
            <option value={ALL}>All projects</option>
            {projects.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p class="table-caption pg-caption" role="status">
        {shown.length === explanations.length
          ? `${explanations.length} flags`
          : `${shown.length} of ${explanations.length} flags`}{' '}
        in {environment}, {on} on
      </p>
      {shown.length === 0 ? (
        <Empty>{explanations.length === 0 ? `${environment} has no flags.` : 'No flag matches the filter.'}</Empty>
      ) : (
        <ul class="pg-results">
          {shown.map((e) => (
            <FlagResult key={e.name} e={e} environment={environment} />
          ))}
        </ul>
      )}
    </>
  )
}
