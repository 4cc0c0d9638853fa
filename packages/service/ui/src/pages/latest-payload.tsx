import { flattenPayload } from '@vexil/service/admin-rules'
import { seg, useApi } from '../api.ts'
import { Loading } from '../components/controls.tsx'
import { ErrorNote } from '../components/error-note.tsx'
import { JsonView } from '../components/json-view.tsx'
import { Time } from '../components/time.tsx'
import { useLoad, usePolling } from '../hooks.ts'
import type { Signal } from '../types.ts'
import { SIGNALS_POLL_MS } from './signal-endpoint.tsx'

/**
 * The endpoint's latest signal (the list's element [0], newest first), fetched again every 5 s
 * as Unleash's form does, with its flattened fields as filter suggestions.
 */
export function LatestPayload({
  endpointId,
  onUse,
}: {
  endpointId: number
  onUse: (path: string, value: string) => void
}) {
  const api = useApi()
  const latest = useLoad(
    async () =>
      (
        await api.get<{ signalEndpointSignals: Signal[] }>(
          `/api/admin/signal-endpoints/${seg(endpointId)}/signals?limit=1`,
        )
      ).signalEndpointSignals[0] ?? null,
    [endpointId],
  )
  usePolling(latest.reload, SIGNALS_POLL_MS)
  const fields = latest.data ? [...flattenPayload(latest.data.payload)] : []
  return (
    <div class="latest-payload">
      <h3>Latest payload</h3>
      <ErrorNote error={latest.error} focus={false} />
      <datalist id="payload-paths">
        {fields.map(([path]) => (
          <option key={path} value={path} />
        ))}
      </datalist>
      {latest.data === undefined ? (
        !latest.error && <Loading what="the latest signal" />
      ) : latest.data === null ? (
        <p class="muted">
          This endpoint has received no signal yet. Send one, and its fields appear here to build filters from.
        </p>
      ) : (
        <div class="latest-grid">
          <div>
            <p class="muted small">
              Received <Time iso={latest.data.createdAt} />
            </p>
            <JsonView value={latest.data.payload} label="Latest payload" />
          </div>
          {fields.length > 0 && (
            <div>
              <p class="muted small">Fields (click to filter on one)</p>
              <ul class="field-chips">
                {fields.map(([path, value]) => (
                  <li key={path}>
                    <button
                      type="button"
                      class="chip"
                      onClick={() => onUse(path, value === null || value === undefined ? '' : String(value))}
                    >
                      <code>{path}</code> = {JSON.stringify(value)}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      )}
    </div>
  )
}
