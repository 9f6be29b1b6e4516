// What a customer gets: `npm pack` this package, install the tarball into an empty project (with
// @types/node, as a Node project has), compile a consumer with tsc (strict, skipLibCheck off, no
// DOM lib), then run it with node (the ES modules must load without the workspace). The package's
// own declarations name no Node or DOM type (checked below); zod's need `URL`, which @types/node
// or the DOM lib gives. `nx run @jobs/client:pack-check` (builds first).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const tmp = mkdtempSync(join(tmpdir(), 'jobs-client-pack-'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

try {
  const [packed] = JSON.parse(run(npm, ['pack', '--json', '--pack-destination', tmp], root));
  const files = packed.files.map((f) => f.path);
  const stray = files.filter((f) => !(f === 'package.json' || f === 'README.md' || /^dist\/.*\.(js|d\.ts)$/.test(f)));
  if (stray.length) throw new Error(`unexpected files in the package: ${stray.join(', ')}`);
  if (!files.includes('dist/index.js') || !files.includes('dist/index.d.ts')) throw new Error('dist/index.js or dist/index.d.ts missing: run the build first');
  for (const file of files.filter((f) => f.endsWith('.d.ts'))) {
    const text = readFileSync(join(root, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    const leak = text.match(/\b(Buffer|NodeJS|node:[a-z]+|@jobs\/(?!client)[a-z-]+|AbortSignal|RequestInit|Response)\b/);
    if (leak) throw new Error(`${file} names ${leak[0]}: the declarations must not need Node's or the DOM's types or the workspace`);
  }
  console.log(`packed ${packed.filename}: ${files.length} files, ${packed.size} bytes`);

  const app = join(tmp, 'consumer');
  run('mkdir', ['-p', app], tmp);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', join(tmp, packed.filename), '@types/node@^24'], app);

  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'es2022', lib: ['es2022'], module: 'nodenext', moduleResolution: 'nodenext', strict: true, types: ['node'], skipLibCheck: false, outDir: 'out' }, include: ['main.ts'] }),
  );
  writeFileSync(
    join(app, 'main.ts'),
    `import { JobsClient, ApiError, verifyWebhook, signWebhookPayload, type Job, type Event, type FetchLike } from '@jobs/client';

// a fake transport: the consumer runs without a server
const fetch: FetchLike = async (url) => ({
  status: 200,
  headers: { get: (name: string) => ({ 'x-credits-charged': '0', 'x-credits-remaining': '5', 'x-request-id': 'req_1' } as Record<string, string>)[name.toLowerCase()] ?? null },
  text: async () => JSON.stringify(url.endsWith('/account') ? { plan: 'pro' } : { data: [], next_cursor: null, metadata: {} }),
});
const client = new JobsClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'svc_test_abc', fetch });
const jobs: Job[] = [];
for await (const job of client.jobs.searchAll({ filters: { title_or: ['engineer'], remote: true }, waterfall: { strategy: 'max_coverage' }, limit: 10 })) jobs.push(job);
const page = await client.jobs.search({ limit: 1 });
const remaining: number = page.$response.credits.remaining;
const account = await client.account();
const plan: 'free' | 'starter' | 'growth' | 'pro' | 'scale' | 'enterprise' = account.plan;

const secret = 'whsec_test';
const payload = JSON.stringify({ id: 'evt_1', type: 'search.completed', created_at: '2026-10-01T00:00:00Z', watch_id: null, data: { search: { id: 'srch_1', status: 'completed', jobs_found: 3 } } });
const event: Event = verifyWebhook({ payload, signature: signWebhookPayload({ payload, secret }), secret });
if (event.type === 'search.completed') {
  const found: number = event.data.search.jobs_found;
  console.log(JSON.stringify({ jobs: jobs.length, remaining, plan, found, isError: new Error() instanceof ApiError, mode: client.mode }));
}
`,
  );
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  run(process.execPath, [tsc, '-p', 'tsconfig.json'], app);
  console.log('consumer compiled with tsc (strict, lib es2022, types node, skipLibCheck false)');
  const out = run(process.execPath, ['out/main.js'], app).trim();
  const result = JSON.parse(out);
  const want = { jobs: 0, remaining: 5, plan: 'pro', found: 3, isError: false, mode: 'test' };
  if (JSON.stringify(result) !== JSON.stringify(want)) throw new Error(`consumer printed ${out}, expected ${JSON.stringify(want)}`);
  const installed = JSON.parse(readFileSync(join(app, 'node_modules', '@jobs', 'client', 'package.json'), 'utf8'));
  console.log(`consumer ran against the installed ${installed.name}@${installed.version}: ${out}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
