// What a customer gets, from a clean build: the client's sources (libs/client and the contracts'
// public schemas it compiles in) are copied without any build output (dist/, .build/, *.tgz) into
// a temporary workspace that shares this repository's node_modules, as a fresh clone would have
// them; `npm pack` there must build the package itself (`prepack`). The tarball's package.json
// must name its version, license, engines, files, types and exports, and every file they point
// at must be in it. The tarball is then installed into an empty project (with @types/node, as a
// Node project has), a consumer is compiled with tsc (strict, skipLibCheck off, no DOM lib) and
// run with node (the ES modules must load without the workspace). The package's own
// declarations name no Node or DOM type (checked below); zod's need `URL`, which @types/node or
// the DOM lib gives. Run: `nx run @jobs/client:pack-check` (part of `npm test`'s unit phase).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const client = dirname(dirname(fileURLToPath(import.meta.url)));
const root = join(client, '..', '..');
const tmp = mkdtempSync(join(tmpdir(), 'jobs-client-pack-'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, npm_config_loglevel: 'warn' },
  });

/** Build output and local state a clean clone does not have. */
const NOT_IN_A_CLONE = new Set(['dist', '.build', 'node_modules']);
const cleanCopy = (from, to) =>
  cpSync(from, to, {
    recursive: true,
    filter: (source) => !NOT_IN_A_CLONE.has(basename(source)) && !source.endsWith('.tgz'),
  });

try {
  // the workspace as a clone has it: the client, the contracts' public schemas, the installed packages
  const workspace = join(tmp, 'workspace');
  const packageDir = join(workspace, relative(root, client));
  cleanCopy(client, packageDir);
  cleanCopy(join(root, 'libs', 'contracts', 'src', 'public'), join(workspace, 'libs', 'contracts', 'src', 'public'));
  symlinkSync(join(root, 'node_modules'), join(workspace, 'node_modules'), 'dir');
  if (existsSync(join(packageDir, 'dist'))) throw new Error('the clean copy has a dist/');

  // --json prints the packed file list; prepack's own output goes to stderr (npm's banner) or is empty
  const packStarted = performance.now();
  const packOutput = run(npm, ['pack', '--json', '--pack-destination', tmp], packageDir);
  const packSeconds = ((performance.now() - packStarted) / 1000).toFixed(1);
  const [packed] = JSON.parse(packOutput.slice(packOutput.indexOf('[')));
  const files = packed.files.map((f) => f.path);
  const stray = files.filter(
    (f) => !(f === 'package.json' || f === 'README.md' || f === 'LICENSE' || /^dist\/.*\.(js|d\.ts)$/.test(f)),
  );
  if (stray.length) throw new Error(`unexpected files in the package: ${stray.join(', ')}`);
  if (!files.includes('dist/index.js') || !files.includes('dist/index.d.ts'))
    throw new Error('dist/index.js or dist/index.d.ts missing: prepack did not build the package');
  for (const file of files.filter((f) => f.endsWith('.d.ts'))) {
    const text = readFileSync(join(packageDir, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    const leak = text.match(
      /\b(Buffer|NodeJS|node:[a-z]+|@jobs\/(?!client)[a-z-]+|AbortSignal|RequestInit|Response)\b/,
    );
    if (leak)
      throw new Error(
        `${file} names ${leak[0]}: the declarations must not need Node's or the DOM's types or the workspace`,
      );
  }
  console.log(
    `packed ${packed.filename} from a clean copy (prepack built it) in ${packSeconds} s: ` +
      `${files.length} files, ${packed.size} bytes`,
  );

  const app = join(tmp, 'consumer');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  run(
    npm,
    ['install', '--prefer-offline', '--no-audit', '--no-fund', join(tmp, packed.filename), '@types/node@^24'],
    app,
  );

  // the installed package.json: what a customer's tools read
  const installedDir = join(app, 'node_modules', '@jobs', 'client');
  const manifest = JSON.parse(readFileSync(join(installedDir, 'package.json'), 'utf8'));
  const missing = ['version', 'license', 'engines', 'files', 'types', 'exports'].filter(
    (field) => manifest[field] === undefined,
  );
  if (missing.length) throw new Error(`the packed package.json has no ${missing.join(', ')}`);
  if (!/^\d+\.\d+\.\d+/.test(manifest.version)) throw new Error(`version ${manifest.version} is no semver`);
  if (!manifest.engines.node) throw new Error('engines names no node version');
  const workspaceOnly = ['private', 'scripts', 'nx', 'devDependencies'].filter((field) => field in manifest);
  if (workspaceOnly.length) throw new Error(`the packed package.json keeps ${workspaceOnly.join(', ')}`);
  if (JSON.stringify(manifest.exports).includes('@jobs/source'))
    throw new Error("the packed package.json's exports keep the workspace's @jobs/source condition");
  if (existsSync(join(packageDir, 'package.json.workspace')))
    throw new Error('postpack left the workspace manifest aside');
  if (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).private !== true)
    throw new Error("postpack did not put the workspace's package.json back");
  const targets = [manifest.types, ...exportTargets(manifest.exports)];
  const absent = targets.filter((target) => !existsSync(join(installedDir, target)));
  if (absent.length) throw new Error(`package.json points at files the tarball lacks: ${absent.join(', ')}`);
  console.log(
    `package.json: ${manifest.name}@${manifest.version}, license ` +
      `${manifest.license}, node ${manifest.engines.node}, types ` +
      `and exports -> ${[...new Set(targets)].join(', ')}`,
  );

  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        lib: ['es2022'],
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        types: ['node'],
        skipLibCheck: false,
        outDir: 'out',
      },
      include: ['main.ts'],
    }),
  );
  writeFileSync(
    join(app, 'main.ts'),
    `import {
  JobsClient,
  ApiError,
  verifyWebhook,
  signWebhookPayload,
  type Job,
  type Event,
  type FetchLike,
} from '@jobs/client';

// a fake transport: the consumer runs without a server
const answerHeaders: Record<string, string> = {
  'x-credits-charged': '0',
  'x-credits-remaining': '5',
  'x-request-id': 'req_1',
};
const fetch: FetchLike = async (url) => ({
  status: 200,
  headers: { get: (name: string) => answerHeaders[name.toLowerCase()] ?? null },
  text: async () =>
    JSON.stringify(url.endsWith('/account') ? { plan: 'pro' } : { data: [], next_cursor: null, metadata: {} }),
});
const client = new JobsClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'svc_test_abc', fetch });
const jobs: Job[] = [];
for await (const job of client.jobs.searchAll({
  filters: { title_or: ['engineer'], remote: true },
  waterfall: { strategy: 'max_coverage' },
  limit: 10,
}))
  jobs.push(job);
const page = await client.jobs.search({ limit: 1 });
const remaining: number = page.$response.credits.remaining;
const account = await client.account();
const plan: 'free' | 'starter' | 'growth' | 'pro' | 'scale' | 'enterprise' = account.plan;

const secret = 'whsec_test';
const payload = JSON.stringify({
  id: 'evt_1',
  type: 'search.completed',
  created_at: '2026-10-01T00:00:00Z',
  watch_id: null,
  data: { search: { id: 'srch_1', status: 'completed', jobs_found: 3 } },
});
const event: Event = verifyWebhook({ payload, signature: signWebhookPayload({ payload, secret }), secret });
if (event.type === 'search.completed') {
  const found: number = event.data.search.jobs_found;
  const isError = new Error() instanceof ApiError;
  console.log(JSON.stringify({ jobs: jobs.length, remaining, plan, found, isError, mode: client.mode }));
}
`,
  );
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  run(process.execPath, [tsc, '-p', 'tsconfig.json'], app);
  console.log('consumer compiled with tsc (strict, lib es2022, types node, skipLibCheck false)');
  const out = run(process.execPath, ['out/main.js'], app).trim();
  const result = JSON.parse(out);
  const want = { jobs: 0, remaining: 5, plan: 'pro', found: 3, isError: false, mode: 'test' };
  if (JSON.stringify(result) !== JSON.stringify(want))
    throw new Error(`consumer printed ${out}, expected ${JSON.stringify(want)}`);
  console.log(`consumer ran against the installed ${manifest.name}@${manifest.version}: ${out}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

/** Every file `exports` points at, whatever the condition. */
function exportTargets(exports) {
  if (typeof exports === 'string') return [exports];
  if (exports === null || typeof exports !== 'object') return [];
  return Object.values(exports).flatMap((value) => exportTargets(value));
}
