import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../service-context.js'
import { requireProject } from '../../domain/lookups.js'
import {
  addProjectEnvironment,
  createProject,
  deleteProject,
  removeProjectEnvironment,
  updateProject,
} from '../../domain/projects.js'
import { badData } from '../../errors.js'
import { urlSafeName } from '../../schemas/constraint.js'
import * as projects from '../../store/projects.js'
import { readBodyWith } from '../../validate.js'
import { change, created, empty, param } from '../http.js'
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
  api.get(
    '/api/admin/projects',
    'admin',
    eventHandler(async () => {
      const rows = await projects.listProjects(ctx.db)
      return { version: 1, projects: rows.map(projects.toProject) }
    }),
  )

  api.get(
    '/api/admin/projects/:projectId',
    'admin',
    eventHandler(async (event) => {
      const project = await requireProject(ctx.db, param(event, 'projectId'))
      return { ...projects.toProject(project), environments: await projects.projectEnvironments(ctx.db, project.id) }
    }),
  )

  api.post(
    '/api/admin/projects',
    'admin',
    eventHandler(async (event) => {
      const body = await readBodyWith(event, createProjectSchema)
      const id = body.id ?? idFromName(body.name)
      const project = await change(ctx, event, (c) => createProject(c, { ...body, id }))
      const environments = await projects.projectEnvironments(ctx.db, id)
      return created(event, ['projects', id], { ...projects.toProject(project), environments })
    }),
  )

  api.put(
    '/api/admin/projects/:projectId',
    'admin',
    eventHandler(async (event) => {
      const id = param(event, 'projectId')
      const body = await readBodyWith(event, updateProjectSchema)
      await change(ctx, event, (c) => updateProject(c, { ...body, id }))
      return empty(event)
    }),
  )

  api.delete(
    '/api/admin/projects/:projectId',
    'admin',
    eventHandler(async (event) => {
      const id = param(event, 'projectId')
      await change(ctx, event, (c) => deleteProject(c, id))
      return empty(event)
    }),
  )

  api.post(
    '/api/admin/projects/:projectId/environments',
    'admin',
    eventHandler(async (event) => {
      const id = param(event, 'projectId')
      const { environment } = await readBodyWith(event, z.object({ environment: z.string().min(1, 'is required') }))
      await change(ctx, event, (c) => addProjectEnvironment(c, id, environment))
      return empty(event)
    }),
  )

  api.delete(
    '/api/admin/projects/:projectId/environments/:environment',
    'admin',
    eventHandler(async (event) => {
      const id = param(event, 'projectId')
      const environment = param(event, 'environment')
      await change(ctx, event, (c) => removeProjectEnvironment(c, id, environment))
      return empty(event)
    }),
  )
}

// --- Internal helpers ---

/**
 * The id of a project created without one: its name made URL-safe. It must be an id the API would
 * take (at most 100 characters): a longer one is a 400 naming body.name, not a 500 from the
 * primary key's index (PostgreSQL refuses index entries over 2704 bytes).
 */
function idFromName(name: string): string {
  const id =
    name
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9\-._~]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'project'
  if (!urlSafeName.safeParse(id).success)
    throw badData(
      `body.name: the project id made from it ("${id.slice(0, 20)}…", ${id.length} characters) must be at most 100 characters; send body.id.`,
    )
  return id
}
