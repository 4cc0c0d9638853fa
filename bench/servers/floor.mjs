// The floor: a bare node:http server answering a fixed body of the size of a /proxy answer.
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'
const [port, bodyFile] = process.argv.slice(2)
const body = readFileSync(bodyFile, 'utf8')
const headers = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'public, max-age=2',
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag',
  etag: 'W/"fixed"',
}
createServer((req, res) => {
  if (req.method === 'POST') {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, headers)
      res.end(body)
    })
    return
  }
  res.writeHead(200, headers)
  res.end(body)
}).listen(Number(port), '127.0.0.1', () => process.send?.('ready'))
process.on('SIGINT', () => process.exit(0))
