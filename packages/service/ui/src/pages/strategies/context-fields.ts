// What the constraint editor suggests for a context field: the Unleash context's own fields, then
// every field the segments and (in the environment being edited) the strategies already use, such
// as a `plan` property that a segment checks.
import { seg, useApi } from '../../api.ts'
import { useLoad } from '../../hooks.ts'

/** The Unleash context's own fields; any other name reads `properties.<name>`. */
export const CONTEXT_FIELDS = ['userId', 'sessionId', 'remoteAddress', 'environment', 'appName', 'currentTime']

interface WithConstraints {
  constraints?: { contextName: string }[]
}

interface Payload {
  features?: { strategies?: WithConstraints[] }[]
  segments?: WithConstraints[]
}

/** The context's own fields, then the others in use, by name; suggestions only, so a failed load shows none. */
export function useContextFieldSuggestions(environment: string | undefined): string[] {
  const api = useApi()
  const used = useLoad(async () => {
    const [segments, payload] = await Promise.all([
      api.get<{ segments: WithConstraints[] }>('/api/admin/segments').catch(() => ({ segments: [] })),
      environment
        ? api.get<Payload>(`/api/admin/playground/features?environment=${seg(environment)}`).catch((): Payload => ({}))
        : Promise.resolve<Payload>({}),
    ])
    const holders = [
      ...segments.segments,
      ...(payload.segments ?? []),
      ...(payload.features ?? []).flatMap((feature) => feature.strategies ?? []),
    ]
    return holders.flatMap((holder) => (holder.constraints ?? []).map((constraint) => constraint.contextName))
  }, [environment])
  const others = [...new Set(used.data ?? [])].filter((name) => !CONTEXT_FIELDS.includes(name)).sort()
  return [...CONTEXT_FIELDS, ...others]
}
