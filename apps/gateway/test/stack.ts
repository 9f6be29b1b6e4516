export * from '@jobs/e2e-support';
