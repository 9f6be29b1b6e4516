import type { FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config/gateway.config.js';

/**
 * The scheme the browser used: https when the connection is TLS or a proxy in front says so
 * (X-Forwarded-Proto). Trusting the header can only make the cookie stricter (Secure) and the
 * origin check expect https; it never loosens either.
 */
export function requestProtocol(
  request: FastifyRequest,
  config: Pick<GatewayConfig, 'DASHBOARD_COOKIE_SECURE'>,
): 'http' | 'https' {
  const forwarded = request.headers['x-forwarded-proto'];
  if (request.protocol === 'https' || (typeof forwarded === 'string' && forwarded.split(',')[0]!.trim() === 'https'))
    return 'https';
  return config.DASHBOARD_COOKIE_SECURE === 'true' ? 'https' : 'http';
}
