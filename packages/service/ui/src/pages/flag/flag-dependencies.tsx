import { useState } from 'preact/hooks'
import { seg, useApi } from '../../api.ts'
import { Badge, Button, Card, Field } from '../../components/controls.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { useAction, useLoad } from '../../hooks.ts'
import { Link } from '../../router.tsx'
import { type Dependency, flagPage, flagPath, type FlagView } from './flag-types.ts'

/**
 * The flag's parent (Unleash: at most one, in the same project, one level deep): the flag is on
 * only when its parent is on (or off, if so wanted), optionally with one of the parent's variants.
 */
export function FlagDependencies({ flag, onChanged }: { flag: FlagView; onChanged: () => Promise<void> }) {
  const api = useApi()
  const path = `${flagPath(flag.project, flag.name)}/dependencies`
  const remove = useAction()
  const parent = flag.dependencies[0]
  const unlink = (dependency: Dependency) =>
    remove.run(async () => {
      await api.delete(`${path}/${seg(dependency.feature)}`)
      await onChanged()
    })
  return (
    <Card title="Dependencies" id="dependencies">
      {parent ? (
        <div class="flag-dependency" data-parent={parent.feature}>
          <p>
            On only when{' '}
            <Link href={flagPage(flag.project, parent.feature)} class="flag-mono">
              {parent.feature}
            </Link>{' '}
            is <Badge tone={parent.enabled ? 'good' : 'neutral'}>{parent.enabled ? 'enabled' : 'disabled'}</Badge>
            {parent.variants?.length ? (
              <>
                {' '}
                with the variant{' '}
                {parent.variants.map((v, i) => (
                  <span key={v}>
                    {i > 0 && ' or '}
                    <code>{v}</code>
                  </span>
                ))}
              </>
            ) : null}{' '}
            in the same environment.
          </p>
          <Button
            size="small"
            busy={remove.busy}
            onClick={() => void unlink(parent)}
            aria-label={`Remove the dependency on ${parent.feature}`}
          >
            Remove dependency
          </Button>
        </div>
      ) : (
        <p class="muted">No parent: the flag does not depend on another.</p>
      )}
      <ErrorNote error={remove.error} />
      {flag.children.length > 0 && (
        <p class="flag-children">
          Parent of{' '}
          {flag.children.map((child, i) => (
            <span key={child}>
              {i > 0 && ', '}
              <Link href={flagPage(flag.project, child)} class="flag-mono">
                {child}
              </Link>
            </span>
          ))}
          . A flag with children can not have a parent itself (dependencies are one level deep).
        </p>
      )}
      {!parent && <AddDependency flag={flag} path={path} onChanged={onChanged} />}
    </Card>
  )
}

function AddDependency({ flag, path, onChanged }: { flag: FlagView; path: string; onChanged: () => Promise<void> }) {
  const api = useApi()
  // The service's own list of flags that may be a parent (same project, without a parent).
  const candidates = useLoad(
    () => api.get<string[]>(`${flagPath(flag.project, flag.name)}/parents`),
    [flag.project, flag.name, flag.children.length],
  )
  const [chosen, setChosen] = useState('')
  const [enabled, setEnabled] = useState(true)
  const [variants, setVariants] = useState<string[]>([])
  const parentVariants = useLoad(
    async () => (chosen ? variantNames(await api.get<FlagView>(flagPath(flag.project, chosen))) : []),
    [chosen],
  )
  const [touched, setTouched] = useState(false)
  const add = useAction()

  const problem = touched && !chosen ? 'Choose the parent flag.' : undefined
  const submit = (event: Event) => {
    event.preventDefault()
    setTouched(true)
    if (!chosen) {
      document.getElementById('dependency-parent')?.focus()
      return
    }
    void add.run(async () => {
      await api.post(path, { feature: chosen, enabled, variants: enabled ? variants : [] })
      setChosen('')
      setVariants([])
      setTouched(false)
      await onChanged()
    })
  }
  const options = candidates.data ?? []
  return (
    <form class="flag-dependency-form" onSubmit={submit} noValidate aria-label="Add a parent flag">
      <h3>Add a parent</h3>
      <div class="form-grid">
        <Field
          id="dependency-parent"
          label="Parent flag"
          error={problem}
          hint={candidates.data && options.length === 0 ? 'No flag of this project can be its parent.' : undefined}
        >
          <select
            id="dependency-parent"
            value={chosen}
            aria-invalid={problem ? true : undefined}
            onChange={(e) => {
              setChosen(e.currentTarget.value)
              setVariants([])
              add.clear()
            }}
          >
            <option value="">Choose a flag…</option>
            {options.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </Field>
        <Field id="dependency-enabled" label="Wanted state of the parent">
          <select
            id="dependency-enabled"
            value={enabled ? 'enabled' : 'disabled'}
            onChange={(e) => setEnabled(e.currentTarget.value === 'enabled')}
          >
            <option value="enabled">Enabled</option>
            <option value="disabled">Disabled</option>
          </select>
        </Field>
        {enabled && chosen && (parentVariants.data?.length ?? 0) > 0 && (
          <fieldset class="span-all flag-dependency-variants">
            <legend>Only with one of these variants of {chosen} (optional)</legend>
            {parentVariants.data?.map((name) => (
              <label key={name} class="checkbox">
                <input
                  type="checkbox"
                  checked={variants.includes(name)}
                  onChange={(e) =>
                    setVariants(e.currentTarget.checked ? [...variants, name] : variants.filter((v) => v !== name))
                  }
                />
                {name}
              </label>
            ))}
          </fieldset>
        )}
      </div>
      <ErrorNote error={add.error ?? candidates.error ?? parentVariants.error} />
      <div class="form-actions">
        <Button type="submit" busy={add.busy}>
          Add dependency
        </Button>
      </div>
    </form>
  )
}

/** The variant names a parent can answer: its flag variants and its strategies' variants, every environment. */
function variantNames(parent: FlagView): string[] {
  const names = new Set<string>()
  for (const env of parent.environments) {
    for (const variant of env.variants) names.add(variant.name)
    for (const strategy of env.strategies) for (const variant of strategy.variants) names.add(variant.name)
  }
  return [...names].sort()
}
