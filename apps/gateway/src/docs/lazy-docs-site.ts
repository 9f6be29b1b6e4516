import { Inject, Injectable } from '@nestjs/common';
import { DocsSite } from '@jobs/docs-site';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { OpenApiDocumentSource } from '../openapi/openapi-document.source.js';

/**
 * The documentation site, built on the first `/docs` request and then served from memory: not at
 * every gateway start, so a restart after a crash serves the API sooner.
 */
@Injectable()
export class LazyDocsSite {
  private site?: DocsSite;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly openApi: OpenApiDocumentSource,
  ) {}

  get(): DocsSite {
    return (this.site ??= DocsSite.build({
      openApi: this.openApi.document(),
      publicBaseUrl: this.config.PUBLIC_BASE_URL,
    }));
  }
}
