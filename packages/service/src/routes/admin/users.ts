import { eventHandler } from 'h3'
import { z } from 'zod'
import type { ServiceContext } from '../../service-context.js'
import { createUser, deleteUser, updateUser } from '../../domain/users.js'
import { badData, notFound } from '../../errors.js'
import * as users from '../../store/users.js'
import { readBodyWith } from '../../validate.js'
import { change, created, empty, intParam } from '../http.js'
import type { ApiRouter } from '../api-router.js'

/** Unleash takes a root role as its id (1-3) or its name. */
const rootRoleSchema = z.union([z.number().int(), z.string()]).transform((value, ctx) => {
  const role = users.ROOT_ROLES.find(
    (r) => r.id === value || (typeof value === 'string' && r.name.toLowerCase() === value.toLowerCase()),
  )
  if (role) return role.name
  ctx.addIssue({
    code: 'custom',
    message: `must be one of ${users.ROOT_ROLES.map((r) => `${r.id} (${r.name})`).join(', ')}`,
  })
  return z.NEVER
})

/**
 * Unleash's varchar(255). Username and email are also keys of unique indexes, whose entries
 * PostgreSQL caps at 2704 bytes: 255 characters of 4 bytes fit, a 5,000-character one was a 500.
 */
const username = z.string().min(1).max(255, 'must be at most 255 characters')
const email = z.email('must be an email address').max(255, 'must be at most 255 characters')

const createUserSchema = z.object({
  name: z.string().nullish(),
  username: username.nullish(),
  email: email.nullish(),
  rootRole: rootRoleSchema,
  password: z.string().optional(),
  sendEmail: z.boolean().optional(),
})

const updateUserSchema = z.object({
  name: z.string().nullish(),
  email: email.nullish(),
  rootRole: rootRoleSchema.optional(),
})

/** `/api/admin/user-admin` (Unleash's user admin API). Passwords are not kept: users sign in with personal tokens. */
export function registerUserRoutes(api: ApiRouter, ctx: ServiceContext): void {
  const load = async (id: number) => {
    const row = await users.getUser(ctx.db, id)
    if (!row) throw notFound(`User ${id}`)
    return row
  }

  api.get(
    '/api/admin/user-admin',
    'admin',
    eventHandler(async () => ({
      users: (await users.listUsers(ctx.db)).map(users.toUser),
      rootRoles: users.ROOT_ROLES,
    })),
  )

  api.get(
    '/api/admin/user-admin/:id',
    'admin',
    eventHandler(async (event) => users.toUser(await load(intParam(event, 'id')))),
  )

  api.post(
    '/api/admin/user-admin',
    'admin',
    eventHandler(async (event) => {
      const body = await readBodyWith(event, createUserSchema)
      if (!body.email && !body.username) throw badData('body: you must specify an email or a username.')
      const row = await change(ctx, event, (c) => createUser(c, body))
      return created(event, ['user-admin', row.id], users.toUser(row))
    }),
  )

  api.put(
    '/api/admin/user-admin/:id',
    'admin',
    eventHandler(async (event) => {
      const id = intParam(event, 'id')
      const body = await readBodyWith(event, updateUserSchema)
      const row = await change(ctx, event, (c) => updateUser(c, id, body))
      return users.toUser(row)
    }),
  )

  api.delete(
    '/api/admin/user-admin/:id',
    'admin',
    eventHandler(async (event) => {
      const id = intParam(event, 'id')
      await change(ctx, event, (c) => deleteUser(c, id))
      return empty(event)
    }),
  )
}
