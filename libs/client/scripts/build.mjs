// Builds the publishable package into dist/: ES modules + .d.ts that import nothing from the
// workspace. The client's types come from @jobs/contracts, a private workspace package, so the
// contracts' public schemas (libs/contracts/src/public: zod only) are compiled into the package as
// dist/contracts/ and every `@jobs/contracts` import is pointed there. Its one runtime dependency
// is zod (declared in package.json). No bundler: a staging copy of the sources and one tsc run.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const contractsPublic = join(root, '..', 'contracts', 'src', 'public');
const stage = join(root, '.build');
const dist = join(root, 'dist');
const isSource = (name) => name.endsWith('.ts') && !/\.spec(-helper)?\.ts$/.test(name);

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : isSource(name) ? [path] : [];
  });
}

rmSync(stage, { recursive: true, force: true });
rmSync(dist, { recursive: true, force: true });
mkdirSync(join(stage, 'src', 'contracts'), { recursive: true });

for (const file of filesUnder(contractsPublic)) {
  const text = readFileSync(file, 'utf8');
  const foreign = [...text.matchAll(/from '([^.'][^']*)'/g)].map((m) => m[1]).filter((s) => s !== 'zod');
  if (foreign.length)
    throw new Error(`${file} imports ${foreign.join(', ')}: the package can only carry contracts that need zod alone`);
  cpSync(file, join(stage, 'src', 'contracts', relative(contractsPublic, file)));
}

for (const file of filesUnder(join(root, 'src'))) {
  const rel = relative(join(root, 'src'), file);
  const target = join(stage, 'src', rel);
  const toContracts = relative(dirname(target), join(stage, 'src', 'contracts', 'index.js'))
    .split(sep)
    .join('/');
  const text = readFileSync(file, 'utf8').replaceAll(
    "'@jobs/contracts'",
    `'${toContracts.startsWith('.') ? toContracts : `./${toContracts}`}'`,
  );
  const workspace = text.match(/from '@jobs\/[^']*'/);
  if (workspace) throw new Error(`${rel} imports ${workspace[0]}: only @jobs/contracts is carried into the package`);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
}

writeFileSync(
  join(stage, 'tsconfig.json'),
  JSON.stringify(
    {
      compilerOptions: {
        target: 'es2022',
        lib: ['es2023'],
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        noUncheckedIndexedAccess: true,
        declaration: true,
        sourceMap: false,
        skipLibCheck: true,
        isolatedModules: true,
        types: ['node'],
        rootDir: 'src',
        outDir: '../dist',
      },
      include: ['src/**/*.ts'],
    },
    null,
    2,
  ),
);

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(stage, 'tsconfig.json')], { stdio: 'inherit', cwd: stage });
rmSync(stage, { recursive: true, force: true });
