// Where SDKs connect: the service's own URL for server SDKs and the Vexil proxy's for browser and
// mobile apps, as the service knows them (GET /api/admin/ui-config: PROXY_URL, or what
// `vexil start` told it).
import { useApi } from '../api.ts'
import { useLoad } from '../hooks.ts'
import { CopyButton } from './copy-button.tsx'
import { ErrorNote } from './error-note.tsx'

export interface UiConfig {
  unleashUrl: string
  proxy: { url: string | null; clientKey: string | null }
}

/** Stands in a snippet for the proxy's address while the service has not been told it. */
export const PROXY_PLACEHOLDER = '<proxy-url>'

export function useUiConfig() {
  const api = useApi()
  return useLoad(() => api.get<UiConfig>('/api/admin/ui-config'), [])
}

/** The proxy's address and its `/proxy` client key, each with a copy button, or how to set them. */
export function ProxySetup() {
  const config = useUiConfig()
  const proxy = config.data?.proxy
  if (config.error) return <ErrorNote error={config.error} focus={false} />
  if (!proxy) return null
  return (
    <dl class="proxy-setup" data-testid="proxy-setup">
      <div>
        <dt>Proxy (for browser and mobile SDKs)</dt>
        <dd>
          {proxy.url ? (
            <span class="secret-line">
              <code class="wrap">{proxy.url}</code>
              <CopyButton text={proxy.url} what="proxy address" />
            </span>
          ) : (
            <span class="muted">
              Not known to the service: set <code>PROXY_URL</code> on it to the proxy's address.{' '}
              <code>vexil start</code> tells it the proxy it runs.
            </span>
          )}
        </dd>
      </div>
      {proxy.clientKey && (
        <div>
          <dt>
            Client key of <code>/proxy</code>
          </dt>
          <dd class="secret-line">
            <code class="wrap">{proxy.clientKey}</code>
            <CopyButton text={proxy.clientKey} what="proxy client key" />
          </dd>
        </div>
      )}
    </dl>
  )
}
