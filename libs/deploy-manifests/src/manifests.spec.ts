import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SECRET_SETTINGS, SharedEnvSchema } from '@jobs/config';
import { ALL_TOPICS, SERVICE_NAMES } from '@jobs/contracts';
import { loadManifests, type ManifestDocument } from './load-manifests.js';
import { KUSTOMIZATION, kindOf, validateManifest } from './validate-manifest.js';

// The manifests of deploy/k8s (docs/operations.md "Scaling"): schema-valid, and shaped so that
// scaling a service never breaks it.
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'deploy', 'k8s');
const all = loadManifests(ROOT);
const objects = all.filter((m) => kindOf(m.doc) !== KUSTOMIZATION);

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const of = (kind: string): Obj[] => objects.filter((m) => m.doc['kind'] === kind).map((m) => m.doc as Obj);
const deployments = of('Deployment');
const name = (doc: Obj): string => doc['metadata']['name'];
const devOnly = (d: Obj) => d['metadata']['labels']?.['app.kubernetes.io/component'] === 'dev-only';
const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);
const podLabels = (d: Obj): Record<string, string> => d['spec']['template']['metadata']['labels'];
const container = (d: Obj): Obj => d['spec']['template']['spec']['containers'][0];

/** Variables that hold credentials: they come from a Secret by secretKeyRef, never from a literal. */
const SECRET_VARIABLES = ['DATABASE_URL', 'REDIS_URL', ...SECRET_SETTINGS.map((s) => s.name)];
/** The services that connect to PostgreSQL, each as its own role (libs/db/roles.mjs SERVICE_ROLES). */
const DATABASE_SERVICES = ['billing', 'dedupe', 'gateway', 'search-orchestrator', 'webhook-dispatcher'];
/** The Secret a variable of a Deployment comes from: its own for its connection string, the shared one for the rest. */
const secretOf = (deployment: string, variable: string) =>
  variable === 'DATABASE_URL' ? `jobs-db-${deployment}` : 'jobs-secrets';
/** What a secretKeyRef stands for when a spec checks the environment's shape (the real value is the operator's). */
const SECRET_STAND_INS: Record<string, string> = {
  DATABASE_URL: 'postgresql://jobs:secret@postgres:5432/jobs',
  REDIS_URL: 'redis://redis:6379/0',
};

/** The environment a container starts with: its ConfigMaps, then its own env (a secretKeyRef as a stand-in value). */
function environment(d: Obj): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of container(d)['envFrom'] ?? []) {
    if (!from.configMapRef)
      throw new Error(`${name(d)}: envFrom takes ConfigMaps only; secrets come one by one by secretKeyRef`);
    const source = objects.find((m) => m.doc['kind'] === 'ConfigMap' && name(m.doc) === from.configMapRef.name);
    if (!source) throw new Error(`${name(d)}: envFrom ${from.configMapRef.name} is not in the manifests`);
    Object.assign(env, (source.doc as Obj)['data'] ?? {});
  }
  for (const e of container(d)['env'] ?? []) {
    if (e.value !== undefined) env[e.name] = String(e.value);
    else if (e.valueFrom?.secretKeyRef) env[e.name] = SECRET_STAND_INS[e.name] ?? 's'.repeat(64);
  }
  return env;
}

/** The secretKeyRef a container's variable comes from, if any. */
function secretRefOf(d: Obj, variable: string): { name: string; key: string } | undefined {
  return (container(d)['env'] ?? []).find((e: Obj) => e.name === variable)?.valueFrom?.secretKeyRef;
}

/** The port and path an httpGet probe asks (the kubelet's own HTTP check: no process per probe). */
function probeTarget(probe: Obj | undefined): { port: number; path: string } | undefined {
  if (!probe?.['httpGet']) return undefined;
  return { port: Number(probe['httpGet'].port), path: probe['httpGet'].path };
}

/** Seconds a preStop `sleep N` holds the pod before SIGTERM. */
function preStopSeconds(d: Obj): number {
  const command: string[] = container(d)['lifecycle']?.preStop?.exec?.command ?? [];
  return command[0] === 'sleep' ? Number(command[1]) : 0;
}

/** The most partitions among the topics a service consumes: more replicas than this would idle. */
function maxUsefulReplicas(service: string): number {
  return Math.max(
    0,
    ...ALL_TOPICS.filter((t) => (t.consumers as readonly string[]).includes(service)).map((t) => t.partitions),
  );
}
const consumes = (service: string) => maxUsefulReplicas(service) > 0;

describe('deploy/k8s manifests', () => {
  it('are found', () => {
    expect(deployments.length).toBeGreaterThanOrEqual(7);
  });

  it.each(objects.map((m): [string, ManifestDocument] => [`${m.file}#${m.index} ${kindOf(m.doc)} ${name(m.doc)}`, m]))(
    '%s matches the Kubernetes schema',
    (_label, m) => {
      expect(() => validateManifest(m.doc)).not.toThrow();
    },
  );

  it('every kustomization lists every manifest of its folder and nothing missing', () => {
    for (const k of all.filter((m) => kindOf(m.doc) === KUSTOMIZATION)) {
      const dir = dirname(k.file);
      const resources = (k.doc['resources'] as string[]).filter((r) => /\.ya?ml$/.test(r));
      for (const r of k.doc['resources'] as string[]) expect(existsSync(join(ROOT, dir, r))).toBe(true);
      const here = all
        .filter((m) => dirname(m.file) === dir && kindOf(m.doc) !== KUSTOMIZATION)
        .map((m) => m.file.slice(dir.length + 1));
      expect([...new Set(here)].sort()).toEqual([...resources].sort());
    }
  });

  it('every service has a Deployment that runs its own app', () => {
    expect(deployments.map(name).sort()).toEqual([...SERVICE_NAMES].sort());
    for (const d of deployments) {
      expect(container(d)['command']).toContain(`apps/${name(d)}/bundle/main.mjs`);
      expect(matches(d['spec']['selector']['matchLabels'], podLabels(d))).toBe(true);
    }
  });

  it.each(deployments.map((d) => [name(d), d] as const))('%s probes /readyz and /livez on its health port', (_n, d) => {
    const env = environment(d);
    const healthPort = Number(
      name(d) === 'gateway' ? env['PORT'] : name(d) === 'provider-sim' ? env['PROVIDER_SIM_PORT'] : env['HEALTH_PORT'],
    );
    expect(healthPort).toBeGreaterThan(0);
    expect(probeTarget(container(d)['readinessProbe'])).toEqual({ port: healthPort, path: '/readyz' });
    expect(probeTarget(container(d)['livenessProbe'])).toEqual({ port: healthPort, path: '/livez' });
    expect(container(d)['resources']?.requests).toBeDefined();
    expect(container(d)['resources']?.limits).toBeDefined();
  });

  it.each(deployments.map((d) => [name(d), d] as const))(
    '%s is scraped by Prometheus at /metrics on its health port, the admin port for the gateway',
    (_n, d) => {
      const env = environment(d);
      const metricsPort =
        name(d) === 'gateway'
          ? env['ADMIN_PORT']
          : name(d) === 'provider-sim'
            ? env['PROVIDER_SIM_PORT']
            : env['HEALTH_PORT'];
      const declared = (container(d)['ports'] ?? []).map((p: Obj) => String(p.containerPort));
      expect(declared).toContain(metricsPort);
      expect(d['spec']['template']['metadata']['annotations']).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': metricsPort,
        'prometheus.io/path': '/metrics',
      });
    },
  );

  it.each(deployments.map((d) => [name(d), d] as const))('%s gets longer to stop than its drain may take', (_n, d) => {
    const drainMs = Number(environment(d)['SHUTDOWN_TIMEOUT_MS'] ?? SharedEnvSchema.parse({}).SHUTDOWN_TIMEOUT_MS);
    expect(d['spec']['template']['spec']['terminationGracePeriodSeconds']).toBeGreaterThan(
      preStopSeconds(d) + drainMs / 1000,
    );
  });

  it.each(deployments.filter((d) => !devOnly(d)).map((d) => [name(d), d] as const))(
    '%s is configured: its environment passes the shared config schema',
    (_n, d) => {
      const env = environment(d);
      for (const key of [
        ...(DATABASE_SERVICES.includes(name(d)) ? ['DATABASE_URL'] : []),
        'REDIS_URL',
        'KAFKA_BROKERS',
        'CURSOR_SECRET',
        'INSTANCE_ID',
      ]) {
        expect({ key, set: key in env || (container(d)['env'] ?? []).some((e: Obj) => e.name === key) }).toEqual({
          key,
          set: true,
        });
      }
      expect(SharedEnvSchema.safeParse(env).error?.issues ?? []).toEqual([]);
    },
  );

  it(
    'hold no secret value: no Secret object, no credential in a ' + 'ConfigMap or a literal, each read by secretKeyRef',
    () => {
      expect(of('Secret')).toEqual([]);
      for (const map of of('ConfigMap'))
        for (const variable of SECRET_VARIABLES)
          expect({ map: name(map), variable, value: map['data']?.[variable] }).toEqual({
            map: name(map),
            variable,
            value: undefined,
          });
      for (const d of deployments) {
        for (const e of container(d)['env'] ?? []) {
          if (SECRET_VARIABLES.includes(e.name)) {
            expect({ deployment: name(d), variable: e.name, from: e.valueFrom?.secretKeyRef }).toEqual({
              deployment: name(d),
              variable: e.name,
              from: { name: secretOf(name(d), e.name), key: e.name },
            });
          }
        }
      }
      const migrate = of('Job')[0]!['spec']['template']['spec']['containers'][0];
      expect(migrate['env'].find((e: Obj) => e.name === 'DATABASE_URL').valueFrom.secretKeyRef).toEqual({
        name: 'jobs-secrets',
        key: 'DATABASE_URL',
      });
      // production: the services refuse weak or development secrets at start (libs/config)
      expect(of('ConfigMap').find((m) => name(m) === 'jobs-config')!['data']['NODE_ENV']).toBe('production');
    },
  );

  it(
    'each service that uses PostgreSQL connects as its own role, ' +
      'from a Secret of its own; the migration sets their passwords',
    () => {
      const withDatabase = deployments.filter((d) => secretRefOf(d, 'DATABASE_URL')).map(name);
      expect(withDatabase.sort()).toEqual(DATABASE_SERVICES);
      for (const service of DATABASE_SERVICES) {
        expect(
          secretRefOf(
            deployments.find((d) => name(d) === service)!,
            'DATABASE_URL',
          ),
        ).toEqual({ name: `jobs-db-${service}`, key: 'DATABASE_URL' });
      }
      // the fetcher and the simulator have no database, so no credentials for one
      for (const service of ['provider-fetcher', 'provider-sim'])
        expect(
          container(deployments.find((d) => name(d) === service)!)['env']?.some(
            (e: Obj) => e.name === 'DATABASE_URL',
          ) ?? false,
        ).toBe(false);
      const migrate: Obj = of('Job')[0]!['spec']['template']['spec']['containers'][0];
      const roleUrls = (migrate['env'] as Obj[]).filter((e) => e.name.startsWith('DATABASE_URL_'));
      expect(roleUrls.map((e) => [e.name, e.valueFrom?.secretKeyRef]).sort()).toEqual(
        DATABASE_SERVICES.map((service) => [
          `DATABASE_URL_${service.toUpperCase().replaceAll('-', '_')}`,
          { name: `jobs-db-${service}`, key: 'DATABASE_URL' },
        ]).sort(),
      );
    },
  );

  it('the gateway has its admin token and asks every other service for readiness through a Service', () => {
    const gateway = deployments.find((d) => name(d) === 'gateway')!;
    const env = environment(gateway);
    expect(secretRefOf(gateway, 'ADMIN_TOKEN')).toEqual({ name: 'jobs-secrets', key: 'ADMIN_TOKEN' });
    // the simulator's control routes take the same token
    const sim = deployments.find((d) => name(d) === 'provider-sim')!;
    expect(secretRefOf(sim, 'ADMIN_TOKEN')).toEqual({ name: 'jobs-secrets', key: 'ADMIN_TOKEN' });
    const urls = env['SERVICE_HEALTH_URLS']!.split(',').map((pair) => pair.split('='));
    const services = of('Service');
    for (const [service, url] of urls) {
      const target = new URL(url!);
      const svc = services.find((s) => name(s) === target.hostname);
      expect({ service, svc: svc && name(svc) }).toEqual({ service, svc: service });
      expect(svc!['spec']['ports'].map((p: Obj) => p.port)).toContain(Number(target.port));
    }
    expect(urls.map(([service]) => service).sort()).toEqual(
      deployments
        .filter((d) => !devOnly(d) && name(d) !== 'gateway')
        .map(name)
        .sort(),
    );
  });

  it('every Service selects the pods of a Deployment and names a port they declare, unless it is external', () => {
    for (const s of of('Service')) {
      if (s['spec']['type'] === 'ExternalName') {
        expect(s['spec']['externalName']).toMatch(/\./);
        continue;
      }
      const d = deployments.find((dep) => matches(s['spec']['selector'], podLabels(dep)));
      expect({ service: name(s), deployment: d && name(d) }).toEqual({
        service: name(s),
        deployment: name(s).replace(/-admin$/, ''),
      });
      const ports = (container(d!)['ports'] as Obj[]).map((p) => p['name']);
      for (const p of s['spec']['ports']) expect(ports).toContain(p.targetPort);
    }
  });

  it('Kafka, PostgreSQL and Redis are external endpoints the configuration points at', () => {
    const external = of('Service')
      .filter((s) => s['spec']['type'] === 'ExternalName')
      .map(name)
      .sort();
    expect(external).toEqual(['kafka', 'postgres', 'redis']);
    const billing = deployments.find((d) => name(d) === 'billing')!;
    const env = environment(billing);
    // PostgreSQL's and Redis's addresses carry credentials: the Secret holds them (config.yaml shows the shape)
    expect(secretRefOf(billing, 'DATABASE_URL')).toBeDefined();
    expect(secretRefOf(billing, 'REDIS_URL')).toBeDefined();
    expect(env['KAFKA_BROKERS']!.split(',').map((b) => b.split(':')[0])).toEqual(['kafka']);
  });

  it.each(deployments.filter((d) => !devOnly(d)).map((d) => [name(d), d] as const))(
    '%s has a PodDisruptionBudget and an autoscaler bounded by its partitions',
    (service, d) => {
      const pdbs = of('PodDisruptionBudget').filter((p) => matches(p['spec']['selector']['matchLabels'], podLabels(d)));
      expect(pdbs).toHaveLength(1);
      const hpas = of('HorizontalPodAutoscaler').filter(
        (h) => h['spec']['scaleTargetRef'].kind === 'Deployment' && h['spec']['scaleTargetRef'].name === service,
      );
      expect(hpas).toHaveLength(1);
      const hpa = hpas[0]!;
      expect(consumes(service)).toBe(true);
      expect(hpa['spec']['maxReplicas']).toBeLessThanOrEqual(maxUsefulReplicas(service));
      expect(hpa['spec']['minReplicas']).toBeLessThanOrEqual(hpa['spec']['maxReplicas']);
      // one replica may be evicted at a time while the autoscaler's floor keeps the rest running
      expect(hpa['spec']['minReplicas']).toBeGreaterThanOrEqual(2);
      const metrics: Obj[] = hpa['spec']['metrics'];
      if (service === 'gateway') {
        expect(metrics.some((m) => m['type'] === 'Resource' && m['resource'].name === 'cpu')).toBe(true);
      } else {
        // consumers scale on the lag of their own consumer group (a metrics adapter: docs/operations.md "Scaling")
        const lag = metrics.find((m) => m['type'] === 'External');
        expect(lag?.['external'].metric).toEqual({
          name: 'kafka_consumergroup_lag',
          selector: { matchLabels: { consumergroup: service } },
        });
      }
    },
  );

  it('no autoscaler targets a dev-only Deployment', () => {
    const dev = deployments.filter(devOnly).map(name);
    expect(dev).toEqual(['provider-sim']);
    for (const h of of('HorizontalPodAutoscaler')) expect(dev).not.toContain(h['spec']['scaleTargetRef'].name);
  });
});
