import { Controller, Get, Header } from '@nestjs/common';
import { PROMETHEUS_CONTENT_TYPE, scrapeMetrics } from '@jobs/observability';

/**
 * The process's metrics in Prometheus text format. Mounted beside /livez and /readyz on each
 * consumer's health port and on the gateway's admin port, never on the public API.
 */
@Controller()
export class MetricsController {
  @Get('metrics')
  @Header('Content-Type', PROMETHEUS_CONTENT_TYPE)
  metrics(): Promise<string> {
    return scrapeMetrics();
  }
}
