import { z } from 'zod';
import { databaseUrlSetting, SharedEnvSchema } from '@jobs/config';
import { SERVICE_ROLES } from '@jobs/db/roles';

export const BillingEnvSchema = SharedEnvSchema.extend({
  DATABASE_URL: databaseUrlSetting(SERVICE_ROLES.billing),
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9104),
  /**
   * How long billing keeps the mark that finds a message come again: longer than the broker keeps
   * messages (Kafka's default is 7 days, whole segments past it), so no message outlives its mark.
   */
  PROCESSED_MARKS_RETENTION_HOURS: z.coerce.number().int().min(25).default(192),
});
export type BillingConfig = z.infer<typeof BillingEnvSchema>;
export const BILLING_CONFIG = Symbol('BILLING_CONFIG');
