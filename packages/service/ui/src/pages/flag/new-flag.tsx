import { useState } from 'preact/hooks'
import { seg, useApi } from '../../api.ts'
import { Button, Card, Field } from '../../components/controls.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { useProject } from '../../components/project-select.tsx'
import { useAction, useLoad, useTitle } from '../../hooks.ts'
import { href, Link, navigate } from '../../router.tsx'
import { FLAG_NAME_MAX_LENGTH, flagNameProblem, useNameCheck } from './flag-name.ts'
import { type FeatureType, flagPage, type FlagView } from './flag-types.ts'
import './flag.css'

/**
 * A new flag in a project: name (its rule checked at once, whether it is free once typing
 * pauses), type, description, impression data. Created disabled everywhere; opens its page.
 */
export function NewFlagPage({ project: wanted }: { project?: string | undefined }) {
  useTitle('New flag')
  const api = useApi()
  const { project, select } = useProject()
  const types = useLoad(async () => (await api.get<{ types: FeatureType[] }>('/api/admin/feature-types')).types, [])
  const [name, setName] = useState('')
  const [touched, setTouched] = useState(false)
  const [type, setType] = useState('release')
  const [description, setDescription] = useState('')
  const [impressionData, setImpressionData] = useState(false)
  const check = useNameCheck(name)
  const create = useAction()
  const back = href('/flags', { project: project ?? wanted })

  // The create's own refusal of the name wins while the name is unchanged since.
  const [refusedName, setRefusedName] = useState<string>()
  const createRefusedName =
    create.error && refusedName === name && isNameError(create.error.name) ? create.error.message : undefined
  const nameError =
    (touched ? flagNameProblem(name) : undefined) ??
    createRefusedName ??
    (check.state === 'refused' ? check.error.message : undefined)

  const submit = (event: Event) => {
    event.preventDefault()
    setTouched(true)
    if (flagNameProblem(name) || check.state === 'refused' || !project) {
      document.getElementById('flag-name')?.focus()
      return
    }
    setRefusedName(name)
    void create.run(async () => {
      const body = { name, type, description: description.trim() || null, impressionData }
      const created = await api.post<FlagView>(`/api/admin/projects/${seg(project)}/features`, body)
      navigate(flagPage(created.project, created.name))
    })
  }

  const selectedType = types.data?.find((t) => t.id === type)
  return (
    <div class="page new-flag">
      <p class="breadcrumb">
        <Link href={back}>Flags{project ? ` › ${project}` : ''}</Link>
      </p>
      <h1>New flag</h1>
      <p class="lead">
        A new flag is off in every environment. Turn it on per environment on its page, where its strategies, variants
        and tags are set.
      </p>
      <form class="stack" onSubmit={submit} noValidate>
        <Card>
          <div class="form-grid">
            <div class="span-all">{select}</div>
            <Field id="flag-name" label="Name" error={nameError} hint={<NameStatus name={name} state={check.state} />}>
              <input
                id="flag-name"
                value={name}
                maxLength={FLAG_NAME_MAX_LENGTH + 1}
                autoComplete="off"
                spellcheck={false}
                // biome-ignore lint/a11y/noAutofocus: the page is opened to type this one name
                autoFocus
                placeholder="e.g. faster-search"
                aria-invalid={nameError ? true : undefined}
                aria-describedby={nameError ? 'flag-name-error' : 'flag-name-hint'}
                onInput={(e) => {
                  setName(e.currentTarget.value)
                  if (e.currentTarget.value) setTouched(true)
                }}
              />
            </Field>
            <Field id="flag-type" label="Type" hint={selectedType?.description}>
              <select
                id="flag-type"
                value={type}
                onChange={(e) => setType(e.currentTarget.value)}
                aria-describedby="flag-type-hint"
              >
                {(types.data ?? [{ id: 'release', name: 'Release' }]).map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="flag-description" label="Description (optional)">
              <textarea
                id="flag-description"
                rows={2}
                value={description}
                onInput={(e) => setDescription(e.currentTarget.value)}
              />
            </Field>
            <label class="checkbox span-all">
              <input
                type="checkbox"
                checked={impressionData}
                onChange={(e) => setImpressionData(e.currentTarget.checked)}
              />
              Impression data: SDKs emit an impression event each time they evaluate this flag
            </label>
          </div>
          <ErrorNote error={types.error} />
        </Card>
        <div class="form-footer">
          <ErrorNote error={create.error} />
          <div class="form-actions">
            <Button type="submit" variant="primary" busy={create.busy}>
              Create flag
            </Button>
            <Link href={back} class="button ghost">
              Cancel
            </Link>
          </div>
        </div>
      </form>
    </div>
  )
}

/** The service's refusals that are about the name, shown at the field. */
const isNameError = (error: string) => error === 'NameExistsError' || error === 'ValidationError'

function NameStatus({ name, state }: { name: string; state: 'idle' | 'checking' | 'free' | 'refused' }) {
  return (
    <span aria-live="polite">
      {state === 'checking' && (
        <>
          Checking whether <strong>{name}</strong> is free…
        </>
      )}
      {state === 'free' && (
        <span class="flag-name-free">
          ✓ <strong>{name}</strong> is free.
        </span>
      )}
      {(state === 'idle' || state === 'refused') &&
        'Unique across all projects, archived flags included. Letters, digits, -, ., _ and ~.'}
    </span>
  )
}
