// Runs a benchmark: `npm run bench -- <name> [args]`, or `nx run bench:<name>`. The benchmarks
// are the targets of bench/project.json that run this file, each with the libraries it needs in
// its `dependsOn` and what it needs and measures in its `metadata`. A run builds those libraries
// (Nx has already done it when the target runs), compiles bench/ with swc to bench/dist, and runs
// `node bench/dist/<file>.js [args]`; the benchmark reads its own BENCH_* environment.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'node_modules', '.bin');
const SELF = 'node bench/run.mjs ';
/** The entry file of a benchmark not named after it (bench/dist/<file>.js). */
const FILES = { sync: 'sync-search', async: 'async-search' };
/** Node flags a benchmark runs with. */
const NODE_FLAGS = { watches: ['--disable-warning=TimeoutNegativeWarning'] };
/** `all`: these, one after the other, up to the first that fails. */
const ALL = ['dedupe', 'account', 'sync', 'stages', 'webhooks', 'async'];

const project = JSON.parse(readFileSync(join(ROOT, 'bench', 'project.json'), 'utf8'));
const benchmarks = new Map(
  Object.entries(project.targets)
    .filter(([, target]) => target.options?.command?.startsWith(SELF))
    .map(([name, target]) => [
      name,
      { name, libs: (target.dependsOn ?? []).flatMap((d) => d.projects ?? []), ...target.metadata },
    ]),
);

function list(out) {
  const width = Math.max(...[...benchmarks.keys()].map((n) => n.length));
  out.write('usage: npm run bench -- <name> [args]   (or nx run bench:<name>)\n\n');
  for (const b of benchmarks.values()) out.write(`  ${b.name.padEnd(width)}  ${b.description} [needs ${b.needs}]\n`);
}

/** Runs a command in the workspace; its exit status (128 + n when a signal ended it). */
function run(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.error) throw result.error;
  if (result.signal) return 128 + ({ SIGINT: 2, SIGTERM: 15, SIGKILL: 9 }[result.signal] ?? 1);
  return result.status ?? 1;
}

function step(command, args) {
  const status = run(command, args);
  if (status !== 0) process.exit(status);
}

const [name, ...args] = process.argv.slice(2);
if (name === undefined || name === '--list' || name === '--help' || name === '-h') {
  list(process.stdout);
  process.exit(0);
}
const chosen = benchmarks.get(name);
if (!chosen) {
  process.stderr.write(`no benchmark "${name}"\n\n`);
  list(process.stderr);
  process.exit(1);
}

const selected = name === 'all' ? ALL.map((n) => benchmarks.get(n)) : [chosen];
// run as the Nx target, its own libraries are built already (dependsOn)
const builtByNx =
  process.env.NX_TASK_TARGET_PROJECT === 'bench' && process.env.NX_TASK_TARGET_TARGET === name
    ? new Set(chosen.libs)
    : new Set();
const libs = [...new Set(selected.flatMap((b) => b.libs))].filter((lib) => !builtByNx.has(lib));
if (libs.length > 0) step(join(BIN, 'nx'), ['run-many', '-t', 'build', '-p', ...libs, '--output-style=static']);
step(join(BIN, 'swc'), ['bench', '-d', 'bench/dist', '--strip-leading-paths', '--config-file', '.swcrc', '--quiet']);
for (const b of selected)
  step(process.execPath, [
    ...(NODE_FLAGS[b.name] ?? []),
    join('bench', 'dist', `${FILES[b.name] ?? b.name}.js`),
    ...args,
  ]);
