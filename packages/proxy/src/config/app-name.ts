// The app name the proxy reports upstream, gives contexts without one and names its backup by.
// The default is the one the deployment migrates from, so `appName` constraints, the name seen
// upstream and the backup's key stay as they were: the old proxy's `unleash-proxy` when it is
// configured with the old proxy's variables, Edge's `unleash-edge` under `vexil edge`, else the
// specification's `service-proxy` (docs/old-proxy-compatibility.md 2.3, docs/edge-compatibility.md).

/** The old proxy's variables: configured with one of them, the proxy keeps the old default. */
const OLD_PROXY_VARIABLES = [
  'UNLEASH_URL',
  'UNLEASH_API_TOKEN',
  'UNLEASH_PROXY_CLIENT_KEYS',
  'UNLEASH_PROXY_SECRETS',
] as const

export interface AppName {
  name: string
  /** For the start log: the option or variable, or which default and why. */
  from: string
}

/**
 * `given`: the code option, else the first of the app name's variables set (with its name).
 * `read`: the variables the configuration was taken from (the first set of each setting).
 */
export function resolveAppName(
  given: { name: string; value: string } | undefined,
  mode: 'proxy' | 'edge',
  read: ReadonlySet<string>,
): AppName {
  if (given) return { name: given.value, from: given.name }
  if (mode === 'edge') return { name: 'unleash-edge', from: "Edge's default under vexil edge; APP_NAME sets another" }
  const old = OLD_PROXY_VARIABLES.find((name) => read.has(name))
  if (old)
    return {
      name: 'unleash-proxy',
      from: `the old proxy's default, as ${old} configures this proxy; SERVICE_APP_NAME sets another`,
    }
  return { name: 'service-proxy', from: 'the default; SERVICE_APP_NAME sets another' }
}
