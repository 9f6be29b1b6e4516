#!/usr/bin/env node
/**
 * Bundles one service (the `bundle` target of each deployable in apps/, run with the project's
 * root as cwd): its built `dist/main.js` and the workspace and npm modules it imports become one
 * file, `bundle/main.mjs`, which the stack, the Dockerfile and the manifests start.
 *
 * Why: unbundled, a service's start is mostly Node resolving, reading and linking its thousands
 * of module files, on every start and so on every restart after a crash (docs/operations.md,
 * "Recovery after a crash").
 *
 * Left outside the bundle, loaded by Node as before:
 * - what OpenTelemetry instruments (pg, ioredis, Prisma) and the telemetry itself
 *   (`@jobs/observability`, `@opentelemetry/*`): the preload patches those modules as they are
 *   loaded, and a copy inside the bundle would be neither patched nor the preload's instance;
 * - native addons and modules that find files next to themselves (Prisma's generated client and
 *   its query compiler, the docs site's guides and assets, swagger-ui-dist);
 * - Node's builtins, and the optional packages Nest asks for only when a feature is used.
 */
import { resolve } from 'node:path';
import { rolldown } from 'rolldown';

const EXTERNAL = [
  /^node:/,
  /^pg(-[a-z-]+)?(\/|$)/,
  /^ioredis(\/|$)/,
  /^@prisma\//,
  /\/generated\/prisma\//,
  /^@opentelemetry\//,
  /^@jobs\/observability(\/|$)/,
  /^@jobs\/docs-site(\/|$)/,
  /^swagger-ui-dist(\/|$)/,
  /^(import|require)-in-the-middle(\/|$)/,
  /^@node-rs\//,
  // Nest's optional integrations, required lazily (loadPackage) and not installed
  /^@nestjs\/(websockets|platform-express|platform-socket\.io)(\/|$)/,
  /^@fastify\/(view|static|multipart)(\/|$)/,
  /^class-(transformer|validator)(\/|$)/,
  /^(@grpc|@nats-io|amqplib|amqp-connection-manager|mqtt|nats)(\/|$)/,
];
const BUILTIN = new Set((await import('node:module')).builtinModules);

const projectRoot = process.cwd();
// The rolling-upgrade fault test builds a later version of a service from the same bundle: a
// plugin of its own (BUNDLE_PLUGIN) changes a module, into another file beside it (BUNDLE_OUT).
const plugins = process.env.BUNDLE_PLUGIN ? [(await import(resolve(process.env.BUNDLE_PLUGIN))).default] : [];
const bundle = await rolldown({
  input: resolve(projectRoot, 'dist/main.js'),
  platform: 'node',
  plugins,
  external: (id) => BUILTIN.has(id) || EXTERNAL.some((pattern) => pattern.test(id)),
  // An import that resolves nowhere and is not listed above fails the build, not the service's start.
  onLog(level, log, handler) {
    if (log.code === 'UNRESOLVED_IMPORT') handler('error', log);
    else if (log.code !== 'EVAL' && log.code !== 'CIRCULAR_DEPENDENCY') handler(level, log);
  },
});
await bundle.write({
  file: resolve(projectRoot, process.env.BUNDLE_OUT ?? 'bundle/main.mjs'),
  format: 'esm',
  sourcemap: true,
  codeSplitting: false,
});
await bundle.close();
