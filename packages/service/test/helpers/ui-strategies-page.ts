// Driving the strategy and segment forms (ui/src/pages/strategies/constraints-editor.tsx) the way
// a person does: labelled fields, Enter to add a list value.
import { murmur3, ROLLOUT_SEED } from '@vexil/engine'
import type { Locator, Page } from 'playwright-core'

export interface ConstraintInput {
  field: string
  operator: string
  value?: string
  values?: string[]
  caseInsensitive?: boolean
  inverted?: boolean
}

/** Adds a constraint row and fills it in; returns the row. */
export async function addConstraint(page: Page, c: ConstraintInput): Promise<Locator> {
  const rows = page.locator('li.constraint-row')
  // By position: `last()` would follow the rows added later.
  const row = rows.nth(await rows.count())
  await page.getByRole('button', { name: 'Add constraint' }).click()
  await row.getByLabel('Context field').fill(c.field)
  await row.getByLabel('Operator').selectOption(c.operator)
  if (c.value !== undefined) await row.getByLabel('Value', { exact: true }).fill(c.value)
  for (const value of c.values ?? []) await addValue(row.getByLabel('Values', { exact: true }), value)
  if (c.caseInsensitive) await row.getByRole('checkbox', { name: 'Ignore case' }).check()
  if (c.inverted) await row.getByRole('checkbox', { name: /NOT/ }).check()
  return row
}

/** Types a value into a list input and adds it with Enter. */
export async function addValue(input: Locator, value: string): Promise<void> {
  await input.fill(value)
  await input.press('Enter')
}

/** The problem shown in a row (or field) right now; '' when there is none. */
export async function problemIn(scope: Locator): Promise<string> {
  const errors = scope.locator('.field-error')
  return (await errors.count()) === 0 ? '' : (await errors.allInnerTexts()).join(' ')
}

/** The bucket (1..100) a flexibleRollout puts `id` in for `group` (docs/evaluation.md, section 2). */
export const rolloutBucket = (group: string, id: string): number => (murmur3(`${group}:${id}`, ROLLOUT_SEED) % 100) + 1

/** The first `prefix<n>` user id whose bucket in `group` is (inside) or is not (outside) within `percentage`. */
export function userIdFor(group: string, percentage: number, inside: boolean, prefix = 'user-'): string {
  for (let n = 0; ; n++) {
    const id = `${prefix}${n}`
    if (rolloutBucket(group, id) <= percentage === inside) return id
  }
}
