export * from './load-manifests.js';
export * from './validate-manifest.js';
export * from './promql.js';
export * from './monitoring.js';
