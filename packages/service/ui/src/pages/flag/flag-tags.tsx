import { useState } from 'preact/hooks'
import { seg, useApi } from '../../api.ts'
import { Button, Card, Empty, Field } from '../../components/controls.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { useAction, useLoad } from '../../hooks.ts'
import type { FlagView, Tag, TagType } from './flag-types.ts'

/** The API's rule for a tag value (src/schemas/tag.ts, Unleash's): 2 to 50 characters, trimmed. */
function tagValueProblem(value: string): string | undefined {
  const length = value.trim().length
  if (length === 0) return 'Value is required.'
  if (length < 2 || length > 50) return 'A tag value is 2 to 50 characters.'
  return undefined
}

/** Tags on the flag: `type:value`, the type one of the tag types; a new value is created on first use. */
export function FlagTags({ flag, onChanged }: { flag: FlagView; onChanged: () => Promise<void> }) {
  const api = useApi()
  const path = `/api/admin/features/${seg(flag.name)}/tags`
  const types = useLoad(async () => (await api.get<{ tagTypes: TagType[] }>('/api/admin/tag-types')).tagTypes, [])
  const [chosenType, setType] = useState<string>()
  const type = chosenType ?? types.data?.[0]?.name ?? ''
  const known = useLoad(
    async () => (type ? (await api.get<{ tags: Tag[] }>(`/api/admin/tags/${seg(type)}`)).tags : []),
    [type],
  )
  const [value, setValue] = useState('')
  const [touched, setTouched] = useState(false)
  const add = useAction()
  const remove = useAction()

  const problem = touched ? tagValueProblem(value) : undefined
  const submit = (event: Event) => {
    event.preventDefault()
    setTouched(true)
    if (tagValueProblem(value) || !type) {
      document.getElementById('tag-value')?.focus()
      return
    }
    void add.run(async () => {
      await api.post(path, { type, value: value.trim() })
      setValue('')
      setTouched(false)
      await Promise.all([onChanged(), known.reload()])
    })
  }
  const untag = (tag: Tag) =>
    remove.run(async () => {
      add.clear()
      await api.delete(`${path}/${seg(tag.type)}/${seg(tag.value)}`)
      await onChanged()
    })

  const onFlag = new Set(flag.tags.filter((t) => t.type === type).map((t) => t.value))
  return (
    <Card title="Tags" id="tags">
      {flag.tags.length === 0 ? (
        <Empty>No tags yet. Tags group flags across projects; SDKs can fetch only the flags with a tag.</Empty>
      ) : (
        <ul class="flag-tags" aria-label="Tags of the flag">
          {flag.tags.map((tag) => (
            <li key={`${tag.type}:${tag.value}`} class="flag-tag" data-tag={`${tag.type}:${tag.value}`}>
              <span class="flag-tag-type">{tag.type}</span>
              <span class="flag-tag-value">{tag.value}</span>
              <button
                type="button"
                class="flag-tag-remove"
                aria-label={`Remove tag ${tag.type}:${tag.value}`}
                disabled={remove.busy}
                onClick={() => void untag(tag)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorNote error={remove.error} />
      <form class="flag-tag-form" onSubmit={submit} noValidate aria-label="Add a tag">
        <Field id="tag-type" label="Tag type">
          <select id="tag-type" value={type} disabled={!types.data} onChange={(e) => setType(e.currentTarget.value)}>
            {types.data?.map((t) => (
              <option key={t.name} value={t.name}>
                {t.name}
              </option>
            ))}
          </select>
        </Field>
        <Field id="tag-value" label="Value" error={problem}>
          <input
            id="tag-value"
            list="tag-values"
            value={value}
            maxLength={60}
            autoComplete="off"
            aria-invalid={problem ? true : undefined}
            onInput={(e) => {
              setValue(e.currentTarget.value)
              add.clear()
              if (e.currentTarget.value) setTouched(true)
            }}
          />
        </Field>
        <datalist id="tag-values">
          {known.data
            ?.filter((t) => !onFlag.has(t.value))
            .map((t) => (
              <option key={t.value} value={t.value} />
            ))}
        </datalist>
        <div class="form-actions">
          <Button type="submit" busy={add.busy}>
            Add tag
          </Button>
        </div>
      </form>
      <ErrorNote error={add.error ?? types.error ?? known.error} />
    </Card>
  )
}
