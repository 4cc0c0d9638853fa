// The bucket of `POST /client/metrics`, as Unleash SDKs send it, and what a proxy adds to it:
// the counts of each SDK behind it under that SDK's own name, and the SDKs' registrations, so
// the upstream sees every app (Unleash's `/client/metrics/bulk`, bulk-body.ts).

export type ToggleBucket = Record<string, { yes: number; no: number; variants: Record<string, number> }>

/** Who counted: an SDK behind the proxy. The environment is the caller token's, when known. */
export interface AppIdentity {
  appName: string
  instanceId: string
  environment?: string
}

/** What an SDK registers (`POST /client/register`), or what its metrics imply for a frontend SDK. */
export interface AppRegistration extends AppIdentity {
  sdkVersion?: string
  sdkType?: 'frontend' | 'backend'
  strategies: string[]
  /** Milliseconds, as SDKs send it. */
  interval?: number
  started?: string
  /** The proxies between the SDK and this one, nearest the SDK first (a Vexil or an Edge in front posted it). */
  connectVia?: AppIdentity[]
}

export interface MetricsBucket {
  start: string
  stop: string
  /** The proxy's own counts (its lookups), and every app's when the upstream takes no bulk. */
  toggles: ToggleBucket
  /** Counts posted by SDKs behind the proxy, each under its own app. */
  apps?: (AppIdentity & { toggles: ToggleBucket })[]
  applications?: AppRegistration[]
  /** SHA-256 hex of each validated token the proxy served (served-tokens.ts); upstreams without use for it ignore it. */
  servedTokens?: string[]
}

/** What a reporter sends from: a counter hands over its bucket and takes back one that failed to send. */
export interface UsageBuckets {
  /** Takes the current bucket (undefined when empty) and starts a new one at `now`. */
  take(now: Date): MetricsBucket | undefined
  /** Puts back a bucket that failed to send: its counts are added, its start kept. */
  restore(bucket: MetricsBucket): void
}
