import type { Queryable } from '../db/database.js'
import { iso, json } from './rows.js'

export interface Registration {
  appName: string
  instanceId: string
  environment: string
  sdkVersion: string | null
  strategies: string[]
  started: Date | null
  interval: number | null
  clientIp: string | null
}

/** Records the application and its instance; repeated registrations update `last seen`. */
export async function registerClient(q: Queryable, registration: Registration, now: Date): Promise<void> {
  await q.query(
    `INSERT INTO client_applications (app_name, strategies, created_at, updated_at, seen_at) VALUES ($1, $2, $3, $3, $3)
     ON CONFLICT (app_name) DO UPDATE SET strategies = EXCLUDED.strategies, updated_at = EXCLUDED.updated_at, seen_at = EXCLUDED.seen_at`,
    [registration.appName, json(registration.strategies), now],
  )
  await q.query(
    `INSERT INTO client_instances (app_name, instance_id, environment, sdk_version, client_ip, strategies, started, "interval", created_at, last_seen)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
     ON CONFLICT (app_name, instance_id, environment) DO UPDATE SET sdk_version = EXCLUDED.sdk_version, client_ip = EXCLUDED.client_ip,
       strategies = EXCLUDED.strategies, started = EXCLUDED.started, "interval" = EXCLUDED."interval", last_seen = EXCLUDED.last_seen`,
    [
      registration.appName,
      registration.instanceId,
      registration.environment,
      registration.sdkVersion,
      registration.clientIp,
      json(registration.strategies),
      registration.started,
      registration.interval,
      now,
    ],
  )
}

/** Marks an instance seen when it posts metrics (the SDK may never have registered). */
export async function touchClientInstance(
  q: Queryable,
  appName: string,
  instanceId: string,
  environment: string,
  now: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO client_applications (app_name, created_at, updated_at, seen_at) VALUES ($1, $2, $2, $2)
     ON CONFLICT (app_name) DO UPDATE SET seen_at = EXCLUDED.seen_at`,
    [appName, now],
  )
  await q.query(
    `INSERT INTO client_instances (app_name, instance_id, environment, created_at, last_seen) VALUES ($1, $2, $3, $4, $4)
     ON CONFLICT (app_name, instance_id, environment) DO UPDATE SET last_seen = EXCLUDED.last_seen`,
    [appName, instanceId, environment, now],
  )
}

/** Unleash's applicationsSchema items, with each application's instances. */
export async function listApplications(q: Queryable) {
  const apps = await q.query<{
    app_name: string
    description: string | null
    url: string | null
    color: string | null
    icon: string | null
    strategies: string[]
    created_at: Date
    seen_at: Date | null
  }>('SELECT * FROM client_applications ORDER BY app_name')
  const instances = await q.query<{
    app_name: string
    instance_id: string
    environment: string
    sdk_version: string | null
    client_ip: string | null
    started: Date | null
    interval: number | null
    last_seen: Date
  }>('SELECT * FROM client_instances ORDER BY app_name, instance_id')
  return apps.map((app) => ({
    appName: app.app_name,
    description: app.description,
    url: app.url,
    color: app.color,
    icon: app.icon,
    strategies: app.strategies,
    createdAt: iso(app.created_at),
    seenAt: iso(app.seen_at),
    instances: instances
      .filter((instance) => instance.app_name === app.app_name)
      .map((instance) => ({
        instanceId: instance.instance_id,
        environment: instance.environment,
        sdkVersion: instance.sdk_version,
        clientIp: instance.client_ip,
        started: iso(instance.started),
        interval: instance.interval,
        lastSeen: iso(instance.last_seen),
      })),
  }))
}
