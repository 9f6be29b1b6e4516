import { Inject, Injectable } from '@nestjs/common';
import { checkWebhookUrl, HostResolver } from '@jobs/webhook-targets';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { ApiError } from '../http/api-error.js';

/**
 * WEBHOOK_ALLOW_PRIVATE at creation time (POST /searches, POST /watches, and the secrets of
 * /webhook_endpoints; the dispatcher checks again at every connection): a `webhook_url` that is, or resolves to, a
 * non-public address is a
 * 400 `invalid_request` on `webhook_url`. The host resolves through the bounded, cached resolver,
 * so a slow domain costs at most its timeout, once per cache period.
 */
@Injectable()
export class WebhookTargetCheck {
  constructor(
    private readonly resolver: HostResolver,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /**
   * `param`: the field the URL came in (`webhook_url`, or `url` on the webhook endpoint routes), named in the refusal.
   * `unresolvedAllowed`: a host that does not resolve now passes (returned true); any other refusal stands.
   */
  async assertAllowed(url: string, param = 'webhook_url', { unresolvedAllowed = false } = {}): Promise<boolean> {
    const verdict = await checkWebhookUrl(url, {
      allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE,
      resolve: (host) => this.resolver.resolve(host),
    });
    if (verdict.ok) return false;
    if (verdict.unresolved && unresolvedAllowed) return true;
    throw new ApiError('invalid_request', verdict.reason.replace(/^webhook_url:/, `${param}:`), { param });
  }
}
