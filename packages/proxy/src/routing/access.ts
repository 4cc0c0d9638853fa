// Who may call a route: a closed set of credential kinds, each read from the key header
// (CLIENT_KEY_HEADER_NAME) and compared exactly (docs/old-proxy-compatibility.md 1.1).
//   client-key                   one of SERVICE_PROXY_CLIENT_KEYS (the evaluation routes)
//   server-token                 one of EXP_SERVER_SIDE_SDK_CONFIG_TOKENS (/proxy/client/features)
//   client-key-or-server-token   either (metrics and registration, posted by both kinds of SDK)
//   open                         no key (health, Prometheus, the docs)
// and, for the Unleash API routes, an API token of the upstream (Authorization), checked by the
// token gate (token-gate.ts), never by this function:
//   frontend-token               /api/frontend*, /api/proxy*
//   client-token                 /api/client/*
// and, for OFREP, either a client key (answered from the /proxy scope) or a frontend token (from
// its own scope), read from X-API-Key or Authorization (`Bearer ` optional) by the router:
//   client-key-or-frontend-token /ofrep/v1/*
export const ACCESS_KINDS = [
  'client-key',
  'server-token',
  'client-key-or-server-token',
  'open',
  'frontend-token',
  'client-token',
  'client-key-or-frontend-token',
] as const
export const TOKEN_ACCESS_KINDS = { 'frontend-token': 'frontend', 'client-token': 'client' } as const
export type TokenAccess = keyof typeof TOKEN_ACCESS_KINDS
export type Access = (typeof ACCESS_KINDS)[number]

/** `(access, key) => allowed`; anything but a declared kind and a matching key is refused. */
export function compileAccessCheck(
  clientKeys: readonly string[],
  serverTokens: readonly string[],
): (access: Access, key: string | undefined) => boolean {
  const clients = new Set(clientKeys)
  const servers = new Set(serverTokens)
  return (access, key) => {
    switch (access) {
      case 'open':
        return true
      case 'client-key':
        return key !== undefined && clients.has(key)
      case 'server-token':
        return key !== undefined && servers.has(key)
      case 'client-key-or-server-token':
        return key !== undefined && (clients.has(key) || servers.has(key))
      default:
        return false
    }
  }
}
