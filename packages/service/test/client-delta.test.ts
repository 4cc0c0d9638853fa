// `GET /api/client/delta` (issue 18): what a client at one revision needs to reach the current
// one. The check that matters: a client applying the events, in order, over what it had ends with
// exactly what `/api/client/features` serves, after every kind of change, on both drivers.
import { describe, expect, it } from 'vitest'
import { databaseDrivers } from './helpers/drivers.js'
import { createFlag, startTestService, type TestService } from './helpers/service.js'

const drivers = await databaseDrivers('client-delta')

type Feature = { name: string; [key: string]: unknown }
type Segment = { id: number; [key: string]: unknown }
type DeltaEvent = {
  type: string
  eventId: number
  features?: Feature[]
  segments?: Segment[]
  feature?: Feature
  featureName?: string
  project?: string
  segment?: Segment
  segmentId?: number
}

/** A client's copy of a scope, kept up to date by applying delta events as the Node SDK does. */
class ClientCopy {
  features = new Map<string, Feature>()
  segments = new Map<number, Segment>()
  revision: number | undefined

  apply(events: DeltaEvent[]): void {
    for (const event of events) {
      if (event.type === 'hydration') {
        this.features = new Map(event.features!.map((feature) => [feature.name, feature]))
        this.segments = new Map(event.segments!.map((segment) => [segment.id, segment]))
      } else if (event.type === 'feature-updated') this.features.set(event.feature!.name, event.feature!)
      else if (event.type === 'feature-removed') this.features.delete(event.featureName!)
      else if (event.type === 'segment-updated') this.segments.set(event.segment!.id, event.segment!)
      else if (event.type === 'segment-removed') this.segments.delete(event.segmentId!)
      else throw new Error(`unknown event ${event.type}`)
      this.revision = event.eventId
    }
  }
}

async function poll(
  service: TestService,
  token: string,
  copy: ClientCopy,
  query = '',
): Promise<{ status: number; events: DeltaEvent[] }> {
  const response = await service.api('GET', `/api/client/delta${query}`, {
    token,
    headers: copy.revision === undefined ? {} : { 'if-none-match': `"${copy.revision}"` },
  })
  const events: DeltaEvent[] = response.status === 200 ? response.body.events : []
  if (response.status === 200) copy.apply(events)
  if (response.status === 200 || response.status === 304)
    copy.revision = Number(/"(\d+)"/.exec(response.headers.get('etag') ?? '')?.[1])
  return { status: response.status, events }
}

/** Asserts the copy equals the full answer: every flag, and every segment those flags use. */
async function expectInSync(service: TestService, token: string, copy: ClientCopy, query = ''): Promise<void> {
  const full = (await service.api('GET', `/api/client/features${query}`, { token })).body
  expect([...copy.features.values()].sort((a, b) => a.name.localeCompare(b.name))).toEqual(full.features)
  const used = new Set<number>(full.segments.map((segment: Segment) => segment.id))
  expect([...copy.segments.values()].filter((segment) => used.has(segment.id)).sort((a, b) => a.id - b.id)).toEqual(
    full.segments,
  )
}

const strategies = (project: string, flag: string, environment = 'development') =>
  `/api/admin/projects/${project}/features/${flag}/environments/${environment}/strategies`

describe.each(drivers)('GET /api/client/delta on $name', ({ open }) => {
  const run = open ? it : it.skip

  run(
    'a client applying the deltas stays equal to /api/client/features through every kind of change',
    async () => {
      const db = await open!()
      const service = await startTestService({ db })
      try {
        await service.api('POST', '/api/admin/projects', { body: { id: 'other', name: 'Other' } })
        const all = await service.clientToken('development')
        const copy = new ClientCopy()

        const first = await poll(service, all, copy)
        expect(first.status).toBe(200)
        expect(first.events.map((event) => event.type)).toEqual(['hydration'])
        await expectInSync(service, all, copy)
        expect((await poll(service, all, copy)).status).toBe(304)

        const { body: segment } = await service.api('POST', '/api/admin/segments', {
          body: { name: 'beta', constraints: [{ contextName: 'userId', operator: 'IN', values: ['a'] }] },
        })
        const steps: [string, () => Promise<unknown>, string[]][] = [
          ['create a flag', () => createFlag(service, 'default', 'delta-a'), ['feature-updated']],
          [
            'enable it',
            () => service.api('POST', '/api/admin/projects/default/features/delta-a/environments/development/on'),
            ['feature-updated'],
          ],
          [
            'add a strategy with a segment',
            () =>
              service.api('POST', strategies('default', 'delta-a'), {
                body: {
                  name: 'flexibleRollout',
                  parameters: { rollout: '50', stickiness: 'default' },
                  segments: [segment.id],
                },
              }),
            ['segment-updated', 'feature-updated'],
          ],
          [
            'edit the segment',
            () =>
              service.api('PUT', `/api/admin/segments/${segment.id}`, {
                body: { name: 'beta', constraints: [{ contextName: 'userId', operator: 'IN', values: ['a', 'b'] }] },
              }),
            ['segment-updated'],
          ],
          [
            'change only production',
            () => service.api('POST', '/api/admin/projects/default/features/delta-a/environments/production/on'),
            [],
          ],
          [
            'create two flags',
            async () => {
              await createFlag(service, 'default', 'delta-b')
              await createFlag(service, 'other', 'delta-c')
            },
            ['feature-updated', 'feature-updated'],
          ],
          [
            'archive one',
            () => service.api('DELETE', '/api/admin/projects/default/features/delta-b'),
            ['feature-removed'],
          ],
          ['revive it', () => service.api('POST', '/api/admin/archive/revive/delta-b'), ['feature-updated']],
          [
            'delete a flag from the archive',
            async () => {
              await service.api('DELETE', '/api/admin/projects/other/features/delta-c')
              await service.api('DELETE', '/api/admin/archive/delta-c')
            },
            ['hydration'],
          ],
          [
            'change no flag (a user)',
            () => service.api('POST', '/api/admin/user-admin', { body: { email: 'delta@example.com', rootRole: 3 } }),
            [],
          ],
        ]
        for (const [what, act, expected] of steps) {
          const before = copy.revision
          await act()
          const { status, events } = await poll(service, all, copy)
          expect(
            events.map((event) => event.type),
            what,
          ).toEqual(expected)
          expect(status, what).toBe(expected.length > 0 ? 200 : 304)
          expect(copy.revision, what).toBeGreaterThan(before!)
          expect(new Set(events.map((event) => event.eventId)), what).toEqual(
            new Set(expected.length > 0 ? [copy.revision] : []),
          )
          await expectInSync(service, all, copy)
        }
      } finally {
        await service.close()
        await db.close()
      }
    },
    60_000,
  )

  run(
    'a project-scoped token sees only its project: no flag of another, not even a removal',
    async () => {
      const db = await open!()
      const service = await startTestService({ db })
      try {
        await service.api('POST', '/api/admin/projects', { body: { id: 'secret', name: 'Secret' } })
        const scoped = await service.clientToken('development', ['default'])
        const copy = new ClientCopy()
        await poll(service, scoped, copy)
        await createFlag(service, 'secret', 'hidden-flag')
        await service.api('DELETE', '/api/admin/projects/secret/features/hidden-flag')
        await createFlag(service, 'default', 'seen-flag')
        const { events } = await poll(service, scoped, copy)
        expect(JSON.stringify(events)).not.toContain('hidden-flag')
        expect(events.map((event) => event.feature?.name)).toEqual(['seen-flag'])
        await expectInSync(service, scoped, copy)

        // namePrefix narrows deltas as it narrows the full answer.
        const prefixed = new ClientCopy()
        await poll(service, scoped, prefixed, '?namePrefix=seen')
        await createFlag(service, 'default', 'other-flag')
        await createFlag(service, 'default', 'seen-too')
        const narrowed = await poll(service, scoped, prefixed, '?namePrefix=seen')
        expect(narrowed.events.map((event) => event.feature?.name)).toEqual(['seen-too'])
        await expectInSync(service, scoped, prefixed, '?namePrefix=seen')
      } finally {
        await service.close()
        await db.close()
      }
    },
    60_000,
  )

  run(
    'an unknown, older or newer revision gets a hydration; a bad one too; no token gets 401',
    async () => {
      const db = await open!()
      const service = await startTestService({ db })
      try {
        const token = await service.clientToken('development')
        await createFlag(service, 'default', 'h-flag')
        const current = Number(
          /"(\d+)"/.exec((await service.api('GET', '/api/client/delta', { token })).headers.get('etag') ?? '')![1],
        )
        for (const sent of [`"${current + 1000}"`, 'W/"abc"', '-1', '', `${current}`]) {
          const response = await service.api('GET', '/api/client/delta', { token, headers: { 'if-none-match': sent } })
          if (sent === `${current}`) expect(response.status, sent).toBe(304)
          else
            expect(
              response.body.events.map((event: DeltaEvent) => event.type),
              sent,
            ).toEqual(['hydration'])
        }
        expect((await service.api('GET', '/api/client/delta', { token: null })).status).toBe(401)
        expect((await service.api('GET', '/api/client/delta', { token: service.admin })).status).toBe(403)
      } finally {
        await service.close()
        await db.close()
      }
    },
    60_000,
  )
})
