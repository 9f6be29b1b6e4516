// One lint config for the whole workspace. The module-boundary rule is an error: an app never
// imports another app, and each lib type may only depend on the types below it.
import nx from '@nx/eslint-plugin';
import stylistic from '@stylistic/eslint-plugin';
import tseslint from 'typescript-eslint';

export default [
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/generated/**', '.local/**', '.tools/**', '**/*.cjs', '**/*.mjs'],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx, '@stylistic': stylistic },
    // Nest resolves constructor parameters from emitted type metadata: with these flags the
    // type-import rule knows that a decorated class's parameter types are runtime values.
    languageOptions: { parserOptions: { emitDecoratorMetadata: true, experimentalDecorators: true } },
    rules: {
      // Prettier lays code out at 120 columns (npm run format); comments and plain strings are cut
      // to the same width by scripts/format/wrap-long-lines.mjs. What neither can cut is allowed: a
      // URL, a regular expression, an import path, a template whose substitutions fill the line.
      '@stylistic/max-len': [
        'error',
        {
          code: 120,
          ignoreUrls: true,
          ignoreRegExpLiterals: true,
          ignoreTemplateLiterals: true,
          ignorePattern: '^\\s*import\\s',
        },
      ],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          banTransitiveDependencies: false,
          depConstraints: [
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: [
                'type:feature',
                'type:data-access',
                'type:domain',
                'type:util',
                'type:contracts',
              ],
            },
            {
              sourceTag: 'type:feature',
              onlyDependOnLibsWithTags: ['type:data-access', 'type:domain', 'type:util', 'type:contracts'],
            },
            {
              sourceTag: 'type:data-access',
              onlyDependOnLibsWithTags: ['type:data-access', 'type:domain', 'type:util', 'type:contracts'],
            },
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain', 'type:util', 'type:contracts'] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util', 'type:contracts'] },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:gateway', 'scope:shared'] },
            {
              sourceTag: 'scope:search-orchestrator',
              onlyDependOnLibsWithTags: ['scope:search-orchestrator', 'scope:shared'],
            },
            {
              sourceTag: 'scope:provider-fetcher',
              onlyDependOnLibsWithTags: ['scope:provider-fetcher', 'scope:shared'],
            },
            { sourceTag: 'scope:dedupe', onlyDependOnLibsWithTags: ['scope:dedupe', 'scope:shared'] },
            { sourceTag: 'scope:billing', onlyDependOnLibsWithTags: ['scope:billing', 'scope:shared'] },
            {
              sourceTag: 'scope:webhook-dispatcher',
              onlyDependOnLibsWithTags: ['scope:webhook-dispatcher', 'scope:shared'],
            },
            { sourceTag: 'scope:provider-sim', onlyDependOnLibsWithTags: ['scope:provider-sim', 'scope:shared'] },
            { sourceTag: 'scope:dashboard', onlyDependOnLibsWithTags: ['scope:dashboard', 'scope:shared'] },
          ],
        },
      ],
      'no-console': 'error',
      // Services load OpenTelemetry's import-in-the-middle in their own thread (libs/observability,
      // telemetry.ts): a builtin's functions imported by name keep their unpatched originals, so an
      // outgoing call made through them would have no span. Call fetch, or the module object.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        ...['http', 'https']
          .flatMap((name) => [name, `node:${name}`])
          .map((name) => ({
            name,
            importNames: ['request', 'get'],
            allowTypeImports: true,
            message:
              'Named or namespace imports of node:http(s) request/get are ' +
              'not traced (libs/observability/src/telemetry.ts); use fetch ' +
              'or the default import.',
          })),
      ],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.spec.ts', '**/test/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts'],
    // (Tests and benchmarks do not run under the services' preload: their raw HTTP clients need no span.)
    rules: { 'no-console': 'off', '@typescript-eslint/no-restricted-imports': 'off' },
  },
];
