import { Controller, Get, Header } from '@nestjs/common';
import { OpenApiDocumentSource } from './openapi-document.source.js';

/** `GET /openapi.yaml` on the public port, no key: the OpenAPI 3.1 document of the whole API. */
@Controller()
export class OpenApiController {
  constructor(private readonly openApi: OpenApiDocumentSource) {}

  @Get('openapi.yaml')
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=300')
  get(): string {
    return this.openApi.yaml();
  }
}
