import { MAX_BODY_BYTES } from './request-body.js'

/** Limits of signal endpoints and actions (spec section 8), each overridable for self-hosting. */
export interface SignalConfig {
  /** `SIGNAL_ENDPOINT_RATE_LIMIT_PER_SECOND`: accepted signals per endpoint per second. */
  ratePerSecond: number
  /** `UNLEASH_SIGNAL_ENDPOINTS_LIMIT`: signal endpoints in the instance. */
  endpointsLimit: number
  /** `UNLEASH_SIGNAL_TOKENS_PER_ENDPOINT_LIMIT`: tokens per signal endpoint. */
  tokensPerEndpointLimit: number
  /** `SIGNAL_ENDPOINT_PAYLOAD_LIMIT_BYTES`: the largest signal body, in bytes. */
  payloadLimitBytes: number
  /** `UNLEASH_ACTION_SETS_PER_PROJECT_LIMIT`: action sets per project. */
  actionSetsPerProjectLimit: number
  /** `UNLEASH_ACTION_SET_FILTERS_LIMIT`: payload filters per action set. */
  filtersPerActionSetLimit: number
  /** `UNLEASH_ACTION_SET_FILTER_VALUES_LIMIT`: values per filter. */
  valuesPerFilterLimit: number
  /** `UNLEASH_ACTION_SET_ACTIONS_LIMIT`: actions per action set. */
  actionsPerActionSetLimit: number
  /** `SIGNAL_ACTIONS_SWEEP_INTERVAL_MS`: how often the action runner looks for queued signals. */
  sweepIntervalMs: number
}

interface Setting {
  key: keyof SignalConfig
  variable: string
  fallback: number
  max?: number
}

const SETTINGS: readonly Setting[] = [
  { key: 'ratePerSecond', variable: 'SIGNAL_ENDPOINT_RATE_LIMIT_PER_SECOND', fallback: 1 },
  { key: 'endpointsLimit', variable: 'UNLEASH_SIGNAL_ENDPOINTS_LIMIT', fallback: 5 },
  { key: 'tokensPerEndpointLimit', variable: 'UNLEASH_SIGNAL_TOKENS_PER_ENDPOINT_LIMIT', fallback: 5 },
  // 100 kb as in Unleash (Express's default body limit); never above the service's body cap.
  {
    key: 'payloadLimitBytes',
    variable: 'SIGNAL_ENDPOINT_PAYLOAD_LIMIT_BYTES',
    fallback: 100 * 1024,
    max: MAX_BODY_BYTES,
  },
  { key: 'actionSetsPerProjectLimit', variable: 'UNLEASH_ACTION_SETS_PER_PROJECT_LIMIT', fallback: 5 },
  { key: 'filtersPerActionSetLimit', variable: 'UNLEASH_ACTION_SET_FILTERS_LIMIT', fallback: 5 },
  { key: 'valuesPerFilterLimit', variable: 'UNLEASH_ACTION_SET_FILTER_VALUES_LIMIT', fallback: 25 },
  { key: 'actionsPerActionSetLimit', variable: 'UNLEASH_ACTION_SET_ACTIONS_LIMIT', fallback: 10 },
  { key: 'sweepIntervalMs', variable: 'SIGNAL_ACTIONS_SWEEP_INTERVAL_MS', fallback: 5_000 },
]

/** Reads every signal setting from `env`; a bad value adds a problem naming its variable. */
export function parseSignalConfig(env: NodeJS.ProcessEnv, problems: string[]): SignalConfig {
  const config = {} as SignalConfig
  for (const { key, variable, fallback, max } of SETTINGS) {
    const text = env[variable]?.trim()
    if (!text) {
      config[key] = fallback
      continue
    }
    const value = Number(text)
    if (!/^\d+$/.test(text) || value < 1) problems.push(`${variable} must be a positive integer, got "${text}"`)
    else if (max !== undefined && value > max) problems.push(`${variable} must be at most ${max}, got ${value}`)
    config[key] = value
  }
  return config
}
