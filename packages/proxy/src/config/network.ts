// Edge's network settings (docs/operations.md, "TLS" and "Corporate networks"): the HTTPS listener
// and how every upstream call connects. Every file is read and checked here, at start: a wrong
// path, a file that is not what it should be, or a key that does not match its certificate stops
// the proxy with the variable's name.
import { certificateFile, checkKeyPair, defaultCas, filesOf, type Read, readPkcs12 } from './certificate-files.js'
import { ConfigError, parseBoolean, parseInteger, parseList, parseUrl } from './values.js'

/** TLS_ENABLE: the same app on an HTTPS port beside the HTTP one. */
export interface ServerTls {
  key: Buffer
  cert: Buffer
  port: number
  /** REDIRECT_HTTP_TO_HTTPS: the HTTP port answers every request with a redirect to the HTTPS one. */
  redirectHttp: boolean
}

/** How every upstream call connects (upstream/dispatcher.ts). */
export interface UpstreamNetwork {
  /** Forward proxies for http: and https: upstreams ('' for none), and the hosts that bypass them. */
  httpProxy: string
  httpsProxy: string
  noProxy: string
  /** Node's trusted CAs plus UPSTREAM_CERTIFICATE_FILE's; undefined: Node's own (NODE_EXTRA_CA_CERTS included). */
  ca: string[] | undefined
  /** The client certificate the upstream may ask for: PEM (PKCS8_*) or PKCS#12. */
  identity: { cert: Buffer; key: Buffer } | { pfx: Buffer; passphrase: string | undefined } | undefined
  /** CUSTOM_CLIENT_HEADERS, names in lower case. */
  headers: Record<string, string>
  /** SKIP_SSL_VERIFICATION. */
  skipVerification: boolean
}

export interface NetworkConfig {
  tls: ServerTls | undefined
  upstream: UpstreamNetwork
  /** Values the logger must never print (header values, the passphrase, proxy credentials). */
  secrets: string[]
}

/** Edge's variable names (the proxies' are read in lower case first, as curl and undici read them). */
export const NETWORK_ENV = {
  tlsEnable: ['TLS_ENABLE'],
  tlsServerKey: ['TLS_SERVER_KEY'],
  tlsServerCert: ['TLS_SERVER_CERT'],
  tlsServerPort: ['TLS_SERVER_PORT'],
  redirectHttpToHttps: ['REDIRECT_HTTP_TO_HTTPS'],
  httpsProxy: ['HTTPS_PROXY'],
  httpProxy: ['HTTP_PROXY'],
  noProxy: ['NO_PROXY'],
  upstreamCertificateFile: ['UPSTREAM_CERTIFICATE_FILE'],
  clientCertificateFile: ['PKCS8_CLIENT_CERTIFICATE_FILE'],
  clientKeyFile: ['PKCS8_CLIENT_KEY_FILE'],
  identityFile: ['PKCS12_IDENTITY_FILE'],
  passphrase: ['PKCS12_PASSPHRASE'],
  customClientHeaders: ['CUSTOM_CLIENT_HEADERS'],
  skipSslVerification: ['SKIP_SSL_VERIFICATION'],
} as const

/** Logged at start whenever the upstream's certificate is not verified. */
export const UNVERIFIED_UPSTREAM =
  "TLS VERIFICATION IS OFF (SKIP_SSL_VERIFICATION, or HTTP_OPTIONS_REJECT_UNAUTHORIZED=false): the upstream's certificate is not checked, so anyone on the way can read and change the flags and tokens exchanged with it. Trust a private CA with UPSTREAM_CERTIFICATE_FILE instead"

/** Edge's default HTTPS port. */
const TLS_PORT = 3043
/** Set by the HTTP client itself: a custom value would corrupt the request. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
])

type Environment = Record<string, string | undefined>

export function parseNetwork(env: Environment): NetworkConfig {
  const read: Read = (names) => {
    const name = names.find((candidate) => env[candidate] !== undefined && env[candidate]!.trim() !== '')
    return name ? { name, value: env[name]!.trim() } : undefined
  }
  const headers = parseHeaders(read(NETWORK_ENV.customClientHeaders))
  const passphrase = env.PKCS12_PASSPHRASE
  const lowerFirst = (names: readonly string[]) => read([...names.map((name) => name.toLowerCase()), ...names])
  const proxies = {
    httpProxy: proxyUrl(lowerFirst(NETWORK_ENV.httpProxy)),
    httpsProxy: proxyUrl(lowerFirst(NETWORK_ENV.httpsProxy)),
  }
  const upstreamCertificate = read(NETWORK_ENV.upstreamCertificateFile)
  return {
    tls: serverTls(read),
    upstream: {
      ...proxies,
      noProxy: lowerFirst(NETWORK_ENV.noProxy)?.value ?? '',
      ca: upstreamCertificate
        ? [...defaultCas(env.NODE_EXTRA_CA_CERTS), certificateFile(upstreamCertificate)]
        : undefined,
      identity: clientIdentity(read, passphrase),
      headers,
      skipVerification: read(NETWORK_ENV.skipSslVerification)
        ? parseBoolean('SKIP_SSL_VERIFICATION', read(NETWORK_ENV.skipSslVerification)!.value)
        : false,
    },
    secrets: [
      ...Object.values(headers),
      ...(passphrase ? [passphrase] : []),
      ...Object.values(proxies).flatMap(proxyCredentials),
    ],
  }
}

// --- Internal helpers ---

function serverTls(read: Read): ServerTls | undefined {
  const enable = read(NETWORK_ENV.tlsEnable)
  if (!enable || !parseBoolean(enable.name, enable.value)) return undefined
  const [key, cert] = filesOf(read, [
    ['TLS_SERVER_KEY', 'is required with TLS_ENABLE (the path of the PEM private key)'],
    ['TLS_SERVER_CERT', 'is required with TLS_ENABLE (the path of the PEM certificate, the chain after it)'],
  ])
  checkKeyPair('TLS_SERVER_KEY', key, 'TLS_SERVER_CERT', cert)
  const port = read(NETWORK_ENV.tlsServerPort)
  const redirect = read(NETWORK_ENV.redirectHttpToHttps)
  return {
    key,
    cert,
    port: port ? parseInteger(port.name, port.value, { max: 65535 }) : TLS_PORT,
    redirectHttp: redirect ? parseBoolean(redirect.name, redirect.value) : false,
  }
}

function clientIdentity(read: Read, passphrase: string | undefined): UpstreamNetwork['identity'] {
  const pem = read(NETWORK_ENV.clientCertificateFile) ?? read(NETWORK_ENV.clientKeyFile)
  const pkcs12 = read(NETWORK_ENV.identityFile)
  if (pem && pkcs12)
    throw new ConfigError(
      'PKCS12_IDENTITY_FILE',
      'cannot be set with PKCS8_CLIENT_CERTIFICATE_FILE and PKCS8_CLIENT_KEY_FILE: choose one client certificate',
    )
  if (pem) {
    const [cert, key] = filesOf(read, [
      ['PKCS8_CLIENT_CERTIFICATE_FILE', 'is required with PKCS8_CLIENT_KEY_FILE (the PEM client certificate)'],
      ['PKCS8_CLIENT_KEY_FILE', 'is required with PKCS8_CLIENT_CERTIFICATE_FILE (the PEM PKCS#8 private key)'],
    ])
    checkKeyPair('PKCS8_CLIENT_KEY_FILE', key, 'PKCS8_CLIENT_CERTIFICATE_FILE', cert)
    return { cert, key }
  }
  if (!pkcs12) return undefined
  return { pfx: readPkcs12(pkcs12, passphrase), passphrase }
}

/** A proxy as curl takes it: `host:port` means http://host:port. */
function proxyUrl(found: { name: string; value: string } | undefined): string {
  if (!found) return ''
  return parseUrl(found.name, /^[a-z][a-z0-9+.-]*:\/\//i.test(found.value) ? found.value : `http://${found.value}`)
}

function proxyCredentials(url: string): string[] {
  if (!url) return []
  const { username, password } = new URL(url)
  return [username, password].filter((part) => part !== '').map(decodeURIComponent)
}

/** Edge's format: `Name: value` pairs separated by commas, split at the first colon, trimmed. */
function parseHeaders(found: { name: string; value: string } | undefined): Record<string, string> {
  const headers: Record<string, string> = {}
  parseList(found?.value ?? '').forEach((entry, index) => {
    const colon = entry.indexOf(':')
    const name = entry.slice(0, colon).trim().toLowerCase()
    if (colon < 0 || !/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name)) {
      throw new ConfigError(found!.name, `must be "Name: value" pairs separated by commas; entry ${index + 1} is not`)
    }
    if (RESERVED_HEADERS.has(name))
      throw new ConfigError(found!.name, `cannot set ${name}, which the HTTP client sets itself`)
    const value = entry.slice(colon + 1).trim()
    if (!/^[\t\x20-\x7e\x80-\xff]*$/.test(value))
      throw new ConfigError(found!.name, `has a control character in the value of ${name}`)
    headers[name] = value
  })
  return headers
}
