import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { HttpErrorFilter } from './common/http-error.filter.js';

/**
 * What main.ts and the tests share: the error envelope, and JSON bodies that may be empty
 * (a proxied `POST .../reset` or `.../repost` often carries `Content-Type: application/json`
 * and no body). Create the app with `bodyParser: false` so this parser is the only one.
 * Signals and the graceful stop are handled by runService (main.ts); tests close the app.
 */
export function configureApp(app: NestFastifyApplication): void {
  app.useGlobalFilters(new HttpErrorFilter());
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error('request body is not valid JSON'), { statusCode: 400 }), undefined);
    }
  });
}
