import { Injectable } from '@nestjs/common';
import { buildOpenApiDocument, renderOpenApiYaml, type OpenApiDocument } from '@jobs/contracts';

/**
 * The OpenAPI document of the whole API, a pure function of the contracts: built once per
 * process, for `/openapi.yaml` and the documentation site alike, and only when first asked for,
 * so a gateway restarting after a crash does not spend start-up CPU on it (building it and its
 * YAML is work most starts never need).
 */
@Injectable()
export class OpenApiDocumentSource {
  private built?: OpenApiDocument;
  private rendered?: string;

  document(): OpenApiDocument {
    return (this.built ??= buildOpenApiDocument());
  }

  yaml(): string {
    return (this.rendered ??= renderOpenApiYaml(this.document()));
  }
}
