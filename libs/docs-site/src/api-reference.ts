import { ERROR_CATALOG, ERROR_CODES, type OpenApiDocument } from '@jobs/contracts';

type Json = Record<string, unknown>;

/** `#/components/<kind>/<name>` of the document, resolved once. */
function resolve(document: OpenApiDocument, node: Json): Json {
  const ref = node['$ref'];
  if (typeof ref !== 'string') return node;
  let target: unknown = document;
  for (const segment of ref.replace(/^#\//, '').split('/')) target = (target as Json)[segment];
  return target as Json;
}

const refName = (node: unknown): string | undefined => {
  const ref = (node as Json | undefined)?.['$ref'];
  return typeof ref === 'string' ? ref.split('/').pop() : undefined;
};

/** The name of the JSON body's schema of a request body or response. */
const jsonSchemaName = (holder: Json | undefined): string | undefined =>
  refName(((holder?.['content'] as Json | undefined)?.['application/json'] as Json | undefined)?.['schema']);

/** The error codes a status can carry (the catalogue), each linked to its section of the errors page. */
function codesOf(status: number): string {
  return ERROR_CODES.filter((code) => ERROR_CATALOG[code].status === status)
    .map((code) => `[\`${code}\`](errors.md#${code})`)
    .join(', ');
}

/**
 * The Markdown twin of the API reference: every operation of the OpenAPI document (method, path,
 * summary, description, parameters, body and responses, errors linked to their sections), and a
 * pointer to the full machine-readable document for the schemas.
 */
export function apiReferenceMarkdown(document: OpenApiDocument): string {
  const server = document.servers[0]?.url ?? '';
  const lines: string[] = [
    '# API reference',
    '',
    `${document.info.title}, version \`${document.info.version}\` (OpenAPI ${document.openapi}).`,
    '',
    document.info.description,
    '',
    `The complete machine-readable description, with every ` +
      `schema, is [/openapi.yaml](/openapi.yaml); the [HTML version ` +
      `of this page](/docs/api) renders it. Paths below are ` +
      `relative to the host, under \`${server}\`.`,
    '',
  ];
  const byTag = new Map<string, [string, string, Json][]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item as unknown as Record<string, Json>)) {
      const tag = ((operation['tags'] as string[] | undefined) ?? ['Other'])[0]!;
      byTag.set(tag, [...(byTag.get(tag) ?? []), [method, path, operation]]);
    }
  }
  const tags = [...(document.tags ?? []).map((tag) => tag.name), ...byTag.keys()].filter(
    (tag, i, all) => all.indexOf(tag) === i && byTag.has(tag),
  );
  for (const tag of tags) {
    lines.push(`## ${tag}`, '');
    const description = document.tags?.find((t) => t.name === tag)?.description;
    if (description) lines.push(description, '');
    for (const [method, path, operation] of byTag.get(tag)!) {
      lines.push(
        `### ${method.toUpperCase()} ${server}${path}`,
        '',
        `**${String(operation['summary'] ?? '')}**`,
        '',
        String(operation['description'] ?? '').trim(),
        '',
      );
      const security = operation['security'] as unknown[] | undefined;
      lines.push(
        `- Authentication: ${security && security.length === 0 ? 'none' : '`Authorization: Bearer <API key>`'}`,
      );
      for (const parameter of ((operation['parameters'] as Json[] | undefined) ?? []).map((p) =>
        resolve(document, p),
      )) {
        const where = String(parameter['in']);
        const required = parameter['required'] === true ? ' (required)' : '';
        const detail = parameter['description'] ? `: ${String(parameter['description'])}` : '';
        lines.push(
          `- ` +
            `${where === 'header' ? 'Header' : where === 'path' ? 'Path parameter' : 'Query parameter'} ` +
            `\`${String(parameter['name'])}\`${required}${detail}`,
        );
      }
      const body = jsonSchemaName(operation['requestBody'] as Json | undefined);
      if (body) lines.push(`- Request body: \`${body}\` (JSON)`);
      for (const [status, response] of Object.entries(operation['responses'] as Record<string, Json>)) {
        const code = Number(status);
        if (code >= 400) {
          lines.push(`- \`${status}\`: ${codesOf(code)}`);
          continue;
        }
        const resolved = resolve(document, response);
        const schema = jsonSchemaName(resolved);
        lines.push(`- \`${status}\`: ${String(resolved['description'] ?? '')}${schema ? ` Body: \`${schema}\`.` : ''}`);
      }
      lines.push('');
    }
  }
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

/**
 * The script that starts Swagger UI on the API reference page: the document of this host, no
 * top bar, and no call to swagger.io's online validator (its default: the only outside request
 * Swagger UI makes).
 */
export function swaggerInitializer(openApiPath: string): string {
  return `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(openApiPath)},
    dom_id: '#swagger-ui',
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    deepLinking: true,
    validatorUrl: null,
    defaultModelsExpandDepth: 0,
    docExpansion: 'list',
    tryItOutEnabled: false,
    persistAuthorization: false
  });
});
`;
}
