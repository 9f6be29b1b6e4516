#!/usr/bin/env bash
# Scaffolds an Nx project (lib or app) with the workspace conventions.
# usage: scripts/dev/new-project.sh libs/kafka "type:util" "scope:shared"
set -euo pipefail
dir=$1; shift
name="@jobs/$(basename "$dir")"
tags=$(printf '"%s",' "$@"); tags="[${tags%,}]"
mkdir -p "$dir/src"
root_rel=$(realpath --relative-to="$dir" "$(dirname "$0")/../..")
if [[ $dir == libs/* ]]; then
cat > "$dir/package.json" <<JSON
{
  "name": "$name",
  "version": "0.0.0",
  "private": true,
  "type": "module",
  "exports": {
    ".": {
      "@jobs/source": "./src/index.ts",
      "types": "./src/index.ts",
      "default": "./dist/index.js"
    }
  },
  "nx": {
    "tags": $tags,
    "targets": { "build": {}, "typecheck": {}, "lint": {}, "test": {} }
  }
}
JSON
else
cat > "$dir/package.json" <<JSON
{
  "name": "$name",
  "version": "0.0.0",
  "private": true,
  "type": "module",
  "nx": {
    "tags": $tags,
    "targets": { "build": {}, "typecheck": {}, "lint": {}, "test": {} }
  }
}
JSON
fi
cat > "$dir/tsconfig.json" <<JSON
{
  "extends": "$root_rel/tsconfig.base.json",
  "compilerOptions": { "types": ["node", "jest"] },
  "include": ["src/**/*.ts", "test/**/*.ts"]
}
JSON
cat > "$dir/jest.config.cjs" <<JS
module.exports = { ...require('$root_rel/jest.preset.cjs'), displayName: '$(basename "$dir")', rootDir: __dirname };
JS
echo "created $name in $dir"
