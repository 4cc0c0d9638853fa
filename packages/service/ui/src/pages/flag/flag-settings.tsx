import { useState } from 'preact/hooks'
import { seg, useApi } from '../../api.ts'
import { Button, Card, Field } from '../../components/controls.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { useAction, useLoad } from '../../hooks.ts'
import { type FeatureType, flagPath, type FlagView } from './flag-types.ts'

/**
 * Description, type and impression data (saved together with PUT, as Unleash's settings form),
 * and stale on its own: marking stale is a decision, not an edit.
 */
export function FlagSettings({ flag, onChanged }: { flag: FlagView; onChanged: () => Promise<void> }) {
  const api = useApi()
  const types = useLoad(async () => (await api.get<{ types: FeatureType[] }>('/api/admin/feature-types')).types, [])
  const [description, setDescription] = useState(flag.description ?? '')
  const [type, setType] = useState(flag.type)
  const [impressionData, setImpressionData] = useState(flag.impressionData)
  const [saved, setSaved] = useState(false)
  const save = useAction()
  const stale = useAction()

  const changed =
    description.trim() !== (flag.description ?? '') || type !== flag.type || impressionData !== flag.impressionData
  const submit = (event: Event) => {
    event.preventDefault()
    setSaved(false)
    void save.run(async () => {
      const updated = await api.put<FlagView>(flagPath(flag.project, flag.name), {
        description: description.trim() || null,
        type,
        impressionData,
      })
      setDescription(updated.description ?? '')
      setSaved(true)
      await onChanged()
    })
  }
  const toggleStale = () =>
    stale.run(async () => {
      await api.post(`/api/admin/features/${seg(flag.name)}/stale/${flag.stale ? 'off' : 'on'}`)
      await onChanged()
    })

  // A type the service does not list (made through the API) stays selectable.
  const options =
    types.data && !types.data.some((t) => t.id === flag.type)
      ? [...types.data, { id: flag.type, name: flag.type, description: '', lifetimeDays: null }]
      : (types.data ?? [{ id: flag.type, name: flag.type, description: '', lifetimeDays: null }])
  const selected = options.find((t) => t.id === type)
  return (
    <Card title="Settings" id="settings">
      <form class="form-grid flag-settings-grid" onSubmit={submit} noValidate>
        <Field id="settings-description" label="Description">
          <textarea
            id="settings-description"
            rows={2}
            value={description}
            onInput={(e) => {
              setDescription(e.currentTarget.value)
              setSaved(false)
            }}
          />
        </Field>
        <Field id="settings-type" label="Type" hint={selected?.description || undefined}>
          <select
            id="settings-type"
            value={type}
            onChange={(e) => {
              setType(e.currentTarget.value)
              setSaved(false)
            }}
          >
            {options.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </Field>
        <label class="checkbox span-all">
          <input
            type="checkbox"
            checked={impressionData}
            onChange={(e) => {
              setImpressionData(e.currentTarget.checked)
              setSaved(false)
            }}
          />
          Impression data: SDKs emit an impression event each time they evaluate this flag
        </label>
        <div class="form-actions span-all">
          <Button type="submit" variant="primary" busy={save.busy} disabled={!changed}>
            Save settings
          </Button>
          {saved && !changed && (
            <span class="flag-saved" role="status">
              Saved.
            </span>
          )}
        </div>
        <ErrorNote error={save.error ?? types.error} class="span-all" />
      </form>
      <div class="flag-stale-row">
        <p>
          {flag.stale ? (
            <>
              <strong>Marked stale:</strong> it is no longer needed and should be removed from the code, then archived.
            </>
          ) : (
            'Mark it stale when it is no longer needed: the code using it should be cleaned up, then the flag archived.'
          )}
        </p>
        <Button size="small" busy={stale.busy} onClick={toggleStale}>
          {flag.stale ? 'Not stale' : 'Mark stale'}
        </Button>
      </div>
      <ErrorNote error={stale.error} />
    </Card>
  )
}
