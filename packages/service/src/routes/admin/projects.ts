import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../context.js'
import { badData, invalidOperation, nameExists, notFound } from '../../errors.js'
import { writeEvent } from '../../events.js'
import { urlSafeName } from '../../schemas/constraint.js'
import * as projects from '../../store/projects.js'
import { readBodyWith } from '../../validate.js'
import { change, created, empty, param } from '../http.js'
import { requireEnvironment, requireProject } from './lookups.js'
import type { ApiRouter } from '../api-router.js'

const createProjectSchema = z.object({
  id: urlSafeName.optional(),
  name: z.string().min(1, 'is required'),
  description: z.string().nullish(),
  mode: z.enum(['open', 'protected', 'private']).optional(),
  defaultStickiness: z.string().min(1).optional(),
  environments: z.array(z.string().min(1)).optional(),
})

const updateProjectSchema = createProjectSchema.omit({ id: true, environments: true })

/** `/api/admin/projects` (Unleash: projects and their environments). */
export function registerProjectRoutes(api: ApiRouter, ctx: ServiceContext): void {
  api.get('/api/admin/projects', 'admin', eventHandler(async () => {
    const rows = await projects.listProjects(ctx.db)
    return { version: 1, projects: rows.map(projects.toProject) }
  }))

  api.get('/api/admin/projects/:projectId', 'admin', eventHandler(async (event) => {
    const project = await requireProject(ctx.db, param(event, 'projectId'))
    return { ...projects.toProject(project), environments: await projects.projectEnvironments(ctx.db, project.id) }
  }))

  api.post('/api/admin/projects', 'admin', eventHandler(async (event) => {
    const body = await readBodyWith(event, createProjectSchema)
    const id = body.id ?? idFromName(body.name)
    const project = await change(ctx, event, async (tx, actor) => {
      if (await projects.getProject(tx, id)) throw nameExists(`A project with the id "${id}" already exists.`)
      for (const environment of body.environments ?? []) await requireEnvironment(tx, environment)
      await projects.insertProject(tx, { ...body, id }, body.environments, ctx.clock())
      await writeEvent(tx, actor, ctx.clock, { type: 'project-created', project: id, data: { ...body, id } })
      return projects.getProject(tx, id)
    })
    const environments = await projects.projectEnvironments(ctx.db, id)
    return created(event, ['projects', id], { ...projects.toProject(project as projects.ProjectRow), environments })
  }))

  api.put('/api/admin/projects/:projectId', 'admin', eventHandler(async (event) => {
    const id = param(event, 'projectId')
    const body = await readBodyWith(event, updateProjectSchema)
    await change(ctx, event, async (tx, actor) => {
      const before = await requireProject(tx, id)
      await projects.updateProject(tx, { ...body, id }, ctx.clock())
      await writeEvent(tx, actor, ctx.clock, { type: 'project-updated', project: id, data: { ...body, id }, preData: projects.toProject(before) })
    })
    return empty(event)
  }))

  api.delete('/api/admin/projects/:projectId', 'admin', eventHandler(async (event) => {
    const id = param(event, 'projectId')
    await change(ctx, event, async (tx, actor) => {
      const project = await requireProject(tx, id)
      if (id === 'default') throw invalidOperation('You can not delete the default project!')
      if ((project.feature_count ?? 0) > 0) throw invalidOperation('You can not delete a project with active feature flags.')
      await projects.deleteProject(tx, id)
      await writeEvent(tx, actor, ctx.clock, { type: 'project-deleted', project: id })
    })
    return empty(event)
  }))

  api.post('/api/admin/projects/:projectId/environments', 'admin', eventHandler(async (event) => {
    const id = param(event, 'projectId')
    const { environment } = await readBodyWith(event, z.object({ environment: z.string().min(1, 'is required') }))
    await change(ctx, event, async (tx, actor) => {
      await requireProject(tx, id)
      await requireEnvironment(tx, environment)
      if (await projects.addProjectEnvironment(tx, id, environment)) {
        await writeEvent(tx, actor, ctx.clock, { type: 'project-environment-added', project: id, environment })
      }
    })
    return empty(event)
  }))

  api.delete('/api/admin/projects/:projectId/environments/:environment', 'admin', eventHandler(async (event) => {
    const id = param(event, 'projectId')
    const environment = param(event, 'environment')
    await change(ctx, event, async (tx, actor) => {
      await requireProject(tx, id)
      if (!(await projects.removeProjectEnvironment(tx, id, environment))) {
        throw notFound(`Environment "${environment}" in project "${id}"`)
      }
      await writeEvent(tx, actor, ctx.clock, { type: 'project-environment-removed', project: id, environment })
    })
    return empty(event)
  }))
}

// --- Internal helpers ---

/**
 * The id of a project created without one: its name made URL-safe. It must be an id the API would
 * take (at most 100 characters): a longer one is a 400 naming body.name, not a 500 from the
 * primary key's index (PostgreSQL refuses index entries over 2704 bytes).
 */
function idFromName(name: string): string {
  const id = name.trim().toLowerCase().replace(/[^a-z0-9\-._~]+/g, '-').replace(/^-+|-+$/g, '') || 'project'
  if (!urlSafeName.safeParse(id).success) throw badData(`body.name: the project id made from it ("${id.slice(0, 20)}…", ${id.length} characters) must be at most 100 characters; send body.id.`)
  return id
}
