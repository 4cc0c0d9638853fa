import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Actor, Clock } from '../context.js'
import type { Database, Queryable } from '../db/database.js'
import { completeStrategy } from '../domain/strategy-defaults.js'
import { toggleFeature } from '../domain/toggle.js'
import { fixVariantWeights } from '../domain/variant-weights.js'
import { writeEvent } from '../events.js'
import { insertApiToken } from '../store/api-tokens.js'
import { setDependency } from '../store/dependencies.js'
import { insertFeature, setEnvironmentVariants, toFeature } from '../store/features.js'
import { getProject, insertProject } from '../store/projects.js'
import { insertSegment } from '../store/segments.js'
import { insertStrategy, toStrategy } from '../store/strategies.js'
import { randomSecret } from '../token-secrets.js'
import { DEMO_FLAGS, DEMO_PROJECT, DEMO_SEGMENT } from './demo-flags.js'

/** Credentials that work as-is against a demo instance. */
export interface DemoCredentials {
  /** `*:*.<secret>`: an admin API token. */
  adminToken: string
  /** `*:development.<secret>`: a client token for SDKs and the proxy. */
  clientToken: string
  /** A key for the proxy's `clientKeys` (not a service token). */
  proxyClientKey: string
}

export const DEMO_CREDENTIALS_FILE = 'demo-credentials.json'

const ACTOR: Actor = { name: 'vexil-demo' }

/**
 * On an empty instance, creates the demo project and flags (enabled in `development`). Every
 * call returns the demo credentials: only their hashes are in the database, so the secrets live
 * in `<dataDir>/demo-credentials.json` (mode 0600) and are re-read on later starts.
 */
export async function seedDemo(db: Database, options: { dataDir: string; clock: Clock }): Promise<DemoCredentials> {
  const { clock } = options
  await db.transaction(async (tx) => {
    if (await getProject(tx, DEMO_PROJECT)) return
    await createDemoProject(tx, clock)
  })
  const credentials = (await readCredentials(options.dataDir)) ?? (await writeCredentials(options.dataDir))
  await db.transaction(async (tx) => {
    await insertApiToken(tx, { secret: credentials.adminToken, tokenName: 'demo-admin', type: 'admin', environment: '*', projects: ['*'] }, clock())
    await insertApiToken(tx, { secret: credentials.clientToken, tokenName: 'demo-client', type: 'client', environment: 'development', projects: ['*'] }, clock())
  })
  return credentials
}

// --- Internal helpers ---

async function createDemoProject(tx: Queryable, clock: Clock): Promise<void> {
  await insertProject(tx, { id: DEMO_PROJECT, name: 'Demo', description: 'Flags of every strategy kind, made on first start' }, undefined, clock())
  await writeEvent(tx, ACTOR, clock, { type: 'project-created', project: DEMO_PROJECT })
  const segment = await insertSegment(tx, { ...DEMO_SEGMENT, project: DEMO_PROJECT }, ACTOR.name, clock())
  await writeEvent(tx, ACTOR, clock, { type: 'segment-created', project: DEMO_PROJECT, data: { id: segment.id, name: segment.name } })
  const environment = 'development'
  for (const flag of DEMO_FLAGS) {
    const feature = await insertFeature(tx, DEMO_PROJECT, { name: flag.name, description: flag.description, type: flag.type ?? 'release' }, clock())
    await writeEvent(tx, ACTOR, clock, { type: 'feature-created', project: DEMO_PROJECT, featureName: flag.name, data: toFeature(feature) })
    const { useSegment, ...strategy } = flag.strategy
    const body = completeStrategy(
      { constraints: [], variants: [], ...strategy, segments: useSegment ? [segment.id] : [] },
      flag.name,
      'default',
    )
    const row = await insertStrategy(tx, { feature: flag.name, project: DEMO_PROJECT, environment }, body, clock())
    await writeEvent(tx, ACTOR, clock, { type: 'feature-strategy-add', project: DEMO_PROJECT, featureName: flag.name, environment, data: toStrategy(row) })
    if (flag.variants) {
      await setEnvironmentVariants(tx, flag.name, environment, fixVariantWeights(flag.variants))
      await writeEvent(tx, ACTOR, clock, { type: 'feature-environment-variants-updated', project: DEMO_PROJECT, featureName: flag.name, environment, data: { variants: flag.variants } })
    }
    if (flag.parent) {
      await setDependency(tx, { parent: flag.parent, child: flag.name, enabled: true, variants: [] })
      await writeEvent(tx, ACTOR, clock, { type: 'feature-dependency-added', project: DEMO_PROJECT, featureName: flag.name, data: { feature: flag.parent } })
    }
    await toggleFeature(tx, ACTOR, clock, feature, environment, true)
  }
}

async function readCredentials(dataDir: string): Promise<DemoCredentials | undefined> {
  try {
    const parsed = JSON.parse(await readFile(join(dataDir, DEMO_CREDENTIALS_FILE), 'utf8')) as Partial<DemoCredentials>
    if (parsed.adminToken && parsed.clientToken && parsed.proxyClientKey) {
      return { adminToken: parsed.adminToken, clientToken: parsed.clientToken, proxyClientKey: parsed.proxyClientKey }
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
    proxyClientKey: `proxy-${randomSecret(16)}`,
  }
  await mkdir(dataDir, { recursive: true })
  const file = join(dataDir, DEMO_CREDENTIALS_FILE)
  await writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 })
  await chmod(file, 0o600)
  return credentials
}
