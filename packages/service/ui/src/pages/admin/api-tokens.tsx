import { useState } from 'preact/hooks'
import { ProxySetup } from '../../components/proxy-setup.tsx'
import { seg, useApi } from '../../api.ts'
import { Badge, Card, Empty, Loading } from '../../components/controls.tsx'
import { ConfirmButton } from '../../components/confirm-button.tsx'
import { ErrorNote } from '../../components/error-note.tsx'
import { Time } from '../../components/time.tsx'
import { useLoad, useTitle } from '../../hooks.ts'
import { storedToken } from '../../session.ts'
import type { Project } from '../../types.ts'
import type { ApiToken, Environment } from './admin-types.ts'
import { ApiTokenForm } from './api-token-form.tsx'
import { NewTokenSecret } from './api-token-secret.tsx'
import './admin.css'

/** API tokens: create client, frontend and admin tokens (the secret shown once), list them, revoke. */
export function ApiTokensPage() {
  useTitle('API tokens')
  const api = useApi()
  const tokens = useLoad(async () => (await api.get<{ tokens: ApiToken[] }>('/api/admin/api-tokens')).tokens, [])
  const projects = useLoad(async () => (await api.get<{ projects: Project[] }>('/api/admin/projects')).projects, [])
  const environments = useLoad(
    async () => (await api.get<{ environments: Environment[] }>('/api/admin/environments')).environments,
    [],
  )
  const [created, setCreated] = useState<ApiToken>()

  const onCreated = async (token: ApiToken) => {
    setCreated(token)
    await tokens.reload()
  }
  const reloadChoices = async () => {
    await Promise.all([projects.reload(), environments.reload()])
  }
  const newestFirst = [...(tokens.data ?? [])].sort((a, b) => b.id - a.id)

  return (
    <div class="page admin-page">
      <div class="page-header">
        <h1>API tokens</h1>
      </div>
      <p class="lead">
        SDKs, the proxy and scripts authenticate with these. A token's secret is shown once, when it is made; the list
        below shows only its first characters.
      </p>
      <ProxySetup />
      <Card title="New API token" id="new-token">
        {created && <NewTokenSecret token={created} onDone={() => setCreated(undefined)} />}
        <ErrorNote error={projects.error ?? environments.error} />
        {projects.data && environments.data ? (
          <ApiTokenForm
            projects={projects.data}
            environments={environments.data}
            onCreated={onCreated}
            onRefused={reloadChoices}
          />
        ) : (
          !(projects.error ?? environments.error) && <Loading what="projects and environments" />
        )}
      </Card>
      <ErrorNote error={tokens.error} />
      {!tokens.data ? (
        !tokens.error && <Loading what="API tokens" />
      ) : (
        <Card title={`Tokens (${tokens.data.length})`} class="flush" id="tokens">
          {tokens.data.length === 0 ? (
            <Empty>No API tokens yet: create one above.</Empty>
          ) : (
            <ul class="rows">
              {newestFirst.map((token) => (
                <TokenRow key={token.id} token={token} onChanged={tokens.reload} />
              ))}
            </ul>
          )}
        </Card>
      )}
    </div>
  )
}

const TYPE_TONE: Record<ApiToken['type'], 'info' | 'good' | 'warn' | 'neutral'> = {
  client: 'info',
  backend: 'info',
  frontend: 'good',
  admin: 'warn',
}

/**
 * Whether the tab is signed in with this token. The list has only the display form of a secret
 * (`project:env.abcd…`, store/api-tokens.ts), so the signed-in secret is compared in that form.
 */
function signedInWith(token: ApiToken): boolean {
  const mine = storedToken()
  const dot = mine?.indexOf('.') ?? -1
  return token.type === 'admin' && mine !== undefined && dot >= 0 && `${mine.slice(0, dot + 5)}…` === token.secret
}

function TokenRow({ token, onChanged }: { token: ApiToken; onChanged: () => Promise<void> }) {
  const api = useApi()
  const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= Date.now()
  const mine = signedInWith(token)
  const admin = token.type === 'admin'
  return (
    <li class="row token-row" data-token={token.tokenName}>
      <div class="row-main">
        <span class="row-title">{token.tokenName}</span>
        <Badge tone={TYPE_TONE[token.type]}>{token.type}</Badge>
        {expired && <Badge tone="bad">expired</Badge>}
        {mine && <Badge tone="neutral">you are signed in with it</Badge>}
        <dl class="facts">
          <div>
            <dt>Projects</dt>
            <dd>{admin || token.projects.includes('*') ? 'all' : token.projects.join(', ')}</dd>
          </div>
          <div>
            <dt>Environment</dt>
            <dd>{admin ? 'all' : token.environment}</dd>
          </div>
          <div>
            <dt>Starts with</dt>
            <dd>
              <code class="wrap">{token.secret}</code>
            </dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>
              <Time iso={token.createdAt} relative={false} />
            </dd>
          </div>
          <div>
            <dt>Expires</dt>
            <dd>{token.expiresAt ? <Time iso={token.expiresAt} relative={false} /> : 'never'}</dd>
          </div>
          <div>
            <dt>Last used</dt>
            <dd>{token.seenAt ? <Time iso={token.seenAt} /> : 'not yet'}</dd>
          </div>
        </dl>
      </div>
      <div class="row-side">
        <ConfirmButton
          label="Revoke"
          ariaLabel={`Revoke ${token.tokenName}`}
          title={`Revoke the token ${token.tokenName}?`}
          confirmLabel="Revoke token"
          onConfirm={async () => {
            await api.delete(`/api/admin/api-tokens/${seg(token.id)}`)
            await onChanged()
          }}
        >
          <p>
            Anything that uses it is refused (401) from now on. A revoked token can not be restored: make a new one
            instead.
          </p>
          {mine && (
            <p>
              <strong>You are signed in with this token:</strong> revoking it signs you out.
            </p>
          )}
        </ConfirmButton>
      </div>
    </li>
  )
}
