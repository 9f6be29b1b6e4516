export * from './openapi-document.js';
export * from './openapi-yaml.js';
