export * from './api-reference.js';
export * from './filters-reference.js';
export * from './guides.js';
export * from './markdown.js';
export * from './paths.js';
export * from './shell-examples.js';
export * from './site.js';
export * from './slug.js';
