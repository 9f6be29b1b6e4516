import type { FastifyInstance } from 'fastify';

/** The public API's routes: a GET there may charge (a job, a company profile). */
const API_PREFIX = '/v1/';

/**
 * HEAD is not served on the API: Fastify answers a HEAD with the GET route's handler, which for
 * `GET /v1/jobs/{id}` and `GET /v1/companies/{domain}` charges credits and then drops the body,
 * so a link checker or uptime probe would pay for answers it never reads. A HEAD of an API route
 * is answered `405` with `Allow: GET`, before any guard, rate limit or charge; a HEAD of a path
 * with no route stays a 404. The docs and the dashboard's pages keep HEAD (they charge nothing).
 */
export function installApiHeadRefusal(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'HEAD') return done();
    // The route that matched, not the URL as sent: the router decodes the path first, so
    // `/%761/jobs/...` reaches the same GET. No route: the 404 as for any path.
    const route = request.routeOptions.url;
    if (route === undefined || !route.startsWith(API_PREFIX)) return done();
    void reply.code(405).header('Allow', 'GET').send();
  });
}
