import { stringify } from 'yaml';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi-document.js';

/**
 * The document as YAML, as served at `/openapi.yaml`. Shared sub-objects are written out in
 * full (no YAML anchors), and scalars a YAML 1.1 reader would misread (the version date
 * `2026-10-01`, `yes`, `on`) are quoted, so any OpenAPI tool reads the same values.
 */
export function renderOpenApiYaml(document: OpenApiDocument = buildOpenApiDocument()): string {
  return stringify(document, { version: '1.1', aliasDuplicateObjects: false, lineWidth: 0 });
}
