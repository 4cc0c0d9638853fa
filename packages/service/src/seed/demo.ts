import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Actor, Clock } from '../service-context.js'
import type { Database } from '../db/database.js'
import type { Change } from '../domain/change.js'
import { addDependency } from '../domain/dependencies.js'
import { createFlag } from '../domain/flags.js'
import { createProject } from '../domain/projects.js'
import { createSegment } from '../domain/segments.js'
import { addStrategy } from '../domain/strategies.js'
import { setFlagEnabled } from '../domain/toggle.js'
import { createUser } from '../domain/users.js'
import { setFlagVariants } from '../domain/variants.js'
import { insertApiToken } from '../store/api-tokens.js'
import { getProject } from '../store/projects.js'
import { markUserSeen } from '../store/users.js'
import { randomSecret } from '../token-secrets.js'
import { DEMO_FLAGS, DEMO_PROJECT, DEMO_SEGMENT, DEMO_USER } from './demo-flags.js'

/** Credentials that work as-is against a demo instance. */
export interface DemoCredentials {
  /** `*:*.<secret>`: an admin API token. */
  adminToken: string
  /** `*:development.<secret>`: a client token for SDKs and the proxy. */
  clientToken: string
  /** `*:development.<secret>`: a frontend token, for browser SDKs on the proxy's /api/frontend. */
  frontendToken: string
  /** A key for the proxy's `clientKeys` (not a service token). */
  proxyClientKey: string
}

export const DEMO_CREDENTIALS_FILE = 'demo-credentials.json'

const ACTOR: Actor = { name: 'vexil-demo' }

/**
 * On an empty instance, creates the demo project and flags (enabled in `development`) and a
 * person seen now, so the insights of a fresh instance count a user. Every call returns the demo
 * credentials: only their hashes are in the database, so the secrets live in
 * `<dataDir>/demo-credentials.json` (mode 0600) and are re-read on later starts.
 */
export async function seedDemo(db: Database, options: { dataDir: string; clock: Clock }): Promise<DemoCredentials> {
  const { clock } = options
  await db.transaction(async (tx) => {
    if (await getProject(tx, DEMO_PROJECT)) return
    const change = { tx, actor: ACTOR, clock }
    await createDemoProject(change)
    await createDemoUser(change)
  })
  const credentials = (await readCredentials(options.dataDir)) ?? (await writeCredentials(options.dataDir))
  await db.transaction(async (tx) => {
    await insertApiToken(
      tx,
      { secret: credentials.adminToken, tokenName: 'demo-admin', type: 'admin', environment: '*', projects: ['*'] },
      clock(),
    )
    await insertApiToken(
      tx,
      {
        secret: credentials.clientToken,
        tokenName: 'demo-client',
        type: 'client',
        environment: 'development',
        projects: ['*'],
      },
      clock(),
    )
    await insertApiToken(
      tx,
      {
        secret: credentials.frontendToken,
        tokenName: 'demo-frontend',
        type: 'frontend',
        environment: 'development',
        projects: ['*'],
      },
      clock(),
    )
  })
  return credentials
}

// --- Internal helpers ---

/** Made through the same domain operations as the admin API, so the demo has the same rows and events. */
async function createDemoProject(change: Change): Promise<void> {
  const project = DEMO_PROJECT
  await createProject(change, {
    id: project,
    name: 'Demo',
    description: 'Flags of every strategy kind, made on first start',
  })
  const segment = await createSegment(change, { ...DEMO_SEGMENT, project })
  const environment = 'development'
  for (const flag of DEMO_FLAGS) {
    const feature = flag.name
    await createFlag(change, project, { name: feature, description: flag.description, type: flag.type ?? 'release' })
    const { useSegment, ...strategy } = flag.strategy
    await addStrategy(
      change,
      { project, feature, environment },
      { constraints: [], variants: [], ...strategy, segments: useSegment ? [segment.id] : [] },
    )
    if (flag.variants)
      await setFlagVariants(change, { project, feature, variants: flag.variants, environments: [environment] })
    if (flag.parent)
      await addDependency(change, project, feature, { feature: flag.parent, enabled: true, variants: [] })
    await setFlagEnabled(change, { project, feature, environment, enabled: true })
  }
}

/** Made as the user admin API makes one, then marked seen as a request with their token would. */
async function createDemoUser(change: Change): Promise<void> {
  const user = await createUser(change, DEMO_USER)
  await markUserSeen(change.tx, user.id, change.clock())
}

async function readCredentials(dataDir: string): Promise<DemoCredentials | undefined> {
  try {
    const parsed = JSON.parse(await readFile(join(dataDir, DEMO_CREDENTIALS_FILE), 'utf8')) as Partial<DemoCredentials>
    if (parsed.adminToken && parsed.clientToken && parsed.proxyClientKey) {
      const credentials = {
        adminToken: parsed.adminToken,
        clientToken: parsed.clientToken,
        proxyClientKey: parsed.proxyClientKey,
        frontendToken: parsed.frontendToken ?? '',
      }
      // A data folder from before the frontend token: add one, keep the rest.
      if (!credentials.frontendToken) {
        credentials.frontendToken = `*:development.${randomSecret()}`
        await saveCredentials(dataDir, credentials)
      }
      return credentials
    }
  } catch {
    // Missing or unreadable: new credentials are made below.
  }
  return undefined
}

async function writeCredentials(dataDir: string): Promise<DemoCredentials> {
  const credentials: DemoCredentials = {
    adminToken: `*:*.${randomSecret()}`,
    clientToken: `*:development.${randomSecret()}`,
    frontendToken: `*:development.${randomSecret()}`,
    proxyClientKey: `proxy-${randomSecret(16)}`,
  }
  await saveCredentials(dataDir, credentials)
  return credentials
}

async function saveCredentials(dataDir: string, credentials: DemoCredentials): Promise<void> {
  await mkdir(dataDir, { recursive: true })
  const file = join(dataDir, DEMO_CREDENTIALS_FILE)
  await writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 })
  await chmod(file, 0o600)
}
