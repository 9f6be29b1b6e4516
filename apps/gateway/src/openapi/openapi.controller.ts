import { Controller, Get, Header } from '@nestjs/common';
import { renderOpenApiYaml } from '@jobs/contracts';

/** `GET /openapi.yaml` on the public port, no key: the OpenAPI 3.1 document of the whole API. */
@Controller()
export class OpenApiController {
  // The document is a pure function of the contracts: render it once per process.
  private readonly yaml = renderOpenApiYaml();

  @Get('openapi.yaml')
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=300')
  get(): string {
    return this.yaml;
  }
}
