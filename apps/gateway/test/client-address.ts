import { request } from 'node:http';
import { stack } from './stack.js';

/**
 * Calls the API from a loopback address of the test's own (127.0.0.0/8 is all loopback on
 * Linux). Keyless routes are rate limited per client address, so a test that sends many
 * sandbox requests keeps its own bucket and neither starves nor is starved by the others.
 */
export function fromAddress(localAddress: string) {
  return (path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) =>
    new Promise<{ status: number; headers: Headers; body: Record<string, unknown> | null }>((resolve, reject) => {
      const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
      const req = request(
        new URL(path, stack.baseUrl),
        {
          method: payload === undefined ? 'GET' : 'POST',
          localAddress,
          headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(res.headers))
              if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({
              status: res.statusCode ?? 0,
              headers,
              body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
            });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
}
