// Certificates made for one test run with the system's openssl: a private CA, a server
// certificate it signed (127.0.0.1, localhost, upstream.test), a client certificate it signed (PEM
// and PKCS#12), and a key that matches neither.
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'
import { afterAll, beforeAll } from 'vitest'

export interface TestCertificates {
  ca: string
  serverKey: string
  serverCert: string
  clientKey: string
  clientCert: string
  clientP12: string
  p12Passphrase: string
  otherKey: string
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']

export function makeCertificates(dir: string): TestCertificates {
  const file = (name: string) => join(dir, name)
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' })
  openssl('req', '-x509', ...EC, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=Vexil test CA')
  const signed = (name: string, subject: string, extensions: string) => {
    writeFileSync(file(`${name}.ext`), extensions)
    openssl('req', '-new', ...EC, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject)
    openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.crt`,
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
    )
  }
  signed(
    'server',
    '/CN=localhost',
    'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:upstream.test\nextendedKeyUsage=serverAuth\n',
  )
  signed('client', '/CN=vexil-proxy', 'extendedKeyUsage=clientAuth\n')
  const p12Passphrase = 'p12-secret'
  openssl(
    'pkcs12',
    '-export',
    '-inkey',
    'client.key',
    '-in',
    'client.crt',
    '-out',
    'client.p12',
    '-passout',
    `pass:${p12Passphrase}`,
  )
  openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-out', 'other.key')
  return {
    ca: file('ca.crt'),
    serverKey: file('server.key'),
    serverCert: file('server.crt'),
    clientKey: file('client.key'),
    clientCert: file('client.crt'),
    clientP12: file('client.p12'),
    p12Passphrase,
    otherKey: file('other.key'),
  }
}

/** Certificates made once for a test file (beforeAll), in a folder removed after it. */
export function useCertificates(name: string): { readonly dir: string; readonly pki: TestCertificates } {
  const dir = tempDir(name)
  let made: TestCertificates | undefined
  beforeAll(() => void (made = makeCertificates(dir.path)))
  afterAll(() => dir.remove())
  return {
    dir: dir.path,
    get pki() {
      if (!made) throw new Error('the certificates are made in beforeAll')
      return made
    },
  }
}
