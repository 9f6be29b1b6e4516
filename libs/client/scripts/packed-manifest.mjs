// The package.json a customer installs is not the workspace's: npm packs the file on disk, so
// `prepack` writes the published manifest (no `private`, no scripts, no `nx` block, no export
// condition of this workspace) after keeping the workspace's beside it, and `postpack` puts the
// workspace's back. A pack that failed half-way left the kept copy: it is restored first.
//   node scripts/packed-manifest.mjs publish | restore
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const manifestPath = join(root, 'package.json');
const keptPath = join(root, 'package.json.workspace');

/** Export conditions only this workspace sets (its sources, for the monorepo's type checks). */
const WORKSPACE_CONDITIONS = new Set(['@jobs/source']);

/** The manifest as published: what the workspace needs to build and test the package left out. */
export function publishedManifest(manifest) {
  const { private: _private, scripts: _scripts, nx: _nx, devDependencies: _dev, ...published } = manifest;
  return { ...published, exports: withoutWorkspaceConditions(published.exports) };
}

function withoutWorkspaceConditions(exports) {
  if (exports === null || typeof exports !== 'object') return exports;
  return Object.fromEntries(
    Object.entries(exports)
      .filter(([key]) => !WORKSPACE_CONDITIONS.has(key))
      .map(([key, value]) => [key, withoutWorkspaceConditions(value)]),
  );
}

function restore() {
  if (existsSync(keptPath)) renameSync(keptPath, manifestPath);
}

const command = process.argv[2];
if (command === 'publish') {
  restore();
  const text = readFileSync(manifestPath, 'utf8');
  writeFileSync(keptPath, text);
  writeFileSync(manifestPath, `${JSON.stringify(publishedManifest(JSON.parse(text)), null, 2)}\n`);
} else if (command === 'restore') restore();
else if (command !== undefined) throw new Error(`unknown command ${command}: publish or restore`);
