import { z } from 'zod';
import { databaseUrlSetting, SharedEnvSchema } from '@jobs/config';
import { SERVICE_ROLES } from '@jobs/db/roles';

export const BillingEnvSchema = SharedEnvSchema.extend({
  DATABASE_URL: databaseUrlSetting(SERVICE_ROLES.billing),
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9104),
});
export type BillingConfig = z.infer<typeof BillingEnvSchema>;
