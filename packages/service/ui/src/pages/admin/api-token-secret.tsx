import { useEffect, useRef } from 'preact/hooks'
import { Button } from '../../components/controls.tsx'
import { CopyButton } from '../../components/copy-button.tsx'
import { PROXY_PLACEHOLDER, type UiConfig, useUiConfig } from '../../components/proxy-setup.tsx'
import type { ApiToken } from './admin-types.ts'

interface Example {
  label: string
  text: string
}

/**
 * How to use a token of this type, ready to paste: the secret is in every line, the proxy's
 * address the one the service knows (a placeholder to replace while it knows none).
 */
export function examples(type: ApiToken['type'], secret: string, proxyUrl: UiConfig['proxy']['url']): Example[] {
  const origin = window.location.origin
  const proxy = proxyUrl ?? PROXY_PLACEHOLDER
  switch (type) {
    case 'client':
    case 'backend':
      return [
        {
          label: 'A server SDK (Node, Go, Java, …) reads these:',
          text: `UNLEASH_URL=${origin}/api\nUNLEASH_API_TOKEN='${secret}'`,
        },
        {
          label: 'Or fetch the flags now:',
          text: `curl -H 'Authorization: ${secret}' '${origin}/api/client/features'`,
        },
      ]
    case 'frontend':
      return [
        {
          label: proxyUrl
            ? "Ask the proxy's frontend API:"
            : `Ask the proxy's frontend API (replace ${PROXY_PLACEHOLDER} with its address, or set PROXY_URL on the service):`,
          text: `curl -H 'Authorization: ${secret}' '${proxy}/api/frontend?userId=42'`,
        },
        {
          label: 'In a browser app (unleash-proxy-client):',
          text: `new UnleashClient({ url: '${proxy}/api/frontend', clientKey: '${secret}', appName: 'my-app' })`,
        },
      ]
    case 'admin':
      return [
        { label: 'Call the admin API:', text: `curl -H 'Authorization: ${secret}' '${origin}/api/admin/projects'` },
      ]
  }
}

/**
 * The secret of a token just made: the only time it is shown (the service keeps only its hash).
 * Takes focus, so a keyboard or screen-reader user lands on it.
 */
export function NewTokenSecret({ token, onDone }: { token: ApiToken; onDone: () => void }) {
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => ref.current?.focus(), [token])
  const config = useUiConfig()
  return (
    <div
      class="secret token-secret"
      ref={ref}
      tabIndex={-1}
      role="region"
      aria-label={`Secret of the token ${token.tokenName}`}
    >
      <p>
        <strong>Copy the secret of “{token.tokenName}” now: you will not see it again.</strong> Vexil stores only its
        hash; if it is lost, create another token and revoke this one.
      </p>
      <div class="secret-line">
        <code class="wrap" data-testid="token-secret">
          {token.secret}
        </code>
        <CopyButton text={token.secret} what="token secret" />
      </div>
      {examples(token.type, token.secret, config.data?.proxy.url ?? null).map((example) => (
        <div key={example.label} class="token-example">
          <p class="muted small">{example.label}</p>
          <div class="secret-line">
            <pre class="wrap" data-testid="token-example">
              {example.text}
            </pre>
            <CopyButton text={example.text} what={`example: ${example.label}`} />
          </div>
        </div>
      ))}
      <Button size="small" onClick={onDone}>
        I have copied it
      </Button>
    </div>
  )
}
