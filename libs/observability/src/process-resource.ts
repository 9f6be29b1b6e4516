import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';

/**
 * What telemetry shows of the process (every span's resource, `target_info` of `/metrics`): what
 * names it (services and replicas are told apart by it), never its command line, executable path,
 * user or kernel. `/metrics` needs no token (docs/security.md, "The admin port"), and the Zipkin
 * format repeats the resource as tags of every span, so a long command line would also be
 * serialized, sent and stored once per span.
 */
export const SHOWN_RESOURCE_ATTRIBUTES = [
  'service.name',
  'service.instance.id',
  'service.version',
  'host.name',
  'host.arch',
  'os.type',
  'process.pid',
  'process.runtime.name',
  'process.runtime.version',
  'telemetry.sdk.language',
  'telemetry.sdk.name',
  'telemetry.sdk.version',
];

/** The resource limited to SHOWN_RESOURCE_ATTRIBUTES (detected resources are settled first). */
export function shownResource(resource: Resource): Resource {
  return resourceFromAttributes(
    Object.fromEntries(
      SHOWN_RESOURCE_ATTRIBUTES.flatMap((name) => {
        const value = resource.attributes[name];
        return value === undefined ? [] : [[name, value]];
      }),
    ),
  );
}
