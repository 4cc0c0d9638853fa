import { useApi } from '../api.ts'
import type { Action } from '../hooks.ts'
import { Switch } from './controls.tsx'

/**
 * The on/off switch of a thing the API turns on and off with `POST <path>/on|off` (signal
 * endpoints, action sets). The caller owns `action`, so it shows the error where it belongs.
 */
export function EnabledSwitch({
  name,
  enabled,
  path,
  action,
  onChanged,
}: {
  name: string
  enabled: boolean
  path: string
  action: Action
  onChanged: () => Promise<void>
}) {
  const api = useApi()
  return (
    <Switch
      checked={enabled}
      label={`${name} enabled`}
      busy={action.busy}
      showText
      onChange={(next) =>
        action.run(async () => {
          await api.post(`${path}/${next ? 'on' : 'off'}`)
          await onChanged()
        })
      }
    />
  )
}
