import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import { seg, useApi } from '../api.ts'
import { Badge, Button, Card, Empty, Loading, Switch } from '../components/controls.tsx'
import { ConfirmButton } from '../components/confirm-button.tsx'
import { ErrorNote } from '../components/error-note.tsx'
import { useProject } from '../components/project-select.tsx'
import { useAction, useLoad, useLoadError, useTitle } from '../hooks.ts'
import { href, Link, navigate, useLocation } from '../router.tsx'
import type { Flag, ProjectDetail } from '../types.ts'
import { UsageSummary, useFlagUsage } from './flag/flag-usage.tsx'

/**
 * Flags of a project with their state in each of its environments: search by name, turn a flag
 * on or off in one environment, mark it stale, archive it; a new flag, and each flag's own page
 * (its strategies, variants, tags, dependencies) from its name.
 */
export function FlagsPage() {
  useTitle('Flags')
  const api = useApi()
  const location = useLocation()
  const { project, select, error: projectsError, reload: reloadProjects } = useProject()
  const search = location.query.get('q') ?? ''
  // Until the project is known (the project list loads first) there is nothing to load.
  const environments = useLoad(
    async () =>
      project ? (await api.get<ProjectDetail>(`/api/admin/projects/${seg(project)}`)).environments : undefined,
    [project],
  )
  const flags = useLoad(
    async () =>
      project
        ? (await api.get<{ features: Flag[] }>(`/api/admin/projects/${seg(project)}/features`)).features
        : undefined,
    [project],
  )
  const setSearch = (q: string) =>
    navigate(href('/flags', { project: location.query.get('project') ?? undefined, q }), { replace: true })
  const needle = search.trim().toLowerCase()
  const shown = flags.data?.filter((flag) => flag.name.toLowerCase().includes(needle)) ?? []
  const envs = environments.data ?? []
  const loadError = useLoadError(environments, flags)
  // Until the project list loads there is no project: Refresh loads that list again first.
  const refresh = () => (project ? Promise.all([environments.reload(), flags.reload()]) : reloadProjects())
  const usage = useFlagUsage()

  return (
    <div class="page">
      <div class="page-header">
        <h1>Flags</h1>
        <div class="form-actions">
          <Button size="small" onClick={refresh} busy={flags.loading && !!flags.data}>
            Refresh
          </Button>
          <Link href={href('/flags/new', { project })} class="button primary small">
            New flag
          </Link>
        </div>
      </div>
      <div class="toolbar">
        {select}
        <div class="field inline grow">
          <label for="flag-search">Search</label>
          <input
            id="flag-search"
            type="search"
            placeholder="Flag name"
            value={search}
            onInput={(e) => setSearch(e.currentTarget.value)}
          />
        </div>
      </div>
      <ErrorNote error={loadError} />
      {!flags.data
        ? !flags.error && !projectsError && <Loading what="flags" />
        : flags.data && (
            <Card class="flush">
              <p class="table-caption" role="status">
                {needle
                  ? `${shown.length} of ${flags.data.length} flags match "${search.trim()}"`
                  : `${flags.data.length} flags`}{' '}
                in {project}
              </p>
              {shown.length === 0 ? (
                <Empty>
                  {flags.data.length === 0 ? (
                    <>
                      This project has no flags yet: <Link href={href('/flags/new', { project })}>create one</Link>.
                    </>
                  ) : (
                    'No flag name matches the search.'
                  )}
                </Empty>
              ) : (
                <table class="flags-table">
                  <thead>
                    <tr>
                      <th scope="col">Flag</th>
                      {envs.map((env) => (
                        <th key={env} scope="col" class="env-col">
                          {env}
                        </th>
                      ))}
                      <th scope="col" class="usage-col">
                        Last 24 h
                      </th>
                      <th scope="col" class="actions-col">
                        <span class="sr-only">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {shown.map((flag) => (
                      <FlagRow
                        key={flag.name}
                        flag={flag}
                        environments={envs}
                        usage={<UsageSummary usage={usage.byName.get(flag.name)} />}
                        onChanged={flags.reload}
                      />
                    ))}
                  </tbody>
                </table>
              )}
            </Card>
          )}
    </div>
  )
}

function FlagRow({
  flag,
  environments,
  usage,
  onChanged,
}: {
  flag: Flag
  environments: string[]
  usage: ComponentChildren
  onChanged: () => Promise<void>
}) {
  const api = useApi()
  const toggle = useAction()
  const stale = useAction()
  const [pending, setPending] = useState<string>()
  const base = `/api/admin/projects/${seg(flag.project)}/features/${seg(flag.name)}`
  const state = (env: string) => flag.environments.find((e) => e.name === env)?.enabled ?? false

  const setEnabled = (env: string, enabled: boolean) => {
    setPending(env)
    void toggle
      .run(async () => {
        await api.post(`${base}/environments/${seg(env)}/${enabled ? 'on' : 'off'}`)
        await onChanged()
      })
      .finally(() => setPending(undefined))
  }
  const setStale = () =>
    stale.run(async () => {
      await api.post(`/api/admin/features/${seg(flag.name)}/stale/${flag.stale ? 'off' : 'on'}`)
      await onChanged()
    })

  return (
    <>
      <tr class="flag-row" data-flag={flag.name}>
        <th scope="row" class="flag-name">
          <Link href={`/projects/${seg(flag.project)}/flags/${seg(flag.name)}`} class="name">
            {flag.name}
          </Link>
          <span class="flag-meta">
            <Badge>{flag.type}</Badge>
            {flag.stale && <Badge tone="warn">stale</Badge>}
          </span>
          {flag.description && <span class="flag-description">{flag.description}</span>}
        </th>
        {environments.map((env) => (
          <td key={env} class="env-cell" data-env={env}>
            <span class="cell-label" aria-hidden="true">
              {env}
            </span>
            <Switch
              checked={state(env)}
              label={`${flag.name} in ${env}`}
              busy={pending === env}
              disabled={toggle.busy}
              onChange={(next) => setEnabled(env, next)}
              showText
            />
          </td>
        ))}
        <td class="usage-cell" data-usage={flag.name}>
          <span class="cell-label" aria-hidden="true">
            Last 24 h
          </span>
          {usage}
        </td>
        <td class="row-actions">
          <Button size="small" variant="ghost" busy={stale.busy} onClick={setStale}>
            {flag.stale ? 'Not stale' : 'Mark stale'}
          </Button>
          <ConfirmButton
            label="Archive"
            ariaLabel={`Archive ${flag.name}`}
            title={`Archive ${flag.name}?`}
            confirmLabel="Archive flag"
            onConfirm={async () => {
              await api.delete(base)
              await onChanged()
            }}
          >
            <p>
              SDKs stop receiving <strong>{flag.name}</strong> and evaluate it as off. An archived flag can be revived
              through the archive API.
            </p>
          </ConfirmButton>
        </td>
      </tr>
      {(toggle.error || stale.error) && (
        <tr class="row-error">
          <td colSpan={environments.length + 3}>
            <ErrorNote error={toggle.error ?? stale.error} />
          </td>
        </tr>
      )}
    </>
  )
}
