export * from './load-manifests.js';
export * from './validate-manifest.js';
