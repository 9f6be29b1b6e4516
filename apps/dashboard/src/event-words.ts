/** What an event of the feed is about, in a line of words. Plain functions, no DOM. */
import type { Event } from './api.js';

export function eventSummary(event: Event): string {
  switch (event.type) {
    case 'job.opened':
    case 'job.updated':
      return `${event.data.job.title} at ${event.data.job.company.name}`;
    case 'job.reposted': {
      const count = event.data.job.repost_count;
      return `${event.data.job.title} at ${event.data.job.company.name}, reposted ${count === 1 ? 'once' : `${count} times`}`;
    }
    case 'job.closed':
      return (
        `${event.data.job.title} at ${event.data.job.company.name}, closed` +
        (event.data.job.closed_reason ? ` (${event.data.job.closed_reason})` : '')
      );
    case 'company.hiring_started':
      return `${event.data.company.name} is hiring`;
    case 'company.hiring_stopped':
      return `${event.data.company.name} stopped hiring`;
    case 'search.completed': {
      const { id, status, jobs_found: found } = event.data.search;
      return `search ${id} ${status}, ${found} ${found === 1 ? 'job' : 'jobs'} found`;
    }
  }
}
