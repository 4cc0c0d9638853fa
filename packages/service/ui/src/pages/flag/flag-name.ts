// A new flag's name, checked as the API checks it: the rule at once (the API's own, from
// @vexil/service/admin-rules), then whether it is free (POST /api/admin/features/validate, which
// also counts archived flags: names are unique across projects) once typing pauses.
import { URL_SAFE_NAME_MAX_LENGTH, URL_SAFE_NAME_PATTERN, URL_SAFE_NAME_RULE } from '@vexil/service/admin-rules'
import { useEffect, useState } from 'preact/hooks'
import { type ApiError, useApi } from '../../api.ts'
import { asApiError } from '../../hooks.ts'

export const FLAG_NAME_MAX_LENGTH = URL_SAFE_NAME_MAX_LENGTH

/** Why the API would refuse `name` by its form alone; undefined when the form is fine. */
export function flagNameProblem(name: string): string | undefined {
  if (name === '') return 'Name is required.'
  if (name.length > FLAG_NAME_MAX_LENGTH) return `Name must be at most ${FLAG_NAME_MAX_LENGTH} characters.`
  if (!URL_SAFE_NAME_PATTERN.test(name)) return `Name ${URL_SAFE_NAME_RULE} (no spaces).`
  return undefined
}

export type NameCheck =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'free' }
  | { state: 'refused'; error: ApiError }

/** How long typing must pause before the name is sent to the service. */
const DEBOUNCE_MS = 300

/** Asks the service whether `name` (already well-formed) is free, once typing pauses; stale answers are dropped. */
export function useNameCheck(name: string): NameCheck {
  const api = useApi()
  const [answer, setAnswer] = useState<{ name: string; check: NameCheck }>()
  const wellFormed = name !== '' && !flagNameProblem(name)
  useEffect(() => {
    if (!wellFormed) return undefined
    let current = true
    const timer = window.setTimeout(() => {
      api.post('/api/admin/features/validate', { name }).then(
        () => current && setAnswer({ name, check: { state: 'free' } }),
        (error: unknown) => current && setAnswer({ name, check: { state: 'refused', error: asApiError(error) } }),
      )
    }, DEBOUNCE_MS)
    return () => {
      current = false
      window.clearTimeout(timer)
    }
  }, [name])
  if (!wellFormed) return { state: 'idle' }
  return answer?.name === name ? answer.check : { state: 'checking' }
}
