// Loaded with `node --import` before a service's main module (see the README).
import { startTelemetry, telemetryHooksReady } from './telemetry.js';

startTelemetry(process.env['OTEL_SERVICE_NAME'] ?? 'jobs-service');
await telemetryHooksReady();
