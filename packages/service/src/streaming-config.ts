/** How the service streams changes to clients (`/api/client/streaming`). */
export interface StreamingConfig {
  /** `STREAMING`: `false` turns the streaming and delta routes off (404, so SDKs poll). Default on. */
  enabled: boolean
  /** `STREAMING_KEEPALIVE_MS`: the longest silence on a stream; SDKs drop a stream silent for 60 s. */
  keepAliveMs: number
  /** `STREAMING_MAX_CONNECTIONS`: open streams per instance; past it a client gets 429 and polls. */
  maxConnections: number
}

const DEFAULTS: StreamingConfig = { enabled: true, keepAliveMs: 15_000, maxConnections: 10_000 }

/** Reads the streaming settings from `env`; a bad value adds a problem naming its variable. */
export function parseStreamingConfig(env: NodeJS.ProcessEnv, problems: string[]): StreamingConfig {
  const flag = env.STREAMING?.trim().toLowerCase()
  let enabled = DEFAULTS.enabled
  if (flag === 'false' || flag === '0') enabled = false
  else if (flag && flag !== 'true' && flag !== '1')
    problems.push(`STREAMING must be true or false, got "${env.STREAMING}"`)
  return {
    enabled,
    keepAliveMs: integer(env, 'STREAMING_KEEPALIVE_MS', DEFAULTS.keepAliveMs, 50_000, problems),
    maxConnections: integer(
      env,
      'STREAMING_MAX_CONNECTIONS',
      DEFAULTS.maxConnections,
      Number.MAX_SAFE_INTEGER,
      problems,
    ),
  }
}

function integer(env: NodeJS.ProcessEnv, variable: string, fallback: number, max: number, problems: string[]): number {
  const text = env[variable]?.trim()
  if (!text) return fallback
  const value = Number(text)
  if (!/^\d+$/.test(text) || value < 1) problems.push(`${variable} must be a positive integer, got "${text}"`)
  else if (value > max) problems.push(`${variable} must be at most ${max}, got ${value}`)
  return value
}
