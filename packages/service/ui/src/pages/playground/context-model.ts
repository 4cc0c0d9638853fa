// The playground's context, as a person enters it: the Unleash context fields and property rows,
// or raw JSON. Pure functions: what the form shows, what it sends, and what is wrong with it.
import type { Context } from '@vexil/engine'

/** The context fields the form has a box for, in the order it shows them. */
export const FIELDS = ['userId', 'sessionId', 'remoteAddress', 'environment', 'appName', 'currentTime'] as const
export type FieldName = (typeof FIELDS)[number]

export interface PropertyRow {
  /** Stable across edits (the rows' keys). */
  id: number
  name: string
  value: string
}

export interface ContextFields {
  values: Record<FieldName, string>
  properties: PropertyRow[]
}

let nextRow = 1
export const newRow = (name = '', value = ''): PropertyRow => ({ id: nextRow++, name, value })

export const emptyFields = (): ContextFields => ({
  values: { userId: '', sessionId: '', remoteAddress: '', environment: '', appName: '', currentTime: '' },
  properties: [newRow()],
})

/** What is wrong with the form, by where to show it: a field name, or `property-<id>`. */
export type FieldProblems = Record<string, string>

/** The context the fields make (empty boxes and nameless empty rows left out), or the problems. */
export function contextOfFields(fields: ContextFields): { context: Context } | { problems: FieldProblems } {
  const problems: FieldProblems = {}
  const context: Context = {}
  for (const name of FIELDS) {
    const value = fields.values[name].trim()
    if (value !== '') context[name] = value
  }
  if (context.currentTime !== undefined && Number.isNaN(new Date(context.currentTime).getTime())) {
    problems.currentTime = 'Not a date: use ISO 8601, e.g. 2025-06-01T12:00:00Z, or leave it empty for now.'
  }
  const properties: Record<string, string> = {}
  for (const row of fields.properties) {
    const name = row.name.trim()
    if (name === '') {
      if (row.value !== '') problems[`property-${row.id}`] = 'Give this property a name.'
      continue
    }
    if (Object.hasOwn(properties, name)) problems[`property-${row.id}`] = `"${name}" is set twice.`
    else properties[name] = row.value
  }
  if (Object.keys(properties).length > 0) context.properties = properties
  return Object.keys(problems).length > 0 ? { problems } : { context }
}

/** The fields showing a context, or undefined when boxes and rows cannot hold it exactly (then it is edited as JSON). */
export function fieldsOfContext(context: Context): ContextFields | undefined {
  const fields = emptyFields()
  fields.properties = []
  for (const [key, value] of Object.entries(context)) {
    if (key === 'properties') continue
    if (!(FIELDS as readonly string[]).includes(key) || typeof value !== 'string') return undefined
    fields.values[key as FieldName] = value
  }
  const properties = context.properties
  if (properties !== undefined) {
    if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return undefined
    for (const [name, value] of Object.entries(properties)) {
      if (typeof value !== 'string') return undefined
      fields.properties.push(newRow(name, value))
    }
  }
  fields.properties.push(newRow())
  return fields
}

/** The context in a JSON text, or what is wrong with the text. */
export function contextOfJson(text: string): { context: Context } | { problem: string } {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return { problem: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return { problem: 'The context must be a JSON object, e.g. {"userId": "42"}.' }
  const context = parsed as Context
  const properties = context.properties
  if (
    properties !== undefined &&
    (properties === null || typeof properties !== 'object' || Array.isArray(properties))
  ) {
    return { problem: '"properties" must be an object of custom fields, e.g. {"plan": "pro"}.' }
  }
  if (
    context.currentTime !== undefined &&
    (typeof context.currentTime !== 'string' || Number.isNaN(new Date(context.currentTime).getTime()))
  ) {
    return { problem: '"currentTime" must be a date in ISO 8601, e.g. "2025-06-01T12:00:00Z".' }
  }
  return { context }
}

/** One line naming a context, for the recent list. */
export function summary(context: Context): string {
  const parts: string[] = []
  for (const [key, value] of Object.entries(context)) {
    if (key === 'properties' && value && typeof value === 'object') {
      for (const [name, inner] of Object.entries(value)) parts.push(`${name}=${JSON.stringify(inner)}`)
    } else {
      parts.push(`${key}=${JSON.stringify(value)}`)
    }
  }
  return parts.length > 0 ? parts.join(', ') : 'empty context'
}
