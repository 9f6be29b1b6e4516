export * from './logger.js';
export * from './request-context.js';
export * from './ids.js';
export * from './stage-span.js';
export * from './metrics.js';
export { distrustCallerTraceOn } from './trace-edge.js';
export { activeTraceparent, traceparentOf } from './traceparent.js';
export { decodeUrlPart, redactUrl } from './secret-redaction.js';
