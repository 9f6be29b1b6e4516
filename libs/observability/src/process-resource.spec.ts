import { resourceFromAttributes } from '@opentelemetry/resources';
import { shownResource } from './process-resource.js';

describe('shownResource', () => {
  it('keeps what names the process and drops its command line, paths, user and kernel', () => {
    const detected = resourceFromAttributes({
      'service.name': 'dedupe',
      'service.instance.id': 'b5c7',
      'host.name': 'node-1',
      'host.id': '3d1219c7c4c5404aaa1f6d2a48adfda4',
      'process.pid': 42,
      'process.runtime.version': '24.0.0',
      'process.command_args': ['node', '--inspect-port=127.0.0.1:9229', 'main.mjs', '--token=s3cret'],
      'process.command': 'main.mjs',
      'process.executable.path': '/opt/node/bin/node',
      'process.owner': 'root',
      'os.version': '6.18.44',
    });
    expect(shownResource(detected).attributes).toEqual({
      'service.name': 'dedupe',
      'service.instance.id': 'b5c7',
      'host.name': 'node-1',
      'process.pid': 42,
      'process.runtime.version': '24.0.0',
    });
  });
});
