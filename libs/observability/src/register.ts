// Loaded with `node --import` before a service's main module (scripts/bundle.mjs and the services' start commands).
import { enableCompileCache } from 'node:module';

// V8's compiled code for every module is kept on disk (in the OS temp dir, or NODE_COMPILE_CACHE)
// and reused by the next start: a restart after a crash parses less (docs/operations.md, "Recovery after a crash"). It
// fails soft (a read-only disk only loses the cache), and the telemetry modules come after it.
enableCompileCache();
const { startTelemetry, telemetryHooksReady } = await import('./telemetry.js');

await startTelemetry(process.env['OTEL_SERVICE_NAME'] ?? 'jobs-service');
await telemetryHooksReady();
