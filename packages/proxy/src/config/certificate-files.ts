// The certificate and key files of the network settings (network.ts), read and checked at start:
// each problem is a ConfigError naming the variable whose file it is.
// node:crypto and node:tls as namespaces: the Worker's bundle carries this file too, and a named
// import its runtime's nodejs_compat lacks would stop the whole bundle from loading.
import * as crypto from 'node:crypto'
import { readFileSync } from 'node:fs'
import * as tls from 'node:tls'
import { ConfigError } from './values.js'

/** The first set variable of `names`, and its value. */
export type Read = (names: readonly string[]) => { name: string; value: string } | undefined

type Required = readonly [variable: string, missing: string]

/** The files a pair of required variables name, read once both are set. */
export function filesOf(read: Read, pair: readonly [Required, Required]): [Buffer, Buffer] {
  const [first, second] = pair.map(([variable, missing]) => {
    const found = read([variable])
    if (!found) throw new ConfigError(variable, missing)
    return found
  }) as [{ name: string; value: string }, { name: string; value: string }]
  return [readNamed(first.name, first.value), readNamed(second.name, second.value)]
}

function readNamed(variable: string, path: string): Buffer {
  try {
    return readFileSync(path)
  } catch (error) {
    throw new ConfigError(
      variable,
      `cannot be read: ${path} (${(error as NodeJS.ErrnoException).code ?? reason(error)})`,
    )
  }
}

export function checkKeyPair(keyVariable: string, key: Buffer, certVariable: string, cert: Buffer): void {
  let privateKey: crypto.KeyObject
  try {
    privateKey = crypto.createPrivateKey(key)
  } catch (error) {
    throw new ConfigError(keyVariable, `is not a PEM private key without a passphrase (${reason(error)})`)
  }
  if (!parseCertificate(certVariable, cert).checkPrivateKey(privateKey)) {
    throw new ConfigError(keyVariable, `does not match the certificate in ${certVariable}`)
  }
}

function parseCertificate(variable: string, pem: Buffer | string): crypto.X509Certificate {
  try {
    return new crypto.X509Certificate(pem)
  } catch (error) {
    throw new ConfigError(variable, `is not a PEM certificate (${reason(error)})`)
  }
}

export function certificateFile(found: { name: string; value: string }): string {
  const pem = readNamed(found.name, found.value)
  parseCertificate(found.name, pem)
  return pem.toString('utf8')
}

/** Node's CAs: passing `ca` replaces them, NODE_EXTRA_CA_CERTS's too, so both are added back. */
export function defaultCas(extraFile: string | undefined): string[] {
  let extra: string[] = []
  try {
    if (extraFile) extra = [readFileSync(extraFile, 'utf8')]
  } catch {
    // Node itself only warns about an unreadable NODE_EXTRA_CA_CERTS.
  }
  return [...tls.rootCertificates, ...extra]
}

/** A PKCS#12 file that opens with the passphrase. */
export function readPkcs12(found: { name: string; value: string }, passphrase: string | undefined): Buffer {
  const pfx = readNamed(found.name, found.value)
  try {
    tls.createSecureContext({ pfx, passphrase })
  } catch (error) {
    throw new ConfigError(found.name, `cannot be opened with PKCS12_PASSPHRASE (${reason(error)})`)
  }
  return pfx
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
