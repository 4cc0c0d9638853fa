// The example manifests are copied as they are: none of their secrets may start a deployment, or
// it would run with a token everyone has read (security review 2, finding 9). The Secrets'
// values go through the same configuration parsing as at start.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ConfigError as ProxyConfigError, createProxyConfig } from '@vexil/proxy'
import { ConfigError as ServiceConfigError, parseServiceConfig } from '@vexil/service'

/** The `stringData` of the manifest's Secret, plus the container's plain `env` entries. */
function manifestEnvironment(name: string): Record<string, string> {
  const text = readFileSync(fileURLToPath(new URL(`../../../examples/kubernetes/${name}`, import.meta.url)), 'utf8')
  const env: Record<string, string> = {}
  for (const [, key, value] of text.matchAll(/^ {2}([A-Z][A-Z0-9_]*): "([^"]*)"/gm)) env[key!] = value!
  for (const [, key, value] of text.matchAll(/\{ name: ([A-Z][A-Z0-9_]*), value: "([^"]*)" \}/g)) env[key!] = value!
  return env
}

describe('examples/kubernetes', () => {
  it('service.yaml: the service refuses its placeholder tokens, naming both variables', () => {
    const env = manifestEnvironment('service.yaml')
    expect(Object.keys(env)).toEqual(expect.arrayContaining(['INIT_ADMIN_API_TOKENS', 'INIT_CLIENT_API_TOKENS']))
    let error: unknown
    try {
      parseServiceConfig(env)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ServiceConfigError)
    expect((error as Error).message).toContain('INIT_ADMIN_API_TOKENS: token 1')
    expect((error as Error).message).toContain('INIT_CLIENT_API_TOKENS: token 1')
  })

  it('proxy.yaml: the proxy refuses to start until its token and client keys are set', async () => {
    const env = manifestEnvironment('proxy.yaml')
    expect(Object.keys(env)).toEqual(
      expect.arrayContaining(['UNLEASH_URL', 'UNLEASH_API_TOKEN', 'UNLEASH_PROXY_CLIENT_KEYS']),
    )
    await expect(createProxyConfig({}, env)).rejects.toBeInstanceOf(ProxyConfigError)
  })
})
