import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { SharedEnvSchema } from '@jobs/config';
import { ALL_TOPICS } from '@jobs/contracts';

// docker-compose.yml must allow `docker compose up --scale <consumer>=N` (docs/operations.md "Scaling").
const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docker-compose.yml');
const compose = parse(readFileSync(file, 'utf8'), { merge: true }) as {
  services: Record<string, Record<string, unknown>>;
};
const consumers = [...new Set(ALL_TOPICS.flatMap((t) => t.consumers as readonly string[]))].filter(
  (s) => s !== 'gateway',
);

describe('docker-compose.yml', () => {
  it('runs every consuming service', () => {
    expect(consumers.length).toBeGreaterThanOrEqual(5);
    for (const service of consumers) expect(Object.keys(compose.services)).toContain(service);
  });

  it.each(consumers)('%s pins no host port or container name, so --scale never clashes', (service) => {
    const definition = compose.services[service]!;
    expect(definition['ports']).toBeUndefined();
    expect(definition['container_name']).toBeUndefined();
  });

  it.each(['ADMIN_TOKEN', 'CURSOR_SECRET', 'WEBHOOK_SECRETS_KEY'])(
    'requires %s from the operator: no default value',
    (variable) => {
      for (const [service, definition] of Object.entries(compose.services)) {
        const value = (definition['environment'] as Record<string, unknown> | undefined)?.[variable];
        if (value === undefined) continue;
        expect({ service, value }).toEqual({
          service,
          value: expect.stringMatching(new RegExp(`^\\$\\{${variable}:\\?[^}]+\\}$`)),
        });
      }
      expect((compose.services['gateway']!['environment'] as Record<string, unknown>)[variable]).toBeDefined();
    },
  );

  it.each(consumers)('%s is given longer to stop than its drain may take', (service) => {
    const grace = /^(\d+)s$/.exec(String(compose.services[service]!['stop_grace_period']));
    expect(Number(grace?.[1]) * 1000).toBeGreaterThan(SharedEnvSchema.parse({}).SHUTDOWN_TIMEOUT_MS);
  });
});
