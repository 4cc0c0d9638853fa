/** Whether the tests run under CI (`CI` set to anything but empty, 0 or false): then a missing tool fails instead of skipping. */
export function isCI(): boolean {
  const ci = process.env.CI
  return ci !== undefined && ci !== '' && ci !== '0' && ci !== 'false'
}
